/**
 * engine-states' core: hierarchical state machines in three declaration styles (XState's config,
 * polled tables, the builder FSM), compiled once and run on plain objects. No ECS, no JSON, no HTTP:
 * a headless tool, a test or a bot needs this module alone.
 *
 * <p>A game reads the root package (the entry points {@code Machine}, {@code StatesDef} and
 * {@code MachineView}), {@code declare} (the DSL, {@code Event}, the exceptions and the builder
 * style's handler and context contract), {@code plain} and {@code fsm} (machines on plain objects).
 * The compiled chart, the per-instance record and the algorithm are the engine's own: they are
 * shared by every room on every thread and are exported only to the other engine-states modules
 * and the test kit.
 */
// The modules named in the qualified exports are compiled after this one, so javac cannot see
// them here and would warn that each is not found; that is expected, hence the suppression.
@SuppressWarnings("module")
module dev.enginestates.core {
    // only the builder style's StateContext and AIContext name Dominion's Entity: a context that
    // lives on no entity needs no Dominion; a game on entities reads it through dev.enginestates.ecs
    requires static dev.dominion.ecs.api;
    // the SlowCode flight-recorder event (Flight): part of the JDK, read by name, never exported
    requires jdk.jfr;

    exports dev.enginestates;
    exports dev.enginestates.declare;
    exports dev.enginestates.plain;
    exports dev.enginestates.fsm;

    exports dev.enginestates.chart to dev.enginestates.ecs, dev.enginestates.io, dev.enginestates.xstate,
            dev.enginestates.scxml, dev.enginestates.devtools, dev.enginestates.testing;
    exports dev.enginestates.records to dev.enginestates.ecs, dev.enginestates.io, dev.enginestates.xstate,
            dev.enginestates.scxml, dev.enginestates.devtools, dev.enginestates.testing;
    exports dev.enginestates.algorithm to dev.enginestates.ecs, dev.enginestates.io, dev.enginestates.xstate,
            dev.enginestates.scxml, dev.enginestates.devtools, dev.enginestates.testing;
}

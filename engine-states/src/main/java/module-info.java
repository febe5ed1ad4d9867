/**
 * engine-states: hierarchical state machines as ECS components on Dominion, in three
 * declaration styles (XState's config, polled tables, the builder FSM), on entities or on plain
 * objects, with dumps, checkpoints and replays.
 *
 * <p>A game reads the root package (the entry points {@code Machine}, {@code StatesDef} and
 * {@code MachineView}), {@code declare} (the DSL, {@code Event}, the exceptions and the
 * builder style's handler and context contract), {@code ecs} (the world), {@code plain} and
 * {@code fsm} (machines on plain objects), {@code io} (saves and input logs),
 * {@code xstate} (JSON import and export), {@code diagram} (Mermaid and DOT diagrams) and
 * {@code devtools} (a page that shows a world's machines, live). The compiled chart, the
 * per-instance record and the algorithm are the engine's own: they are shared by every room on
 * every thread and are not exported, but to the test kit.
 */
module dev.enginestates {
    requires transitive dev.enginestates.dominion;
    // dumps, checkpoints, input logs and the XState import only: a game that uses none of them needs no Jackson
    requires static com.fasterxml.jackson.databind;
    // the SCXML import's ECMAScript datamodel only: a game that runs no ECMAScript documents needs no Rhino
    requires static org.mozilla.rhino;

    exports dev.enginestates;
    exports dev.enginestates.declare;
    exports dev.enginestates.ecs;
    exports dev.enginestates.plain;
    exports dev.enginestates.fsm;
    exports dev.enginestates.io;
    exports dev.enginestates.xstate;
    exports dev.enginestates.scxml;
    exports dev.enginestates.diagram;
    exports dev.enginestates.devtools;

    exports dev.enginestates.chart to dev.enginestates.testing;
    exports dev.enginestates.records to dev.enginestates.testing;
    exports dev.enginestates.algorithm to dev.enginestates.testing;
}

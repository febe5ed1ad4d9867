/**
 * engine-states on Dominion ECS: a machine's record is a component of its entity, each active
 * state a tag component that queries find, and one fixed-step system moves every machine of a
 * world ({@code dev.enginestates.ecs.StateWorld}).
 */
module dev.enginestates.ecs {
    requires transitive dev.enginestates.core;
    // Dominion 0.9.0 with engine-states' patches; its API (dev.dominion.ecs.api) comes with it
    requires transitive dev.enginestates.dominion;
    // flight-recorder events (WorldFlight), read by name: part of the JDK, never exported
    requires jdk.jfr;

    exports dev.enginestates.ecs;
}

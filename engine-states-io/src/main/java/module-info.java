/**
 * Dumps, checkpoints, input logs, replays and streaming to replicas ({@code dev.enginestates.io}),
 * written as JSON with Jackson.
 */
module dev.enginestates.io {
    requires transitive dev.enginestates.ecs;
    requires com.fasterxml.jackson.databind;
    // flight-recorder events (SaveFlight), read by name: part of the JDK, never exported
    requires jdk.jfr;

    exports dev.enginestates.io;
}

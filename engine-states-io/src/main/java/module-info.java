/**
 * Dumps, checkpoints, input logs, replays and streaming to replicas ({@code dev.enginestates.io}),
 * written as JSON with Jackson.
 */
module dev.enginestates.io {
    requires transitive dev.enginestates.ecs;
    requires com.fasterxml.jackson.databind;

    exports dev.enginestates.io;
}

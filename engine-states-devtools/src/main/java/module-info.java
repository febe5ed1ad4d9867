/**
 * Devtools ({@code dev.enginestates.devtools}): a local web page that shows a world's machines
 * live, served by its own small HTTP server on a local socket.
 */
module dev.enginestates.devtools {
    requires transitive dev.enginestates.ecs;
    requires dev.enginestates.io;
    requires com.fasterxml.jackson.databind;

    exports dev.enginestates.devtools;
}

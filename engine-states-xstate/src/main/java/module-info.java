/**
 * XState JSON import and export ({@code dev.enginestates.xstate}), and Mermaid and DOT diagrams of
 * any machine ({@code dev.enginestates.diagram}).
 */
module dev.enginestates.xstate {
    requires transitive dev.enginestates.ecs;
    // XStateImport.from(JsonNode) takes a parsed tree: Jackson is part of this module's API
    requires transitive com.fasterxml.jackson.databind;

    exports dev.enginestates.xstate;
    exports dev.enginestates.diagram;
}

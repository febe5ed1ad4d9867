package dev.enginestates.ecs;

/** The template of every state's tag component class; each state gets a hidden copy. */
final class TagTemplate extends StateTag {
    TagTemplate() {
    }
}

package dev.enginestates.ecs;

/** The template of every machine's record component class; each machine gets a hidden copy. */
final class RecordTemplate extends StateRecord<Object> {
    RecordTemplate() {
    }
}

package dev.enginestates.ecs;

/** The template of every machine's record component class; each machine gets a hidden copy. */
final class RecordTemplate extends EntityRecord<Object> {
    RecordTemplate(States<Object> states, Object context) {
        super(states, context);
    }
}

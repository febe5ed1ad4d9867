package dev.enginestates.samples.docs;

import dev.dominion.ecs.api.Entity;
import dev.enginestates.Machine;
import dev.enginestates.declare.Event;
import dev.enginestates.ecs.StateWorld;
import dev.enginestates.ecs.States;
import dev.enginestates.plain.StateMachine;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * The code of docs/statecharts.md's "Asking before sending", compiled: a door asked which events it
 * would take now, to grey out the buttons a menu offers, on a plain object and on an entity
 * ({@code DocsCodeTest} runs {@link #answers()}).
 */
public final class AskBeforeSending {
    private AskBeforeSending() {
    }

    /** The door's context. */
    public static final class Door {
        /** Whether the lock is on. */
        public boolean locked = true;
        /** How often it opened: an action, which asking never runs. */
        public int opened;
    }

    /** A locked door: OPEN is taken once the lock is off, UNLOCK only with the right key. */
    public static final Machine<Door> DOOR = Machine.define("door", Door::new, m -> m
        .initial("shut")
        .state("shut", s -> s
            .on("OPEN", t -> t.guard((door, e) -> !door.locked).target("open").action((door, e) -> door.opened++))
            .on("UNLOCK", t -> t.guard((door, e) -> "brass".equals(e.get("key"))).action((door, e) -> door.locked = false)))
        .state("open", s -> s.on("CLOSE", "shut")));

    /** The same door on entities. */
    public static final States<Door> DOORS = States.of(DOOR);

    /** What the page's lines answer, in order, then the door's opened count (0: asking ran no action). */
    public static List<Object> answers() {
        List<Object> out = new ArrayList<>();
        StateMachine<Door> door = new StateMachine<>(DOOR);
        out.add(door.can("OPEN"));                                 // false: the lock is on
        out.add(door.can(Event.of("UNLOCK", Map.of("key", "brass")))); // true: guards read the event's fields
        out.add(door.permittedEvents());                           // [] until a key is given
        door.send(Event.of("UNLOCK", Map.of("key", "brass")));
        out.add(door.permittedEvents());                           // [OPEN]: asked bare, UNLOCK has no key
        try (StateWorld world = StateWorld.create()) {
            Entity front = world.spawn(DOORS.trait());
            out.add(DOORS.can(front, "OPEN"));                     // on an entity, as send takes it
        }
        out.add(door.context().opened);
        return out;
    }
}

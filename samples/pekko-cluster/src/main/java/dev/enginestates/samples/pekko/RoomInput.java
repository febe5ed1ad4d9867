package dev.enginestates.samples.pekko;

import com.fasterxml.jackson.annotation.JsonSubTypes;
import com.fasterxml.jackson.annotation.JsonTypeInfo;

/**
 * A game command to a room: what the engine's {@code InputLog} records from outside the
 * machines (sends, spawns, holds). Steps are not commands: the room's own timer makes them.
 * The rooms write commands to their journal as JSON: a sealed interface names its subtypes.
 */
@JsonTypeInfo(use = JsonTypeInfo.Id.NAME, property = "type")
@JsonSubTypes({
        @JsonSubTypes.Type(value = RoomInput.Send.class, name = "send"),
        @JsonSubTypes.Type(value = RoomInput.Spawn.class, name = "spawn"),
        @JsonSubTypes.Type(value = RoomInput.Hold.class, name = "hold")})
public sealed interface RoomInput {
    /**
     * Sends an event to a guard's machine.
     *
     * @param key   the guard's key
     * @param event the event's type, one of {@link RoomGuard#EVENTS}
     */
    record Send(String key, String event) implements RoomInput {
    }

    /**
     * Spawns a new guard, starting his patrol.
     *
     * @param key the new guard's key; a key already in the room is refused
     */
    record Spawn(String key) implements RoomInput {
    }

    /**
     * Holds a guard where he is (his waits count no seconds) or lets him go on.
     *
     * @param key the guard's key
     * @param on  true to hold, false to release
     */
    record Hold(String key, boolean on) implements RoomInput {
    }
}

package dev.enginestates.samples.pekko;

import java.util.List;

/**
 * A room's world as saved: the engine's checkpoint text (every record exactly, waits mid-way,
 * the clock) and the guards held, which are components of the game's, not records.
 *
 * @param checkpoint the world's checkpoint ({@code Saves.checkpoint})
 * @param held       the keys of the guards held, sorted
 */
public record RoomSnapshot(String checkpoint, List<String> held) {
}

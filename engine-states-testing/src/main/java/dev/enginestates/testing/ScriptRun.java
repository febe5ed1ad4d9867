package dev.enginestates.testing;

import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Locale;

/**
 * What a {@link Script} run did: whether each send was taken, in order, and a transcript of
 * every input with the game time and step it ran at.
 */
public final class ScriptRun {
    final List<Boolean> taken = new ArrayList<>();
    private final List<String> lines = new ArrayList<>();

    ScriptRun() {
    }

    void line(double time, long step, String text) {
        lines.add(String.format(Locale.ROOT, "t=%.3f s (step %d): %s", time, step, text));
    }

    /**
     * Whether each send of the script was taken by a state, in the order they were sent.
     *
     * @return one entry per send, {@code true} where a state took the event; read-only
     */
    public List<Boolean> taken() {
        return Collections.unmodifiableList(taken);
    }

    /**
     * The transcript: one line per input run, such as {@code t=3.000 s (step 180): send BELL to guard-1 (guard): taken, now guard: answer}.
     *
     * @return the lines in the order the inputs ran; read-only
     */
    public List<String> transcript() {
        return Collections.unmodifiableList(lines);
    }

    String text() {
        StringBuilder b = new StringBuilder();
        for (String l : lines) {
            b.append("  ").append(l).append('\n');
        }
        return b.length() == 0 ? "  (nothing ran yet)\n" : b.toString();
    }

    @Override
    public String toString() {
        return text();
    }
}

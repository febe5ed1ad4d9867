package dev.enginestates.testing;

import dev.enginestates.declare.Event;

import java.util.List;
import java.util.Objects;

/**
 * One input of a generated path, and where it leaves the machine: an event sent, a wait of whole
 * steps, or a change of the context the game named ({@link MachinePaths#given}).
 *
 * @param kind   what the input is
 * @param event  the event sent ({@link Kind#EVENT}), else {@code null}
 * @param given  the name of the context change ({@link Kind#GIVEN}), else {@code null}
 * @param steps  the fixed steps waited ({@link Kind#WAIT}; 1 after a {@link Kind#GIVEN}, so the machine sees it), else 0
 * @param seconds the game time those steps make
 * @param leaves the machine's active leaves after the input, as dotted paths
 */
public record PathStep(Kind kind, Event event, String given, int steps, double seconds, List<String> leaves) {
    /** What an input is. */
    public enum Kind {
        /** An event sent to the machine. */
        EVENT,
        /** Game time passing until the machine moves by itself (a wait, a timer, a rule tested each step). */
        WAIT,
        /** A change of the machine's context the game makes, followed by one step. */
        GIVEN
    }

    /**
     * Copies the leaves, so a step never changes.
     *
     * @param kind    what the input is
     * @param event   the event sent, else {@code null}
     * @param given   the name of the context change, else {@code null}
     * @param steps   the fixed steps waited
     * @param seconds the game time those steps make
     * @param leaves  the machine's active leaves after the input
     */
    public PathStep {
        Objects.requireNonNull(kind, "kind");
        leaves = List.copyOf(leaves);
    }

    /**
     * The input as a path's name writes it: {@code "BELL"}, {@code "(4 s)"}, {@code "[a goal is scored]"}.
     *
     * @return the input as a label
     */
    public String label() {
        return switch (kind) {
            case EVENT -> event.fields().isEmpty() ? event.type() : event.type() + " " + event.fields();
            case WAIT -> "(" + (steps == 1 ? "1 step" : seconds(seconds) + " s") + ")";
            case GIVEN -> "[" + given + "]";
        };
    }

    /** The leaves as a path's name writes them: one path, or the regions' leaves joined by {@code " + "}. */
    static String where(List<String> leaves) {
        return leaves.isEmpty() ? "(done)" : String.join(" + ", leaves);
    }

    /** Seconds as a test names them: {@code 4}, {@code 0.5}, {@code 1.25}. */
    static String seconds(double s) {
        double r = Math.round(s * 1000) / 1000.0;
        return r == Math.rint(r) ? Long.toString((long) r) : Double.toString(r);
    }
}

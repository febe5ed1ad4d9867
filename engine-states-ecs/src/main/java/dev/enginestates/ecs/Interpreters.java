package dev.enginestates.ecs;

import dev.enginestates.algorithm.Interpreter;
import dev.enginestates.algorithm.Scratch;

import java.util.Arrays;

/**
 * A world's interpreters, one per nesting depth: a game's action may send to another machine
 * while one is processing, and each level needs scratch space of its own. Every move of a
 * machine takes one level's {@link Scratch} ({@link #take}) and gives it back with
 * {@link #release()}; {@link #depth()} is how many moves are under way.
 */
final class Interpreters {
    /**
     * The deepest moves may nest: a machine's code sending to another machine whose code sends on
     * (a row of fuses, each lighting the next). Each level costs the thread's stack some kilobytes,
     * and a chain that overflows it leaves records and tags half-moved; past this depth a move is
     * refused, as the sending code's failure.
     */
    static final int MAX_DEPTH = 64;
    private Scratch[] levels = {new Scratch()};
    private int depth;
    /** The number of the call into the world (a tick, an event from outside) that the moves under way belong to. */
    private long call;

    /** The innermost move's interpreter, as an XState-style one (whose machine's code runs now), or {@code null} when no move is under way. */
    Interpreter current() {
        return depth > 0 ? levels[depth - 1].xstateIfMade() : null;
    }

    /** The scratch of a new move, of any style, on the world's clock at {@code at}; give it back with {@link #release()}. */
    Scratch take(double at) {
        checkDepth();
        if (depth >= levels.length) {
            int from = levels.length;
            levels = Arrays.copyOf(levels, depth + 1);
            for (int i = from; i <= depth; i++) {
                levels[i] = new Scratch();
            }
        }
        return levels[depth++].at(at, call);
    }

    /** An XState-style interpreter on the world's clock at {@code at} (a due wait, a {@code when} rule). */
    Interpreter xstate(double at) {
        return take(at).xstate();
    }

    private void checkDepth() {
        if (depth >= MAX_DEPTH) {
            throw new IllegalStateException("a move nested " + MAX_DEPTH + " deep was refused: machines' code sent to other machines"
                    + " whose code sent on, " + MAX_DEPTH + " moves inside one another; expected a chain that ends sooner, or one that"
                    + " goes on in the next step (set a flag or a component the next machine's wait or when rule reads)");
        }
    }

    /** A new call into the world begins (a tick, or an event from outside): the moves from now on belong to it. */
    void newCall() {
        call++;
    }

    /** Gives back the interpreter of the innermost move. */
    void release() {
        depth--;
    }

    /** How many moves are under way (0: none, the world is at rest). */
    int depth() {
        return depth;
    }
}

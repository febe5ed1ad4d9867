package dev.enginestates.ecs;

import dev.enginestates.algorithm.Interpreter;
import dev.enginestates.algorithm.PolledInterpreter;

import java.util.Arrays;

/**
 * A world's interpreters, one per nesting depth: a game's action may send to another machine
 * while one is processing, and each level needs scratch space of its own. Every move of a
 * machine takes one ({@link #xstate}, {@link #polled}, or {@link #builder} for the stateless
 * builder-style interpreter) and gives it back with {@link #release()}; {@link #depth()} is how
 * many moves are under way.
 */
final class Interpreters {
    /**
     * The deepest moves may nest: a machine's code sending to another machine whose code sends on
     * (a row of fuses, each lighting the next). Each level costs the thread's stack some kilobytes,
     * and a chain that overflows it leaves records and tags half-moved; past this depth a move is
     * refused, as the sending code's failure.
     */
    static final int MAX_DEPTH = 64;
    private Interpreter[] xstate = {new Interpreter()};
    private PolledInterpreter[] polled = {new PolledInterpreter()};
    private int depth;
    /** The number of the call into the world (a tick, an event from outside) that the moves under way belong to. */
    private long call;

    /** The innermost move's interpreter, as an XState-style one (whose machine's code runs now), or {@code null} when no move is under way. */
    Interpreter current() {
        return depth > 0 && depth <= xstate.length ? xstate[depth - 1] : null;
    }

    /** An XState-style interpreter on the world's clock at {@code at}. */
    Interpreter xstate(double at) {
        checkDepth();
        if (depth >= xstate.length) {
            int from = xstate.length;
            xstate = Arrays.copyOf(xstate, depth + 1);
            for (int i = from; i <= depth; i++) {
                xstate[i] = new Interpreter(); // the levels below may have been other styles' moves
            }
        }
        Interpreter in = xstate[depth++];
        in.clock(at);
        in.call(call);
        return in;
    }

    /** A polled-style interpreter. */
    PolledInterpreter polled() {
        checkDepth();
        if (depth >= polled.length) {
            int from = polled.length;
            polled = Arrays.copyOf(polled, depth + 1);
            for (int i = from; i <= depth; i++) {
                polled[i] = new PolledInterpreter();
            }
        }
        depth++;
        return polled[depth - 1];
    }

    /** A builder-style move: that interpreter is stateless, only the nesting is counted. */
    void builder() {
        checkDepth();
        depth++;
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

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
    private Interpreter[] xstate = {new Interpreter()};
    private PolledInterpreter[] polled = {new PolledInterpreter()};
    private int depth;

    /** The innermost move's interpreter, as an XState-style one (whose machine's code runs now), or {@code null} when no move is under way. */
    Interpreter current() {
        return depth > 0 && depth <= xstate.length ? xstate[depth - 1] : null;
    }

    /** An XState-style interpreter on the world's clock at {@code at}. */
    Interpreter xstate(double at) {
        if (depth >= xstate.length) {
            int from = xstate.length;
            xstate = Arrays.copyOf(xstate, depth + 1);
            for (int i = from; i <= depth; i++) {
                xstate[i] = new Interpreter(); // the levels below may have been other styles' moves
            }
        }
        Interpreter in = xstate[depth++];
        in.clock(at);
        return in;
    }

    /** A polled-style interpreter. */
    PolledInterpreter polled() {
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
        depth++;
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

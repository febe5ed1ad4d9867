package dev.enginestates.bench;

import java.util.Objects;
import java.util.function.IntFunction;

/**
 * The check the cycle benchmarks' set-ups share (polled, builder and gdx-ai alike): over one
 * period of steps every machine moves exactly once, so a benchmark cannot quietly measure
 * machines that do nothing, or that move more often than it says.
 */
final class Moves {
    private Moves() {
    }

    /**
     * Runs {@code steps} steps, reading each of the {@code n} machines' states before and after
     * every one, and checks that each machine's state changed on exactly one of them.
     *
     * @param what    what a machine is called in the message ("machine", "agent", ...)
     * @param stateOf machine {@code i}'s current state (compared with {@link Objects#equals})
     * @param step    one step of all {@code n}
     * @throws IllegalStateException naming the first machine that moved another number of times
     */
    static void checkEachMovesOnce(String what, int n, int steps, IntFunction<Object> stateOf, Runnable step) {
        int[] moves = new int[n];
        Object[] was = new Object[n];
        for (int k = 0; k < steps; k++) {
            for (int i = 0; i < n; i++) {
                was[i] = stateOf.apply(i);
            }
            step.run();
            for (int i = 0; i < n; i++) {
                if (!Objects.equals(was[i], stateOf.apply(i))) {
                    moves[i]++;
                }
            }
        }
        for (int i = 0; i < n; i++) {
            if (moves[i] != 1) {
                throw new IllegalStateException(what + " " + i + " of " + n + " moved " + moves[i] + " times in " + steps
                        + " steps (one period of its cycle); expected once");
            }
        }
    }
}

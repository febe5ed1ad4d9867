package dev.enginestates.ecs;

import dev.enginestates.algorithm.TimeRules;
import org.junit.jupiter.api.Test;

import java.util.Arrays;
import java.util.Random;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The timing wheel gives exactly what a sorted list of (due time, slot) gives: fed the same
 * random schedules, cancels, takes (with chained waits set while a tick's due waits are taken),
 * renumberings and steps of random length, from clocks near 0 up to 1e12 s, every due wait comes
 * out in the same order, at the same time, and none comes out early.
 */
class WaitWheelPropertyTest {
    private static final int SLOTS = 48;

    /** The model: due times by slot (+infinity for none); the first is the least (due, slot). */
    private static final class Model {
        final double[] due = new double[SLOTS];

        Model() {
            Arrays.fill(due, Double.POSITIVE_INFINITY);
        }

        int first() {
            int best = -1;
            for (int s = 0; s < SLOTS; s++) {
                if (due[s] != Double.POSITIVE_INFINITY && (best < 0 || due[s] < due[best])) {
                    best = s;
                }
            }
            return best;
        }

        int size() {
            int n = 0;
            for (double d : due) {
                n += d == Double.POSITIVE_INFINITY ? 0 : 1;
            }
            return n;
        }
    }

    @Test
    void the_wheel_takes_due_waits_in_the_order_and_at_the_times_a_sorted_list_does() {
        for (int seed = 0; seed < 400; seed++) {
            run(seed);
        }
    }

    private static void run(int seed) {
        Random rnd = new Random(seed);
        double[] starts = {0, 37.25, 1e6 + 0.1, 1e12 - 3};
        double clock = starts[rnd.nextInt(starts.length)];
        WaitWheel wheel = new WaitWheel();
        Model model = new Model();
        String where = "seed " + seed;
        for (int step = 0; step < 300; step++) {
            int ops = rnd.nextInt(6);
            for (int i = 0; i < ops; i++) {
                change(rnd, wheel, model, clock, clock);
            }
            if (rnd.nextInt(40) == 0) {
                renumber(rnd, wheel, model);
            }
            check(wheel, model, where);
            clock += dt(rnd, clock);
            double now = clock + TimeRules.TIME_TOLERANCE;
            wheel.advance(now);
            int taken = 0;
            while (true) {
                int f = model.first();
                if (f < 0 || model.due[f] > now) {
                    assertTrue(wheel.peekDue() > now, where + ": the wheel has a due wait the model has not, at " + clock);
                    break;
                }
                double at = model.due[f];
                assertEquals(at, wheel.peekDue(), where + ": the first due time at clock " + clock);
                int[] batch = new int[SLOTS];
                int n = 0;
                while (wheel.peekDue() == at) {
                    int s = wheel.poll();
                    assertEquals(model.first(), s, where + ": the slot taken at " + at);
                    model.due[s] = Double.POSITIVE_INFINITY;
                    batch[n++] = s;
                }
                assertTrue(model.first() < 0 || model.due[model.first()] > at, where + ": a batch left one of its time behind");
                for (int i = 0; i < n && taken++ < 500; i++) {
                    // taking a wait may chain one (at its exact time or later) or change another machine's
                    if (rnd.nextInt(3) == 0) {
                        double chained = at + pick(rnd, new double[] {0, 1 / 60.0, 1e-3, 0.5, 70, 1e9});
                        wheel.set(batch[i], chained);
                        model.due[batch[i]] = chained;
                    }
                    if (rnd.nextInt(4) == 0) {
                        change(rnd, wheel, model, at, clock);
                    }
                }
            }
        }
    }

    /** A random schedule or cancel of a random slot, due from {@code base} on (or already due by {@code clock}). */
    private static void change(Random rnd, WaitWheel wheel, Model model, double base, double clock) {
        int s = rnd.nextInt(SLOTS);
        if (rnd.nextInt(4) == 0) {
            wheel.remove(s);
            model.due[s] = Double.POSITIVE_INFINITY;
            return;
        }
        double at = switch (rnd.nextInt(7)) {
            case 0 -> base;
            case 1 -> base + (1 + rnd.nextInt(120)) / 60.0; // equal due times, often
            case 2 -> base + rnd.nextDouble() * 2;
            case 3 -> base + 60 + rnd.nextDouble() * 10; // around the wheel's reach (64 s)
            case 4 -> base + rnd.nextDouble() * 1e5; // overflow
            case 5 -> clock - rnd.nextDouble(); // overdue
            default -> base + 1e9;
        };
        wheel.set(s, at);
        model.due[s] = at;
    }

    private static double dt(Random rnd, double clock) {
        return switch (rnd.nextInt(8)) {
            case 0 -> 0;
            case 1 -> rnd.nextDouble() * 0.2;
            case 2 -> 10 + rnd.nextDouble() * 100; // past the wheel's reach
            case 3 -> rnd.nextInt(20) == 0 ? 1e6 * rnd.nextDouble() : 1 / 30.0;
            case 4 -> Math.max(Math.ulp(clock) * 2, 1e-7);
            default -> 1 / 60.0;
        };
    }

    /** Closes up random holes in the slots, keeping their order, in both. */
    private static void renumber(Random rnd, WaitWheel wheel, Model model) {
        int[] newSlot = new int[SLOTS];
        double[] moved = new double[SLOTS];
        Arrays.fill(moved, Double.POSITIVE_INFINITY);
        int w = 0;
        for (int s = 0; s < SLOTS; s++) {
            boolean gone = model.due[s] == Double.POSITIVE_INFINITY && rnd.nextBoolean();
            newSlot[s] = gone ? -1 : w;
            if (!gone) {
                moved[w++] = model.due[s];
            }
        }
        wheel.renumber(newSlot, SLOTS);
        System.arraycopy(moved, 0, model.due, 0, SLOTS);
    }

    private static void check(WaitWheel wheel, Model model, String where) {
        assertEquals(model.size(), wheel.size(), where + ": how many waits");
        for (int s = 0; s < SLOTS; s++) {
            assertEquals(model.due[s], wheel.dueOf(s), where + ": the due time of slot " + s);
        }
    }

    private static double pick(Random rnd, double[] from) {
        return from[rnd.nextInt(from.length)];
    }
}

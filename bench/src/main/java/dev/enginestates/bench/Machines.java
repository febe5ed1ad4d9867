package dev.enginestates.bench;

import dev.enginestates.Machine;
import dev.enginestates.declare.HistoryDepth;
import dev.enginestates.ecs.StateRecord;
import dev.enginestates.ecs.StateWorld;
import dev.enginestates.ecs.States;

import java.util.List;

/**
 * The machines of the benchmark plan (issue 6), each the smallest that shows its case, and
 * the worlds the step benchmarks run. Every machine is declared twice, with one tag
 * component per state and with {@code tags(false)}, so the cost of Dominion's composition
 * moves shows as the difference.
 */
final class Machines {
    /** The fixed step: 60 Hz. */
    static final double DT = 1.0 / 60;

    /** A context with nothing in it. */
    static final class Nothing {
    }

    private Machines() {
    }

    // ------------------------------------------------------------------ A: parked

    /** Case A: three states that move only on events (no wait, no {@code when}). */
    private static Machine<Nothing> parked(boolean tags) {
        return Machine.define(tags ? "parked" : "parked-untagged", Nothing::new, m -> m
                .tags(tags)
                .initial("idle")
                .state("idle", s -> s.on("GO", "walk"))
                .state("walk", s -> s.on("GO", "run"))
                .state("run", s -> s.on("GO", "idle")));
    }

    static final States<Nothing> PARKED = States.of(parked(true));
    static final States<Nothing> PARKED_UNTAGGED = States.of(parked(false));

    // ------------------------------------------------------------------ B: a long wait

    /** Case B: a wait of 1e9 seconds. */
    private static Machine<Nothing> longWait(boolean tags) {
        return Machine.define(tags ? "long-wait" : "long-wait-untagged", Nothing::new, m -> m
                .tags(tags)
                .initial("waiting")
                .state("waiting", s -> s.waitFor(1e9, "done"))
                .state("done"));
    }

    static final States<Nothing> LONG_WAIT = States.of(longWait(true));
    static final States<Nothing> LONG_WAIT_UNTAGGED = States.of(longWait(false));

    // ------------------------------------------------------------------ C, D, E: on/off cycles

    /** Cases C, D and E: on/off, a wait of {@code period} seconds in each state. */
    private static Machine<Nothing> cycle(double period, boolean tags) {
        String id = "cycle-" + (int) period + "s" + (tags ? "" : "-untagged");
        return Machine.define(id, Nothing::new, m -> m
                .tags(tags)
                .initial("off")
                .state("off", s -> s.waitFor(period, "on"))
                .state("on", s -> s.waitFor(period, "off")));
    }

    static final States<Nothing> CYCLE_5S = States.of(cycle(5, true));
    static final States<Nothing> CYCLE_5S_UNTAGGED = States.of(cycle(5, false));
    static final States<Nothing> CYCLE_1S = States.of(cycle(1, true));
    static final States<Nothing> CYCLE_1S_UNTAGGED = States.of(cycle(1, false));

    // ------------------------------------------------------------------ T: one transition

    /** Flat on/off. */
    static Machine<Nothing> flat(boolean tags) {
        return Machine.define(tags ? "flat" : "flat-untagged", Nothing::new, m -> m
                .tags(tags)
                .initial("off")
                .state("off", s -> s.on("TOGGLE", "on"))
                .state("on", s -> s.on("TOGGLE", "off")));
    }

    /** The 3-level guard: patrol.walking.north/south, looking; alert with search/chase; CALM returns through a deep history. */
    static Machine<Nothing> guard(boolean tags) {
        return Machine.define(tags ? "guard" : "guard-untagged", Nothing::new, m -> m
                .tags(tags)
                .initial("patrol")
                .state("patrol", p -> p
                        .initial("walking")
                        .state("walking", w -> w
                                .initial("north")
                                .state("north", s -> s.on("TURN", "south"))
                                .state("south", s -> s.on("TURN", "north")))
                        .state("looking")
                        .history("resume", HistoryDepth.DEEP)
                        .on("ALARM", "alert"))
                .state("alert", a -> a
                        .initial("search")
                        .state("search")
                        .state("chase")
                        .on("CALM", "patrol.resume")));
    }

    /** A parallel machine of 3 regions, each a 2-state toggle on GO. */
    static Machine<Nothing> regions(boolean tags) {
        return Machine.define(tags ? "regions" : "regions-untagged", Nothing::new, m -> m
                .tags(tags)
                .parallel()
                .state("a", r -> r.initial("a1").state("a1", s -> s.on("GO", "a2")).state("a2", s -> s.on("GO", "a1")))
                .state("b", r -> r.initial("b1").state("b1", s -> s.on("GO", "b2")).state("b2", s -> s.on("GO", "b1")))
                .state("c", r -> r.initial("c1").state("c1", s -> s.on("GO", "c2")).state("c2", s -> s.on("GO", "c1"))));
    }

    static final Machine<Nothing> FLAT = flat(true);
    static final Machine<Nothing> FLAT_UNTAGGED = flat(false);
    static final Machine<Nothing> GUARD = guard(true);
    static final Machine<Nothing> GUARD_UNTAGGED = guard(false);
    static final Machine<Nothing> REGIONS = regions(true);
    static final Machine<Nothing> REGIONS_UNTAGGED = regions(false);

    // ------------------------------------------------------------------ worlds

    /** A new world with {@code n} entities, each holding one record of the machine (and nothing else). */
    static <C> StateWorld world(States<C> machine, int n) {
        StateWorld world = StateWorld.create();
        for (int i = 0; i < n; i++) {
            world.spawn(machine.trait());
        }
        return world;
    }

    /**
     * Staggers the machines' waits: machine {@code i} of {@code n} starts {@code i/n} of a
     * period into its wait, so about {@code n * dt / period} waits end on each step.
     */
    static void stagger(StateWorld world, States<Nothing> machine, double period) {
        List<StateRecord<Nothing>> records = world.records(machine);
        int n = records.size();
        for (int i = 0; i < n; i++) {
            records.get(i).setWaited(i * period / n);
        }
    }

    /**
     * Checks that the benchmark measures what it says: over one period of steps every cycling
     * machine moves exactly once (so it ends in the other state). Run in set-up, outside the
     * measurement.
     *
     * @throws IllegalStateException naming the first machine that did not move
     */
    static void checkEachMovesOncePerPeriod(StateWorld world, States<Nothing> machine, double period) {
        List<StateRecord<Nothing>> records = world.records(machine);
        Object[] before = new Object[records.size()];
        for (int i = 0; i < before.length; i++) {
            before[i] = records.get(i).value();
        }
        int steps = (int) Math.round(period / DT);
        for (int k = 0; k < steps; k++) {
            world.step(DT);
        }
        for (int i = 0; i < before.length; i++) {
            if (before[i].equals(records.get(i).value())) {
                throw new IllegalStateException("machine " + i + " of " + before.length + " did not move once in " + steps
                        + " steps of a " + period + " s cycle: " + records.get(i));
            }
        }
    }

    /** Checks that every machine is in the state, waiting or not as said. */
    static void checkAll(StateWorld world, States<Nothing> machine, String state, boolean waiting) {
        for (StateRecord<Nothing> r : world.records(machine)) {
            if (!r.matches(state) || r.isWaiting() != waiting) {
                throw new IllegalStateException("expected every machine in '" + state + "'" + (waiting ? ", waiting" : "") + "; got " + r);
            }
        }
    }

    /**
     * Steps a new world for some seconds, so its code paths are warm; with the period's check
     * after it, every machine has moved both ways, so every tag move is prepared.
     */
    static void settle(StateWorld world, double seconds) {
        int steps = (int) Math.ceil(seconds / DT);
        for (int i = 0; i < steps; i++) {
            world.step(DT);
        }
    }
}

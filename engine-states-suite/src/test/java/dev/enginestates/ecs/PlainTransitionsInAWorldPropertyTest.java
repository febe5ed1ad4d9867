package dev.enginestates.ecs;

import dev.dominion.ecs.api.Entity;
import dev.enginestates.Machine;
import dev.enginestates.RandomStatecharts;
import dev.enginestates.chart.Chart;
import dev.enginestates.records.Access;
import dev.enginestates.records.RecordDifference;
import org.junit.jupiter.api.Test;

import java.util.Arrays;
import java.util.List;
import java.util.SplittableRandom;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The interpreter's fast path for plain transitions ({@code Chart.tPlain}) seen from a world: a
 * world whose machines take their plain transitions the fast way (waits through the wheel,
 * events, done transitions) is, after every step and every event, the world whose chart has its
 * plain marks cleared: each record the same (configuration and order, entry times, waits,
 * histories), each context the same, each entity carrying the same state tags, and the same
 * failures. Random mostly-plain machines, 12 entities each, random steps, events and despawns.
 */
class PlainTransitionsInAWorldPropertyTest {
    private static final int ENTITIES = 12;

    @Test
    void aWorldTakingPlainTransitionsIsTheWorldThatTakesThemTheGeneralWay() {
        int runs = Integer.getInteger("property.runs", 120);
        int plainMachines = 0;
        for (int seed = 1; seed <= runs; seed++) {
            Machine<List<String>> generalMachine = RandomStatecharts.mostlyPlain(seed);
            Arrays.fill(Access.chart(generalMachine).tPlain, false);
            Machine<List<String>> fastMachine = RandomStatecharts.mostlyPlain(seed);
            Chart chart = Access.chart(fastMachine);
            boolean anyPlain = false;
            for (boolean p : chart.tPlain) {
                anyPlain |= p;
            }
            plainMachines += anyPlain ? 1 : 0;
            States<List<String>> general = States.of(generalMachine);
            States<List<String>> fast = States.of(fastMachine);
            try (StateWorld a = StateWorld.create(); StateWorld b = StateWorld.create()) {
                Entity[] ea = new Entity[ENTITIES];
                Entity[] eb = new Entity[ENTITIES];
                String spawned = outcome(() -> {
                    for (int i = 0; i < ENTITIES; i++) {
                        ea[i] = a.spawn(general.trait());
                    }
                });
                assertEquals(spawned, outcome(() -> {
                    for (int i = 0; i < ENTITIES; i++) {
                        eb[i] = b.spawn(fast.trait());
                    }
                }), "machine " + seed + ": spawning");
                if (spawned != null) {
                    continue; // its done transitions loop from the start, either way
                }
                SplittableRandom r = new SplittableRandom(seed * 7919L);
                for (int round = 0; round < 80; round++) {
                    String where = "machine " + seed + ", round " + round;
                    int pick = r.nextInt(10);
                    if (pick < 5) {
                        double dt = new double[] {1 / 60.0, 1 / 60.0, 0.1, 0.5, 3}[r.nextInt(5)];
                        assertEquals(outcome(() -> a.step(dt)), outcome(() -> b.step(dt)), where + ": a step of " + dt);
                    } else if (pick < 9) {
                        int i = r.nextInt(ENTITIES);
                        String event = RandomStatecharts.PLAIN_EVENTS[r.nextInt(RandomStatecharts.PLAIN_EVENTS.length)];
                        if (!ea[i].isDeleted()) {
                            assertEquals(outcome(() -> general.send(ea[i], event)), outcome(() -> fast.send(eb[i], event)), where + ": " + event);
                        }
                    } else {
                        int i = r.nextInt(ENTITIES);
                        assertEquals(a.despawn(ea[i]), b.despawn(eb[i]), where + ": despawn");
                    }
                    compare(general, fast, a, b, ea, eb, where);
                }
            }
        }
        assertTrue(plainMachines > runs / 2, "most machines have plain transitions: " + plainMachines);
    }

    private static void compare(States<List<String>> general, States<List<String>> fast, StateWorld a, StateWorld b,
            Entity[] ea, Entity[] eb, String where) {
        assertEquals(a.time(), b.time(), where);
        List<Class<? extends StateTag>> tagsA = general.tagTypes();
        List<Class<? extends StateTag>> tagsB = fast.tagTypes();
        for (int i = 0; i < ENTITIES; i++) {
            boolean live = !ea[i].isDeleted();
            assertEquals(live, !eb[i].isDeleted(), where + ": entity " + i + " alive");
            if (!live) {
                continue;
            }
            StateRecord<List<String>> ra = general.read(ea[i]);
            StateRecord<List<String>> rb = fast.read(eb[i]);
            assertNull(RecordDifference.of(Access.record(ra), Access.record(rb)), where + ": entity " + i + ", " + ra + " / " + rb);
            assertEquals(ra.context(), rb.context(), where + ": entity " + i + "'s context");
            for (int k = 0; k < tagsA.size(); k++) {
                assertEquals(ea[i].has(tagsA.get(k)), eb[i].has(tagsB.get(k)), where + ": entity " + i + ", tag " + tagsB.get(k));
            }
        }
    }

    /** What running {@code input} ended in: null, or the kind of what it threw. */
    private static String outcome(Runnable input) {
        try {
            input.run();
            return null;
        } catch (RuntimeException e) {
            return e.getClass().getSimpleName();
        }
    }
}

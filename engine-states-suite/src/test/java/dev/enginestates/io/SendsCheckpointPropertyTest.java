package dev.enginestates.io;

import dev.enginestates.declare.Event;
import dev.enginestates.declare.SelfAction;
import dev.enginestates.ecs.EntityKey;
import dev.enginestates.ecs.StateWorld;
import dev.enginestates.ecs.States;
import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.List;
import java.util.SplittableRandom;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Property: random machines whose actions raise, send themselves events (with and without a
 * delay, with and without an id) and cancel them, in worlds fed random events and steps; a
 * checkpoint taken at a random moment, restored into a fresh world and run on with the same
 * inputs ends with the same checkpoint, bit for bit, as the world that ran straight through (the
 * pending sends are part of the record; the world's step delivers them deterministically).
 */
class SendsCheckpointPropertyTest {
    static final double DT = 1.0 / 60;
    static final String[] EVENTS = {"E0", "E1", "E2", "E3"};
    /** Random worlds by default ({@code -Dproperty.runs=N} runs N). */
    static final int DEFAULT_RUNS = 200;

    static {
        RandomWorlds.quiet();
    }

    public static final class Ctx {
        public long trace;
    }

    /**
     * A random flat machine; raises and sends with no delay only go to a later event, so no cycle
     * runs forever, and a delayed send replaces the pending one with its id, so they stay few.
     */
    static States<Ctx> machine(SplittableRandom rnd, String id, int[] counts) {
        int states = 2 + rnd.nextInt(4);
        List<String[]> plan = new ArrayList<>(); // per transition: state, event, target or "", then actions
        for (int s = 0; s < states; s++) {
            for (int e = 0; e < EVENTS.length; e++) {
                if (rnd.nextInt(3) == 0) {
                    continue;
                }
                List<String> row = new ArrayList<>(List.of("s" + s, EVENTS[e], rnd.nextInt(3) == 0 ? "" : "s" + rnd.nextInt(states)));
                int actions = rnd.nextInt(4);
                for (int a = 0; a < actions; a++) {
                    int kind = rnd.nextInt(4);
                    int later = e + 1 + (e < 3 ? rnd.nextInt(3 - e) : 0);
                    String ids = rnd.nextInt(3) == 0 ? "-" : rnd.nextBoolean() ? "a" : "b";
                    if (kind == 0 && e < 3) {
                        row.add("raise:" + EVENTS[later]);

                    } else if (kind == 1) {
                        boolean now = e < 3 && rnd.nextInt(4) == 0;
                        // a delayed send always has an id, and replaces the pending one with that id (a debounce):
                        // sends that each make several more would otherwise grow without bound
                        String delayedId = rnd.nextBoolean() ? "a" : "b";
                        row.add("send:" + (now ? EVENTS[later] : EVENTS[rnd.nextInt(4)]) + ":" + (now ? 0 : 1 + rnd.nextInt(90)) + ":"
                                + (now ? ids : delayedId));
                    } else if (kind == 2) {
                        row.add("cancel:" + (rnd.nextBoolean() ? "a" : "b"));
                    } else {
                        row.add("mark:" + rnd.nextInt(1000));
                    }
                }
                plan.add(row.toArray(new String[0]));
                if (Boolean.getBoolean("sends.debug")) {
                    System.out.println(id + " " + row);
                }
            }
        }
        return States.define(id, Ctx::new, m -> {
            m.initial("s0");
            for (int s = 0; s < states; s++) {
                String name = "s" + s;
                m.state(name, st -> {
                    for (String[] row : plan) {
                        if (row[0].equals(name)) {
                            st.on(row[1], t -> {
                                if (!row[2].isEmpty()) {
                                    t.target(row[2]);
                                }
                                for (int i = 3; i < row.length; i++) {
                                    t.action(action(row[i], counts));
                                }
                            });
                        }
                    }
                });
            }
            for (String e : EVENTS) {
                m.on(e, t -> t.action((c, ev) -> c.trace = c.trace * 31 + ev.type().hashCode()));
            }
        });
    }

    static SelfAction<Ctx> action(String spec, int[] counts) {
        String[] p = spec.split(":");
        switch (p[0]) {
            case "raise":
                return (c, e, self) -> {
                    counts[0]++;
                    self.raise(p[1]);
                };
            case "send":
                Event ev = Event.of(p[1]);
                double delay = Integer.parseInt(p[2]) * DT / 3;
                String id = p[3].equals("-") ? null : p[3];
                return (c, e, self) -> {
                    counts[1]++;
                    if (delay > 0) {
                        self.cancel(id);
                    }
                    self.sendSelf(ev, delay, id);
                };
            case "cancel":
                return (c, e, self) -> {
                    counts[2]++;
                    self.cancel(p[1]);
                };
            default:
                int mark = Integer.parseInt(p[1]);
                return (c, e, self) -> c.trace = c.trace * 31 + mark;
        }
    }

    @Test
    void aCheckpointTakenMidRun_restoredAndRunOn_equalsTheStraightRun() {
        int runs = Integer.getInteger("property.runs", DEFAULT_RUNS);
        int[] counts = new int[3];
        long delivered = 0;
        for (int run = Integer.getInteger("sends.from", 0); run < runs; run++) {
            SplittableRandom rnd = new SplittableRandom(1700 + run);
            int kinds = 1 + rnd.nextInt(3);
            List<States<Ctx>> machines = new ArrayList<>();
            for (int k = 0; k < kinds; k++) {
                machines.add(machine(rnd, "m" + run + "-" + k, counts));
            }
            Saves saves = Saves.of(machines.toArray(new States<?>[0]));
            int entities = 1 + rnd.nextInt(4);
            int ops = 50 + rnd.nextInt(200);
            int cut = rnd.nextInt(ops);
            long[] plan = new long[ops];
            for (int i = 0; i < ops; i++) {
                plan[i] = rnd.nextLong();
            }
            try (StateWorld a = StateWorld.create(); StateWorld b = StateWorld.create()) {
                for (int i = 0; i < entities; i++) {
                    Object[] traits = new Object[machines.size() + 1];
                    traits[0] = EntityKey.of("e" + i);
                    for (int k = 0; k < machines.size(); k++) {
                        traits[k + 1] = machines.get(k).trait();
                    }
                    a.spawn(traits);
                }
                for (int i = 0; i < ops; i++) {
                    if (i == cut) {
                        String mid = saves.checkpoint(a);
                        saves.restoreSpawningMissing(b, mid);
                        assertEquals(mid, saves.checkpoint(b), "run " + run + ": the restore reads back what was saved");
                    }
                    apply(a, machines, entities, plan[i]);
                    if (i >= cut) {
                        apply(b, machines, entities, plan[i]);
                    }
                }
                String straight = saves.checkpoint(a);
                delivered += straight.split("\"sends\"", -1).length - 1;
                assertEquals(straight, saves.checkpoint(b), "run " + run + ": checkpoint at input " + cut + " of " + ops);
            }
        }
        assertTrue(counts[0] > 0 && counts[1] > 0 && counts[2] > 0, "raise, send and cancel each ran: " + java.util.Arrays.toString(counts));
        dev.enginestates.Figures.println("sends property: " + runs + " random worlds; raises " + counts[0] + ", sends to itself " + counts[1]
                + ", cancels " + counts[2] + "; records ending with pending sends " + delivered);
    }

    /** One input: an event to a random machine on a random entity, or a step. */
    static void apply(StateWorld w, List<States<Ctx>> machines, int entities, long r) {
        SplittableRandom rnd = new SplittableRandom(r);
        if (rnd.nextInt(3) == 0) {
            w.step(DT * (1 + rnd.nextInt(3)));
        } else {
            States<Ctx> m = machines.get(rnd.nextInt(machines.size()));
            m.send(w.entity("e" + rnd.nextInt(entities)), EVENTS[rnd.nextInt(EVENTS.length)]);
        }
    }
}

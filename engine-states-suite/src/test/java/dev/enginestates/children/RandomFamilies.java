package dev.enginestates.children;

import dev.dominion.ecs.api.Entity;
import dev.enginestates.Machine;
import dev.enginestates.RandomStatecharts;
import dev.enginestates.declare.Event;
import dev.enginestates.declare.MachineBuilder;
import dev.enginestates.declare.MachineException;
import dev.enginestates.declare.SelfAction;
import dev.enginestates.declare.StateBuilder;
import dev.enginestates.declare.UnknownEvents;
import dev.enginestates.ecs.EntityKey;
import dev.enginestates.ecs.StateRecord;
import dev.enginestates.ecs.StateWorld;
import dev.enginestates.ecs.States;
import dev.enginestates.io.Saves;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.SplittableRandom;
import java.util.TreeSet;

/**
 * Random families of machines for the child property tests: one or two top machines, each a
 * {@link RandomStatecharts#statechart random statechart} some of whose states invoke child machines
 * (random statecharts too, some on the parent's entity, some invoking grandchildren, with or
 * without input, output and a done transition), some of which declare machines they spawn from
 * code. Events {@code T0..T2} make a state talk: send {@code DOWN} to a child, {@code UP} to the
 * parent, or spawn and stop a child; {@code UP} and {@code DOWN} log, and some move the receiver
 * (at most three times in a row, by the length of its log, so no two machines ping-pong forever).
 * Each machine is used in one place only, and child ids are unique in the family, so no two
 * children ever want one key. Random inputs ({@link #apply}) are longs resolved against the world
 * they are applied to: the same long does the same to two worlds that are the same.
 */
final class RandomFamilies {
    static final double DT = 1.0 / 60;
    static final String[] GAME_EVENTS = {"E0", "E1", "E2", "E3", "E4", "E5", "T0", "T1", "T2"};
    /** The most machines a family has: the top ones, their children, grandchildren and great-grandchildren. */
    static final int MAX_MACHINES = 10;
    static final int MAX_LEVEL = 3;

    /** How a machine is a child: its parent's machine, its id there (an invoke's, or the prefix of spawned ids) and the invoking state. */
    record Kin(String parentMachine, String id, String state, boolean sameEntity, boolean spawned) {
    }

    final long seed;
    final List<States<List<String>>> tops = new ArrayList<>();
    /** Every machine of the family by id, the top ones first. */
    final Map<String, States<List<String>>> machines = new LinkedHashMap<>();
    /** How each child machine is a child, by its id. */
    final Map<String, Kin> kin = new LinkedHashMap<>();
    final Saves saves;
    private int count;
    private int invokes;

    private RandomFamilies(long seed) {
        this.seed = seed;
        SplittableRandom r = new SplittableRandom(seed);
        int topCount = 1 + r.nextInt(2);
        List<Machine<List<String>>> built = new ArrayList<>();
        for (int i = 0; i < topCount; i++) {
            built.add(build(0, r));
        }
        for (Machine<List<String>> m : built) {
            States<List<String>> s = States.of(m);
            tops.add(s);
        }
        saves = Saves.of(tops.toArray(new States<?>[0]));
    }

    /** A family for {@code seed}, or {@code null} when one of its machines cannot start on its own (its start loops). */
    static RandomFamilies generate(long seed) {
        RandomFamilies f;
        try {
            f = new RandomFamilies(seed);
        } catch (MachineException | IllegalArgumentException e) {
            return null;
        }
        try (StateWorld w = StateWorld.create()) {
            for (States<List<String>> top : f.tops) {
                w.spawn(EntityKey.of("probe-" + top.id()), top.trait());
            }
        } catch (RuntimeException e) {
            return null;
        }
        return f;
    }

    private Machine<List<String>> build(int level, SplittableRandom family) {
        String id = "f" + seed + "m" + count++;
        long chartSeed = family.nextLong();
        SplittableRandom r = new SplittableRandom(family.nextLong());
        // the machine spawned from code, if any: built first, so its actions can name it
        Machine<List<String>> spawned = level < 2 && count < MAX_MACHINES && r.nextInt(3) == 0 ? build(level + 1, r) : null;
        String spawnPrefix = "m" + id.substring(id.indexOf('m') + 1) + "s";
        if (spawned != null) {
            kin.put(spawned.id(), new Kin(id, spawnPrefix, null, false, true));
        }
        List<String> childIds = new ArrayList<>();
        Machine<List<String>> machine = RandomStatecharts.statechart(id, chartSeed, new RandomStatecharts.Additions() {
            @Override
            public void machine(MachineBuilder<List<String>> m) {
                m.unknownEvents(UnknownEvents.ACCEPT);
                if (spawned != null) {
                    m.spawns(spawned);
                }
            }

            @Override
            public void state(StateBuilder<List<String>> s, String path, boolean atomic) {
                int invokeOneIn = new int[] {3, 5, 8, 0}[level];
                if (invokeOneIn > 0 && count < MAX_MACHINES && r.nextInt(invokeOneIn) == 0) {
                    invoke(s, path, r, level, id, childIds);
                }
                if (r.nextBoolean()) {
                    SelfAction<List<String>> talk = talk(r, level, childIds, spawned, spawnPrefix);
                    s.on("T" + r.nextInt(3), t -> t.action(talk));
                }
                if (level > 0 && atomic && r.nextInt(3) == 0) {
                    // a child that moves by time tells its parent when it enters here
                    s.entry((log, e, self) -> {
                        if (log.size() % 3 != 2) {
                            log.add("up-sent " + self.sendParent(Event.of("UP")));
                        }
                    });
                }
                for (String type : new String[] {"UP", "DOWN"}) {
                    int how = r.nextInt(4);
                    if (how == 0) {
                        s.on(type, t -> t.action((log, e) -> log.add(type + " at " + path)));
                    } else if (how == 1) {
                        s.on(type, t -> t.guard((log, e) -> log.size() % 4 != 3).target("#" + id + ".c0")
                                .action((log, e) -> log.add(type + " moved " + path)));
                    }
                }
            }
        });
        machines.put(id, States.of(machine));
        return machine;
    }

    private void invoke(StateBuilder<List<String>> s, String path, SplittableRandom r, int level, String parentId, List<String> childIds) {
        String invokeId = "i" + invokes++;
        Machine<List<String>> child = build(level + 1, r);
        boolean same = r.nextInt(4) == 0;
        boolean input = r.nextBoolean();
        boolean output = r.nextBoolean();
        int done = r.nextInt(3);
        childIds.add(invokeId);
        kin.put(child.id(), new Kin(parentId, invokeId, path, same, false));
        s.invoke(invokeId, child, i -> {
            if (input) {
                i.input(log -> new ArrayList<>(List.of("from " + log.size())));
            }
            if (output) {
                i.output(List::size);
            }
            if (same) {
                i.onSameEntity();
            }
            if (done == 1) {
                i.onDone(t -> t.action((log, e) -> log.add(invokeId + " done " + e.get("output"))));
            } else if (done == 2) {
                // entering the state again starts a new child
                i.onDone(t -> t.target("#" + parentId + "." + path).reenter().action((log, e) -> log.add(invokeId + " again")));
            }
        });
    }

    private static SelfAction<List<String>> talk(SplittableRandom r, int level, List<String> childIds,
            Machine<List<String>> spawned, String spawnPrefix) {
        int kind = r.nextInt(4);
        if (kind == 0 && !childIds.isEmpty()) {
            String to = r.nextInt(5) == 0 ? "nobody" : childIds.get(r.nextInt(childIds.size()));
            return (log, e, self) -> log.add("down " + to + " " + self.sendTo(to, Event.of("DOWN")));
        }
        if (kind == 1 && level > 0) {
            return (log, e, self) -> log.add("up " + self.sendParent(Event.of("UP")));
        }
        if (kind >= 2 && spawned != null) {
            String id = spawnPrefix + r.nextInt(3);
            if (kind == 2) {
                // stop it if it runs, else start it
                return (log, e, self) -> {
                    if (self.stopChild(id)) {
                        log.add("stopped " + id);
                    } else {
                        self.spawnChild(id, spawned, new ArrayList<>(List.of("spawned")));
                        log.add("spawned " + id);
                    }
                };
            }
            Event down = Event.of(r.nextBoolean() ? "DOWN" : "E1");
            return (log, e, self) -> log.add("down " + id + " " + self.sendTo(id, down));
        }
        return (log, e, self) -> log.add("quiet");
    }

    // ------------------------------------------------------------------ worlds and inputs

    /** The key of the {@code i}th top entity. */
    static String parentKey(int i) {
        return "p" + i;
    }

    /** The top machine the {@code i}th top entity runs. */
    States<List<String>> topOf(int i) {
        return tops.get(i % tops.size());
    }

    /** Spawns the top entities; a failing start is the same on every world, so it is only counted. */
    void populate(StateWorld w, int parents) {
        for (int i = 0; i < parents; i++) {
            int k = i;
            outcome(() -> w.spawn(EntityKey.of(parentKey(k)), topOf(k).trait()));
        }
    }

    /** The records of the family's child machines in {@code w}, ordered by key and machine, so a long picks the same in twin worlds. */
    List<StateRecord<List<String>>> childRecords(StateWorld w) {
        List<StateRecord<List<String>>> all = new ArrayList<>();
        for (Map.Entry<String, States<List<String>>> m : machines.entrySet()) {
            if (kin.containsKey(m.getKey())) {
                all.addAll(w.records(m.getValue()));
            }
        }
        all.sort(Comparator.comparing((StateRecord<List<String>> x) -> String.valueOf(StateWorld.keyOf(x.entity())))
                .thenComparing(StateRecord::machineId));
        return all;
    }

    /** What one input did to a world, for the messages: its text, and what it threw. */
    record Applied(String input, String thrown, String despawnedChild) {
        @Override
        public String toString() {
            return input + (thrown == null ? "" : " threw " + thrown);
        }
    }

    /**
     * One input: a step, a game event to a top entity or to a child, a despawn of a top entity or
     * of a child's entity, or a top entity spawned again.
     */
    Applied apply(StateWorld w, int parents, long input) {
        SplittableRandom r = new SplittableRandom(input);
        int pick = r.nextInt(100);
        int i = r.nextInt(parents);
        Entity top = w.entity(parentKey(i));
        if (pick < 30) {
            double dt = new double[] {DT, DT, 0.1, 0.5, 2.5}[r.nextInt(5)];
            return new Applied("step " + dt, outcome(() -> w.step(dt)), null);
        }
        if (pick < 58) {
            Event e = event(r, GAME_EVENTS);
            if (top == null) {
                return new Applied("nothing (no " + parentKey(i) + " for " + e.type() + ")", null, null);
            }
            return new Applied("send " + e.type() + " to " + parentKey(i), outcome(() -> topOf(i).send(top, e)), null);
        }
        List<StateRecord<List<String>>> children = childRecords(w);
        if (pick < 80) {
            Event e = event(r, new String[] {"E0", "E1", "E2", "E3", "E4", "E5", "T0", "T1", "T2", "UP", "DOWN"});
            if (children.isEmpty()) {
                return new Applied("nothing (no child for " + e.type() + ")", null, null);
            }
            StateRecord<List<String>> c = children.get(r.nextInt(children.size()));
            String to = StateWorld.keyOf(c.entity()) + " (" + c.machineId() + ")";
            Entity at = c.entity();
            return new Applied("send " + e.type() + " to child " + to, outcome(() -> machines.get(c.machineId()).send(at, e)), null);
        }
        if (pick < 87) {
            List<StateRecord<List<String>>> own = new ArrayList<>();
            for (StateRecord<List<String>> c : children) {
                if (!kin.get(c.machineId()).sameEntity()) {
                    own.add(c);
                }
            }
            if (own.isEmpty()) {
                return new Applied("nothing (no child entity to despawn)", null, null);
            }
            StateRecord<List<String>> c = own.get(r.nextInt(own.size()));
            String key = StateWorld.keyOf(c.entity());
            Entity at = c.entity();
            return new Applied("despawn child " + key, outcome(() -> w.despawn(at)), key);
        }
        if (pick < 93) {
            if (top == null) {
                return new Applied("nothing (no " + parentKey(i) + " to despawn)", null, null);
            }
            return new Applied("despawn " + parentKey(i), outcome(() -> w.despawn(top)), null);
        }
        if (top != null) {
            return new Applied("nothing (" + parentKey(i) + " is there)", null, null);
        }
        return new Applied("spawn " + parentKey(i), outcome(() -> w.spawn(EntityKey.of(parentKey(i)), topOf(i).trait())), null);
    }

    private static Event event(SplittableRandom r, String[] types) {
        Event e = Event.of(types[r.nextInt(types.length)]);
        return r.nextInt(3) == 0 ? e.with("ok", true) : e;
    }

    static String outcome(Runnable input) {
        try {
            input.run();
            return null;
        } catch (RuntimeException x) {
            return x.getClass().getSimpleName() + ": " + x.getMessage();
        }
    }

    // ------------------------------------------------------------------ links

    /**
     * Every child link in {@code w} as the public reads give it, sorted: each record's children by
     * id and entity, and its parent's entity.
     */
    Set<String> links(StateWorld w) {
        Set<String> links = new TreeSet<>();
        for (States<List<String>> m : machines.values()) {
            for (StateRecord<List<String>> r : w.records(m)) {
                String who = StateWorld.keyOf(r.entity()) + ":" + r.machineId();
                for (String id : r.children()) {
                    links.add(who + " runs " + id + " on " + key(r.child(id)));
                }
                if (r.parent() != null) {
                    links.add(who + " is a child of " + key(r.parent()));
                }
            }
        }
        return links;
    }

    /** How many records of child machines {@code w} holds. */
    int childCount(StateWorld w) {
        return childRecords(w).size();
    }

    private static String key(Entity e) {
        return e == null ? "null" : e.isDeleted() ? "(despawned)" : String.valueOf(StateWorld.keyOf(e));
    }

    /** The machines that are no top machine's: children, grandchildren and spawned ones. */
    Set<String> childMachines() {
        return new HashSet<>(kin.keySet());
    }

    @Override
    public String toString() {
        return "family " + seed + " (" + machines.size() + " machines: " + kin + ")";
    }
}

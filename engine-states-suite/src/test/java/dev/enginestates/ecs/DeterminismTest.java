package dev.enginestates.ecs;

import dev.enginestates.records.Access;
import dev.dominion.ecs.api.Entity;
import dev.enginestates.declare.Event;
import dev.enginestates.chart.Chart;
import dev.enginestates.declare.HistoryDepth;
import dev.enginestates.declare.StateType;
import dev.enginestates.records.MachineRecord;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

import java.util.ArrayList;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.Map;
import java.util.SplittableRandom;
import java.util.function.Supplier;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * DESIGN.md: "Machines are stepped in the order they were declared; the step is deterministic: the same
 * sends and steps from the same start give the same records, bit for bit." Two worlds built side by side
 * get the same spawns, the same random sends, holds and hand-set states, and are compared after every step.
 */
class DeterminismTest {
    static final double DT = 1.0 / 60;
    static final int ENTITIES = 48;
    static final int STEPS = 3000;

    /** Held by the routine machine alone. */
    static final class Talking {
    }

    /** A game component of no machine's, to vary the entities' compositions. */
    static final class Body {
        final int index;

        Body(int index) {
            this.index = index;
        }
    }

    interface Snap {
        String snap();
    }

    static String b(double d) {
        return Long.toHexString(Double.doubleToRawLongBits(d));
    }

    static double field(Event e, String name) {
        Object v = e.get(name);
        return v instanceof Number ? ((Number) v).doubleValue() : 0;
    }

    static final class GuardCtx implements Snap {
        int bells;
        int resumes;
        int whenFires;
        int reenters;
        double alert;
        double restSeconds = 2.5;

        @Override
        public String snap() {
            return bells + "," + resumes + "," + whenFires + "," + reenters + "," + b(alert) + "," + b(restSeconds);
        }
    }

    static final class WeaponCtx implements Snap {
        int ammo = 6;
        int shots;
        int reloads;
        int jams;
        double heat;

        @Override
        public String snap() {
            return ammo + "," + shots + "," + reloads + "," + jams + "," + b(heat);
        }
    }

    static final class RoutineCtx implements Snap {
        int tasks;
        int sleeps;
        double fatigue;

        @Override
        public String snap() {
            return tasks + "," + sleeps + "," + b(fatigue);
        }
    }

    /** Waits (constant and from the context), when rules reading the context, deep history, reenter. */
    static final States<GuardCtx> GUARD = States.define("det-guard", GuardCtx::new, m -> m
            .initial("patrol")
            .state("patrol", p -> p
                    .initial("watch")
                    .state("watch", s -> s.waitFor(1.3, "rest"))
                    .state("rest", s -> s.waitFor(c -> c.restSeconds, "watch"))
                    .history("resumed", HistoryDepth.DEEP)
                    .on("BELL", t -> t.target("answer").guard((c, e) -> !Boolean.TRUE.equals(e.get("muted")))
                            .action((c, e) -> c.bells++))
                    .on("NOISE", t -> t.action((c, e) -> c.alert += field(e, "level")))
                    .when(c -> c.alert > 5, t -> t.target("alarmed").action((c, e) -> c.whenFires++)))
            .state("answer", s -> s
                    .waitFor(2.0, "patrol.resumed")
                    .on("RESUME", t -> t.target("patrol.resumed").action((c, e) -> c.resumes++))
                    .on("RESTART", "patrol"))
            .state("alarmed", s -> s
                    .waitFor(0.5, t -> t.target("alarmed").reenter().action((c, e) -> {
                        c.alert -= 1;
                        c.reenters++;
                    }))
                    .when(c -> c.alert <= 2, "patrol.resumed")
                    .on("BELL", "answer"))
            .on("CALM", t -> t.action((c, e) -> c.alert = 0))
            .on("TUNE", t -> t.action((c, e) -> c.restSeconds = 0.5 + field(e, "seconds"))));

    /** A parallel state with a wait in one region and when rules in others; a deep history brings it back. */
    static final States<WeaponCtx> WEAPON = States.define("det-weapon", WeaponCtx::new, m -> m
            .initial("operating")
            .state("operating", o -> o
                    .initial("armed")
                    .state("armed", a -> a.parallel()
                            .state("trigger", t -> t.initial("ready")
                                    .state("ready", s -> s.on("FIRE", x -> x.target("cooldown").guard((c, e) -> c.ammo > 0)
                                            .action((c, e) -> {
                                                c.ammo--;
                                                c.shots++;
                                                c.heat += field(e, "heat");
                                            })))
                                    .state("cooldown", s -> s.waitFor(0.2, "ready")))
                            .state("mag", t -> t.initial("loaded")
                                    .state("loaded", s -> s.when(c -> c.ammo == 0, "empty"))
                                    .state("empty", s -> s.on("RELOAD", x -> x.target("loaded").action((c, e) -> {
                                        c.ammo = 6;
                                        c.reloads++;
                                    }))))
                            .state("heat", t -> t.initial("cool")
                                    .state("cool", s -> s.when(c -> c.heat > 3, "hot"))
                                    .state("hot", s -> s
                                            .when(c -> c.heat <= 3, "cool")
                                            .on("VENT", x -> x.action((c, e) -> c.heat *= 0.5)))))
                    .history("hist", HistoryDepth.DEEP)
                    .on("JAM", x -> x.target("jammed").action((c, e) -> c.jams++)))
            .state("jammed", s -> s
                    .waitFor(1.0, "operating.hist")
                    .on("CLEAR", "operating")));

    /** Wait seconds from the context, a when reading it, held by Talking. */
    static final States<RoutineCtx> ROUTINE = States.define("det-routine", RoutineCtx::new, m -> m
            .heldBy(Talking.class)
            .initial("work")
            .state("work", s -> s.waitFor(c -> 1.0 + c.fatigue, t -> t.target("rest").action((c, e) -> {
                c.tasks++;
                c.fatigue += 0.35;
            })))
            .state("rest", s -> s
                    .entry((c, e) -> c.fatigue = Math.max(0, c.fatigue - 0.2))
                    .waitFor(0.8, "work")
                    .when(c -> c.fatigue > 2, t -> t.target("sleep").action((c, e) -> c.sleeps++)))
            .state("sleep", s -> s
                    .waitFor(3, t -> t.target("work").action((c, e) -> c.fatigue = 0))
                    .on("WAKE", "work"))
            .on("TIRE", t -> t.action((c, e) -> c.fatigue += field(e, "amount"))));

    static final List<States<?>> MACHINES = List.of(GUARD, WEAPON, ROUTINE);
    static final Map<States<?>, List<String>> TAG_PATHS = new IdentityHashMap<>();
    static final Map<States<?>, List<Class<?>>> TAG_TYPES = new IdentityHashMap<>();

    static {
        for (States<?> m : MACHINES) {
            List<String> paths = new ArrayList<>();
            Chart c = Access.chart(m.machine());
            for (int s = 1; s < c.size; s++) {
                if (c.type[s] != StateType.HISTORY) {
                    paths.add(c.path[s]);
                }
            }
            TAG_PATHS.put(m, paths);
            List<Class<?>> types = new ArrayList<>();
            for (String path : paths) {
                types.add(m.is(path));
            }
            TAG_TYPES.put(m, types);
        }
    }

    /** One world with its spawns, built the same way every time. */
    static final class Sim {
        final StateWorld world = StateWorld.create();
        final List<Entity> entities = new ArrayList<>();
        final boolean[] paused = new boolean[ENTITIES];
        final boolean[] talking = new boolean[ENTITIES];

        Sim() {
            for (int i = 0; i < ENTITIES; i++) {
                List<Object> components = new ArrayList<>();
                components.add(new Body(i));
                if (i % 3 != 2) {
                    StateRecord<GuardCtx> g = GUARD.trait();
                    if (i % 5 == 0) {
                        g.setState("answer");
                    }
                    components.add(g);
                }
                if (i % 2 == 0) {
                    StateRecord<WeaponCtx> w = WEAPON.trait();
                    if (i % 7 == 0) {
                        w.setState("jammed");
                    }
                    components.add(w);
                }
                if (i % 4 != 3 || i % 3 == 2) {
                    components.add(ROUTINE.trait());
                }
                entities.add(world.spawn(components.toArray()));
            }
        }

        List<States<?>> machinesOn(int i) {
            List<States<?>> out = new ArrayList<>();
            for (States<?> m : MACHINES) {
                if (entities.get(i).has(m.recordType())) {
                    out.add(m);
                }
            }
            return out;
        }
    }

    /** What a step does to a world, drawn once from the script and applied to each world alike. */
    sealed interface Op permits Send, TogglePause, ToggleTalk, SetState, Nudge {
    }

    record Send(int entity, States<?> machine, Event event) implements Op {
    }

    record TogglePause(int entity) implements Op {
    }

    record ToggleTalk(int entity) implements Op {
    }

    record SetState(int entity, String path) implements Op {
    }

    record Nudge(int entity, double alert) implements Op {
    }

    static final String[] GUARD_LEAVES = {"patrol.watch", "patrol.rest", "answer", "alarmed"};

    static List<Op> draw(SplittableRandom script, Sim shape) {
        List<Op> ops = new ArrayList<>();
        int sends = script.nextInt(4);
        for (int k = 0; k < sends; k++) {
            int i = script.nextInt(ENTITIES);
            List<States<?>> on = shape.machinesOn(i);
            States<?> m = on.get(script.nextInt(on.size()));
            List<String> events = m.machine().events();
            String type = events.get(script.nextInt(events.size()));
            Event e = Event.of(type, Map.of(
                    "level", script.nextDouble() * 3,
                    "heat", script.nextDouble() * 2,
                    "seconds", script.nextDouble() * 3,
                    "amount", script.nextDouble(),
                    "muted", script.nextInt(6) == 0));
            ops.add(new Send(i, m, e));
        }
        if (script.nextInt(20) == 0) {
            ops.add(new TogglePause(script.nextInt(ENTITIES)));
        }
        if (script.nextInt(20) == 0) {
            ops.add(new ToggleTalk(script.nextInt(ENTITIES)));
        }
        if (script.nextInt(100) == 0) {
            int i = script.nextInt(ENTITIES);
            if (shape.entities.get(i).has(GUARD.recordType())) {
                ops.add(new SetState(i, GUARD_LEAVES[script.nextInt(GUARD_LEAVES.length)]));
            }
        }
        if (script.nextInt(40) == 0) {
            int i = script.nextInt(ENTITIES);
            if (shape.entities.get(i).has(GUARD.recordType())) {
                ops.add(new Nudge(i, script.nextDouble() * 4));
            }
        }
        return ops;
    }

    static double drawDt(SplittableRandom script) {
        if (script.nextInt(30) != 0) {
            return DT;
        }
        double[] odd = {DT / 2, 2 * DT, 0, 0.1, 1.0 / 30};
        return odd[script.nextInt(odd.length)];
    }

    /** Applies the ops; returns what each send returned. */
    static List<Boolean> apply(Sim sim, List<Op> ops) {
        List<Boolean> results = new ArrayList<>();
        for (Op op : ops) {
            if (op instanceof Send s) {
                results.add(s.machine().send(sim.entities.get(s.entity()), s.event()));
            } else if (op instanceof TogglePause p) {
                Entity e = sim.entities.get(p.entity());
                if (sim.paused[p.entity()] = !sim.paused[p.entity()]) {
                    e.add(MachinePaused.INSTANCE);
                } else {
                    e.removeType(MachinePaused.class);
                }
            } else if (op instanceof ToggleTalk t) {
                Entity e = sim.entities.get(t.entity());
                if (sim.talking[t.entity()] = !sim.talking[t.entity()]) {
                    e.add(new Talking());
                } else {
                    e.removeType(Talking.class);
                }
            } else if (op instanceof SetState s) {
                GUARD.read(sim.entities.get(s.entity())).setState(s.path());
            } else if (op instanceof Nudge n) {
                GUARD.read(sim.entities.get(n.entity())).context().alert += n.alert();
            }
        }
        return results;
    }

    /** Activity seen in a run, to show the comparison compared something. */
    static final class Seen {
        int heldRecords;
        int pausedSeconds;
        int waiting;
        int sendsTaken;
        final java.util.Set<String> values = new java.util.HashSet<>();
    }

    static void compare(Sim a, Sim b, long step, Seen seen) {
        assertEquals(a.world.steps(), b.world.steps());
        assertEquals(Double.doubleToRawLongBits(a.world.time()), Double.doubleToRawLongBits(b.world.time()), "time at step " + step);
        for (int i = 0; i < ENTITIES; i++) {
            Entity ea = a.entities.get(i);
            Entity eb = b.entities.get(i);
            for (States<?> m : MACHINES) {
                boolean has = ea.has(m.recordType());
                assertEquals(has, eb.has(m.recordType()));
                if (!has) {
                    continue;
                }
                StateRecord<?> ra = m.read(ea);
                StateRecord<?> rb = m.read(eb);
                int entity = i;
                Supplier<String> where = () -> "step " + step + ", entity " + entity + ", " + m.id() + ": " + ra + " vs " + rb;
                assertEquals(ra.value(), rb.value(), where);
                assertEquals(ra.leaves(), rb.leaves(), where);
                assertEquals(b(ra.secondsLeft()), b(rb.secondsLeft()), where);
                assertEquals(b(ra.waited()), b(rb.waited()), where);
                assertEquals(ra.waitingIn(), rb.waitingIn(), where);
                assertEquals(ra.isHeld(), rb.isHeld(), where);
                assertEquals(ra.isDone(), rb.isDone(), where);
                MachineRecord xa = EntityRecord.of(ra);
                MachineRecord xb = EntityRecord.of(rb);
                assertEquals(b(xa.waitStart()), b(xb.waitStart()), where);
                assertEquals(b(xa.waitSeconds()), b(xb.waitSeconds()), where);
                assertEquals(b(xa.heldSince()), b(xb.heldSince()), where);
                Chart c = xa.chart();
                for (int s = 1; s < c.size; s++) {
                    int st = s;
                    assertEquals(b(xa.paused(s)), b(xb.paused(s)), () -> where.get() + " paused " + c.path[st]);
                    assertEquals(b(ra.paused(c.path[s])), b(rb.paused(c.path[s])), where);
                    if (!Double.isNaN(xa.paused(s))) {
                        seen.pausedSeconds++;
                    }
                    if (c.type[s] == StateType.HISTORY) {
                        assertEquals(xa.historySize(s), xb.historySize(s), () -> where.get() + " history " + c.path[st]);
                        for (int h = 0; h < xa.historySize(s); h++) {
                            assertEquals(xa.historyAt(s, h), xb.historyAt(s, h), () -> where.get() + " history " + c.path[st]);
                        }
                    }
                }
                List<String> paths = TAG_PATHS.get(m);
                List<Class<?>> types = TAG_TYPES.get(m);
                for (int t = 0; t < paths.size(); t++) {
                    String path = paths.get(t);
                    boolean tag = ea.has(types.get(t));
                    assertEquals(tag, eb.has(types.get(t)), () -> where.get() + " tag " + path);
                    assertEquals(ra.matches(path), tag, () -> where.get() + " tag " + path + " follows the record");
                }
                assertEquals(((Snap) ra.context()).snap(), ((Snap) rb.context()).snap(), () -> where.get() + " context");
                if (ra.isHeld()) {
                    seen.heldRecords++;
                }
                if (ra.isWaiting()) {
                    seen.waiting++;
                }
                seen.values.add(m.id() + " " + ra.value());
            }
        }
    }

    @ParameterizedTest(name = "seed {0}")
    @ValueSource(longs = {7L, 20240611L, -3L})
    void twoWorldsGivenTheSameSpawnsSendsHoldsAndStepsHoldTheSameRecordsBitForBitAfterEveryStep(long seed) {
        Sim a = new Sim();
        Sim b = new Sim();
        try (a.world; b.world) {
            SplittableRandom script = new SplittableRandom(seed);
            Seen seen = new Seen();
            compare(a, b, 0, seen);
            for (long step = 1; step <= STEPS; step++) {
                List<Op> ops = draw(script, a);
                List<Boolean> ra = apply(a, ops);
                List<Boolean> rb = apply(b, ops);
                assertEquals(ra, rb, "send results at step " + step);
                for (boolean taken : ra) {
                    if (taken) {
                        seen.sendsTaken++;
                    }
                }
                double dt = drawDt(script);
                a.world.step(dt);
                b.world.step(dt);
                compare(a, b, step, seen);
            }
            // the run exercised what it claims to compare
            assertTrue(seen.heldRecords > 1000, "held records seen: " + seen.heldRecords);
            assertTrue(seen.pausedSeconds > 100, "paused seconds seen: " + seen.pausedSeconds);
            assertTrue(seen.waiting > 10_000, "waiting records seen: " + seen.waiting);
            assertTrue(seen.sendsTaken > 500, "sends taken: " + seen.sendsTaken);
            assertEquals(16, seen.values.size(), "every value of every machine was seen: " + seen.values);
            int whenFires = 0;
            int reenters = 0;
            int resumes = 0;
            int jams = 0;
            int sleeps = 0;
            int reloads = 0;
            for (Entity e : a.entities) {
                if (e.has(GUARD.recordType())) {
                    GuardCtx g = GUARD.read(e).context();
                    whenFires += g.whenFires;
                    reenters += g.reenters;
                    resumes += g.resumes;
                }
                if (e.has(WEAPON.recordType())) {
                    jams += WEAPON.read(e).context().jams;
                    reloads += WEAPON.read(e).context().reloads;
                }
                if (e.has(ROUTINE.recordType())) {
                    sleeps += ROUTINE.read(e).context().sleeps;
                }
            }
            assertTrue(whenFires > 0 && reenters > 0 && resumes > 0 && jams > 0 && sleeps > 0 && reloads > 0,
                    "whenFires " + whenFires + ", reenters " + reenters + ", resumes " + resumes + ", jams " + jams
                            + ", sleeps " + sleeps + ", reloads " + reloads);
        }
    }

    /** A 64-bit digest of every record of a world, for comparing runs made one after the other. */
    static long digest(Sim sim) {
        long h = 0xcbf29ce484222325L;
        StringBuilder sb = new StringBuilder();
        sb.append(b(sim.world.time()));
        for (Entity e : sim.entities) {
            for (States<?> m : MACHINES) {
                if (!e.has(m.recordType())) {
                    continue;
                }
                StateRecord<?> r = m.read(e);
                MachineRecord x = EntityRecord.of(r);
                sb.append('|').append(r.value()).append(b(r.secondsLeft())).append(b(r.waited())).append(r.isHeld())
                        .append(b(x.waitStart())).append(((Snap) r.context()).snap());
                for (int s = 1; s < x.chart().size; s++) {
                    sb.append(',').append(b(x.paused(s))).append(x.historySize(s));
                }
            }
        }
        for (int i = 0; i < sb.length(); i++) {
            h = (h ^ sb.charAt(i)) * 0x100000001b3L;
        }
        return h;
    }

    static long[] run(long seed, int steps) {
        Sim sim = new Sim();
        try (sim.world) {
            SplittableRandom script = new SplittableRandom(seed);
            long[] trace = new long[steps];
            for (int step = 0; step < steps; step++) {
                apply(sim, draw(script, sim));
                sim.world.step(drawDt(script));
                trace[step] = digest(sim);
            }
            return trace;
        }
    }

    @Test
    void theSameScriptRunAgainInAFreshWorldGivesTheSameRecordsAtEveryStep() {
        long[] first = run(99L, 2000);
        long[] second = run(99L, 2000);
        for (int i = 0; i < first.length; i++) {
            assertEquals(first[i], second[i], "the runs part at step " + (i + 1));
        }
        long[] other = run(100L, 2000);
        boolean differs = false;
        for (int i = 0; i < first.length && !differs; i++) {
            differs = first[i] != other[i];
        }
        assertTrue(differs, "another script gives other records: the digest sees the records");
    }
}

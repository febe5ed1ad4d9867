package dev.enginestates.ecs;

import dev.dominion.ecs.api.Entity;
import dev.enginestates.fsm.AIContext;
import dev.enginestates.fsm.StateMachine;
import dev.enginestates.fsm.StateMachineBuilder;
import dev.enginestates.fsm.StateMachineDefinition;
import dev.enginestates.io.Saves;
import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.List;
import java.util.SplittableRandom;

import static org.junit.jupiter.api.Assertions.assertEquals;

/**
 * Random builder-style machines under random ticks, split ticks, forced transitions and holds:
 * on an entity each runs exactly as on a plain machine given the same calls, and a checkpoint
 * taken anywhere and gone on from equals running straight through.
 */
class RandomBuilderMachinesPropertyTest {
    private static final java.util.logging.Logger LIBRARY = java.util.logging.Logger.getLogger("dev.enginestates");

    @org.junit.jupiter.api.BeforeAll
    static void quiet() {
        LIBRARY.setUseParentHandlers(false); // the handlers' 'nowhere' is reported once per state; not printed here
    }

    @org.junit.jupiter.api.AfterAll
    static void loud() {
        LIBRARY.setUseParentHandlers(true);
    }

    /** A context whose handlers draw from a seed and a tick count, so every copy decides alike. */
    public static final class Walker extends AIContext {
        public long seed;
        public int ticks;
        public int enters;
    }

    private static StateMachineDefinition<Walker> randomMachine(int index, SplittableRandom r) {
        int n = 2 + r.nextInt(5);
        StateMachineBuilder<Walker> b = new StateMachineBuilder<>("walker-" + index, Walker::new);
        b.tags(r.nextBoolean()).onStateEnter((c, s) -> c.enters++);
        for (int s = 0; s < n; s++) {
            String self = "S" + s;
            var config = b.configureState(self);
            if (s == 0) {
                config.asInitial();
            }
            if (s == n - 1 && r.nextBoolean()) {
                continue; // a state without a handler: it does nothing and its time stands still
            }
            float duration = r.nextInt(3) == 0 ? 0f : 0.1f + r.nextInt(20) / 10f;
            if (duration > 0) {
                config.duration(duration).window("w", 0.2f, 0.6f);
            }
            if (r.nextInt(4) == 0) {
                config.delay(r.nextInt(5) / 10f);
            }
            int states = n;
            config.handler((c, dt) -> {
                c.ticks++;
                SplittableRandom pick = new SplittableRandom(c.seed * 31 + c.ticks);
                if (c.windowEntered("w") && pick.nextBoolean()) {
                    return "S" + pick.nextInt(states);
                }
                if (c.progress() >= 1f || c.timeInState() > 3f) {
                    return "S" + pick.nextInt(states);
                }
                int roll = pick.nextInt(40);
                return roll == 0 ? "S" + pick.nextInt(states) : roll == 1 ? "nowhere" : roll == 2 ? self : null;
            });
        }
        return b.build();
    }

    @Test
    void on_an_entity_each_machine_runs_as_a_plain_machine_given_the_same_calls() {
        SplittableRandom r = new SplittableRandom(2026);
        for (int trial = 0; trial < 30; trial++) {
            StateMachineDefinition<Walker> def = randomMachine(trial, r);
            States<Walker> machine = States.of(def);
            try (StateWorld world = StateWorld.create()) {
                List<Entity> entities = new ArrayList<>();
                List<StateMachine<Walker>> plains = new ArrayList<>();
                List<Walker> plainCtx = new ArrayList<>();
                for (int k = 0; k < 8; k++) {
                    Walker onEntity = new Walker();
                    Walker plainOne = new Walker();
                    onEntity.seed = plainOne.seed = r.nextLong();
                    entities.add(world.spawn(machine.trait(onEntity)));
                    StateMachine<Walker> m = new StateMachine<>(def);
                    m.initialize(plainOne);
                    plains.add(m);
                    plainCtx.add(plainOne);
                }
                for (int tick = 0; tick < 400; tick++) {
                    float dt = r.nextInt(10) == 0 ? 0f : 1f / (20 + r.nextInt(100));
                    int k = r.nextInt(8);
                    int action = r.nextInt(30);
                    if (action == 0) {
                        String to = def.states().get(r.nextInt(def.states().size()));
                        machine.transitionTo(entities.get(k), to);
                        plains.get(k).transitionTo(plainCtx.get(k), to);
                    } else if (action == 1 && !entities.get(k).has(MachinePaused.class)) {
                        entities.get(k).add(MachinePaused.INSTANCE);
                    } else if (action == 2) {
                        entities.get(k).removeType(MachinePaused.class);
                    }
                    boolean split = r.nextBoolean();
                    if (split) {
                        world.advance(dt);
                        world.runStates();
                    } else {
                        world.step(dt);
                    }
                    for (int j = 0; j < 8; j++) {
                        if (!entities.get(j).has(MachinePaused.class)) {
                            plains.get(j).update(plainCtx.get(j), dt);
                        }
                    }
                    for (int j = 0; j < 8; j++) {
                        StateRecord<Walker> rec = machine.read(entities.get(j));
                        String where = "trial " + trial + " tick " + tick + " machine " + j;
                        assertEquals(plains.get(j).state(), rec.state(), where);
                        assertEquals(plains.get(j).timeInState(), (float) rec.time(), where);
                        assertEquals(plainCtx.get(j).ticks, rec.context().ticks, where);
                        assertEquals(plainCtx.get(j).previousProgress(), rec.context().previousProgress(), where);
                        assertEquals(plainCtx.get(j).enters, rec.context().enters, where);
                    }
                }
            }
        }
    }

    @Test
    void a_checkpoint_taken_anywhere_and_gone_on_from_equals_running_straight_through() {
        SplittableRandom r = new SplittableRandom(99);
        for (int trial = 0; trial < 20; trial++) {
            StateMachineDefinition<Walker> def = randomMachine(100 + trial, r);
            States<Walker> machine = States.of(def);
            Saves saves = Saves.of(machine);
            long seed = r.nextLong();
            int cut = 1 + r.nextInt(300);
            try (StateWorld straight = StateWorld.create(); StateWorld saved = StateWorld.create(); StateWorld restored = StateWorld.create()) {
                spawn(straight, machine, seed);
                spawn(saved, machine, seed);
                SplittableRandom a = new SplittableRandom(seed);
                SplittableRandom b = new SplittableRandom(seed);
                for (int tick = 0; tick < cut; tick++) {
                    drive(straight, machine, def, a);
                    drive(saved, machine, def, b);
                }
                String checkpoint = saves.checkpoint(saved);
                saves.restoreSpawningMissing(restored, checkpoint);
                assertEquals(checkpoint, saves.checkpoint(restored), "trial " + trial);
                for (int tick = cut; tick < 400; tick++) {
                    drive(straight, machine, def, a);
                    drive(restored, machine, def, b);
                }
                assertEquals(saves.checkpoint(straight), saves.checkpoint(restored), "trial " + trial + " cut at " + cut);
            }
        }
    }

    /** The walker's own fields (the builder style's own, time in state, progress, windows, are the record's). */
    static final Rewind.ContextBytes<Walker> WALKER = new Rewind.ContextBytes<>() {
        @Override
        public void write(Walker w, java.nio.ByteBuffer out) {
            out.putLong(w.seed).putInt(w.ticks).putInt(w.enters);
        }

        @Override
        public Walker read(Walker w, java.nio.ByteBuffer in) {
            w.seed = in.getLong();
            w.ticks = in.getInt();
            w.enters = in.getInt();
            return w;
        }
    };

    @Test
    void a_rewind_and_the_same_inputs_again_give_the_checkpoints_of_the_straight_run() {
        SplittableRandom r = new SplittableRandom(3303);
        for (int trial = 0; trial < 20; trial++) {
            StateMachineDefinition<Walker> def = randomMachine(200 + trial, r);
            States<Walker> machine = States.of(def);
            Saves saves = Saves.of(machine);
            long seed = r.nextLong();
            try (StateWorld world = StateWorld.create()) {
                spawn(world, machine, seed);
                Rewind rewind = Rewind.keep(world, 1 + r.nextInt(30)).contexts(machine, WALKER);
                SplittableRandom drive = new SplittableRandom(seed);
                List<String> checkpoints = new ArrayList<>();
                List<Float> dts = new ArrayList<>();
                List<int[]> sets = new ArrayList<>();
                for (int tick = 0; tick < 300; tick++) {
                    float dt = 1f / (20 + drive.nextInt(100));
                    int[] set = drive.nextInt(25) == 0 ? new int[] {drive.nextInt(6), drive.nextInt(def.states().size())} : null;
                    dts.add(dt);
                    sets.add(set);
                    stepThrough(rewind, machine, def, dt, set);
                    checkpoints.add(saves.checkpoint(world));
                    if (r.nextInt(15) == 0 && rewind.tick() > rewind.oldest()) {
                        long back = rewind.oldest() + r.nextInt((int) (rewind.tick() - rewind.oldest()));
                        long now = rewind.tick();
                        rewind.rewind(back);
                        for (long t = back; t < now; t++) {
                            stepThrough(rewind, machine, def, dts.get((int) t), sets.get((int) t));
                            assertEquals(checkpoints.get((int) t), saves.checkpoint(world), "trial " + trial + ", back to " + back + ", tick " + t);
                        }
                    }
                }
            }
        }
    }

    private static void stepThrough(Rewind rewind, States<Walker> machine, StateMachineDefinition<Walker> def, float dt, int[] set) {
        if (set != null) {
            rewind.input(w -> machine.transitionTo(w.entity("w" + set[0]), def.states().get(set[1])));
        }
        rewind.step(dt);
    }

    private static void spawn(StateWorld world, States<Walker> machine, long seed) {
        for (int k = 0; k < 6; k++) {
            Walker w = new Walker();
            w.seed = seed + k;
            world.spawn(EntityKey.of("w" + k), machine.trait(w));
        }
    }

    private static void drive(StateWorld world, States<Walker> machine, StateMachineDefinition<Walker> def, SplittableRandom r) {
        float dt = 1f / (20 + r.nextInt(100));
        if (r.nextInt(25) == 0) {
            machine.transitionTo(world.entity("w" + r.nextInt(6)), def.states().get(r.nextInt(def.states().size())));
        }
        if (r.nextBoolean()) {
            world.advance(dt);
            world.runStates();
        } else {
            world.step(dt);
        }
    }
}

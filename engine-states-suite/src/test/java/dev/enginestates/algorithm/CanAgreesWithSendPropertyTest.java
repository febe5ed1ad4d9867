package dev.enginestates.algorithm;

import dev.dominion.ecs.api.Entity;
import dev.enginestates.Machine;
import dev.enginestates.MachineView;
import dev.enginestates.RandomStatecharts;
import dev.enginestates.StatesDef;
import dev.enginestates.declare.Event;
import dev.enginestates.ecs.States;
import dev.enginestates.ecs.StateWorld;
import dev.enginestates.plain.StateMachine;
import dev.enginestates.records.Access;
import dev.enginestates.records.MachineRecord;
import dev.enginestates.records.RecordBytes;
import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.SplittableRandom;
import java.util.function.Function;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The acceptance of {@code can}: on random machines driven by random inputs, for every event a
 * machine knows (bare, and with the {@code ok} field its guards read set either way), {@code can(e)}
 * answers what {@code send(e)} then returns on a copy of the machine (a second one driven by the same
 * inputs), and asking changes nothing: the record encodes as before and the context's log, which
 * every action, entry and exit writes, is as it was. The XState-style machines have guards reading
 * the context and the event, parallel states, history, eventless transitions, done events, waits
 * and {@code when} rules; the polled tables have events on nested states, handlers and targets.
 */
class CanAgreesWithSendPropertyTest {
    /** An input: an event to send, or a step of {@code dt} seconds when the event is {@code null}. */
    record Input(Event event, double dt) {
    }

    /** Every event of the generators, bare and with each value of the field guards read. */
    static final List<Event> ASKED = new ArrayList<>();

    static {
        for (String e : RandomStatecharts.EVENTS) {
            ASKED.add(Event.of(e));
            ASKED.add(Event.of(e, Map.of("ok", true)));
            ASKED.add(Event.of(e, Map.of("ok", false)));
        }
        ASKED.add(Event.of("NOBODY")); // named by no state: refused, or false, as send treats it
    }

    static List<Input> inputs(SplittableRandom r, int n) {
        List<Input> out = new ArrayList<>();
        for (int i = 0; i < n; i++) {
            out.add(r.nextInt(3) == 0 ? new Input(null, new double[] {1 / 60.0, 0.1, 0.5, 3}[r.nextInt(4)])
                    : new Input(ASKED.get(r.nextInt(ASKED.size() - 1)), 0));
        }
        return out;
    }

    /** A send's or a can's outcome: true, false, or the class of what it threw. */
    static String outcome(java.util.function.Supplier<Boolean> call) {
        try {
            return String.valueOf(call.get());
        } catch (RuntimeException e) {
            return e.getClass().getSimpleName();
        }
    }

    static byte[] bytes(MachineRecord r) {
        RecordBytes.Buffer b = new RecordBytes.Buffer(256);
        RecordBytes.write(r, b, RecordBytes.layout(r.chart()));
        return Arrays.copyOf(b.array(), b.size());
    }

    /** A running machine on some face, fed inputs; {@code null} from {@link #feed} when an input threw (the run ends there). */
    interface Run {
        void apply(Input in);

        boolean can(Event e);

        boolean send(Event e);

        MachineView<?> view();

        MachineRecord record();

        String log();

        default void close() {
        }
    }

    static <R extends Run> R feed(Function<Long, R> make, long seed, List<Input> inputs, int upTo) {
        R run = make.apply(seed);
        for (int i = 0; i < upTo; i++) {
            run.apply(inputs.get(i));
        }
        return run;
    }

    /** Checks every asked event at every point of a run; returns how many answers were compared. */
    static int check(Function<Long, Run> make, long seed, int length) {
        List<Input> inputs = inputs(new SplittableRandom(seed * 31 + 7), length);
        Run run = make.apply(seed);
        int compared = 0;
        try {
            for (int at = 0; at <= length; at++) {
                byte[] before = bytes(run.record());
                String log = run.log();
                List<String> permitted = new ArrayList<>();
                for (Event e : ASKED) {
                    String asked = outcome(() -> run.can(e));
                    Run copy = feed(make, seed, inputs, at);
                    try {
                        String sent = outcome(() -> copy.send(e));
                        assertEquals(sent, asked, "seed " + seed + ", after " + inputs.subList(0, at) + ": can(" + e + ") in "
                                + run.view().state());
                    } finally {
                        copy.close();
                    }
                    if (asked.equals("true") && e.fields().isEmpty()) {
                        permitted.add(e.type());
                    }
                    compared++;
                }
                List<String> listed = new ArrayList<>(run.view().permittedEvents());
                listed.retainAll(Arrays.asList(RandomStatecharts.EVENTS));
                listed.sort(null); // the generator's events sort as it lists them
                assertEquals(permitted, listed, "seed " + seed + ": permittedEvents() in " + run.view().state());
                assertArrayEquals(before, bytes(run.record()), "seed " + seed + ": asking changed the record");
                assertEquals(log, run.log(), "seed " + seed + ": asking ran the machine's code");
                if (at == length) {
                    break;
                }
                try {
                    run.apply(inputs.get(at));
                } catch (RuntimeException e) {
                    break; // a copy fed the same inputs throws the same: nothing more to compare on this run
                }
            }
        } finally {
            run.close();
        }
        return compared;
    }

    static final class Plain implements Run {
        final StateMachine<?> m;
        final Object ctx;

        Plain(StateMachine<?> m) {
            this.m = m;
            this.ctx = m.context();
        }

        /** Each seed's machine, made once: a copy is a new instance of it. */
        static final Map<Long, Machine<List<String>>> STATECHARTS = new java.util.concurrent.ConcurrentHashMap<>();
        static final Map<Long, StatesDef<Object>> TABLES = new java.util.concurrent.ConcurrentHashMap<>();

        static Plain statechart(long seed) {
            return new Plain(new StateMachine<>(STATECHARTS.computeIfAbsent(seed, RandomStatecharts::statechart)));
        }

        static Plain polled(long seed) {
            return new Plain(new StateMachine<>(TABLES.computeIfAbsent(seed, RandomStatecharts::polled), new Object()));
        }

        @Override
        public void apply(Input in) {
            if (in.event() == null) {
                m.step(in.dt());
            } else {
                m.send(in.event());
            }
        }

        @Override
        public boolean can(Event e) {
            return m.can(e);
        }

        @Override
        public boolean send(Event e) {
            return m.send(e);
        }

        @Override
        public MachineView<?> view() {
            return m;
        }

        @Override
        public MachineRecord record() {
            return Access.record(m);
        }

        @Override
        public String log() {
            return String.valueOf(ctx);
        }
    }

    /** One machine on an entity of a world of its own. */
    static final class OnEntity implements Run {
        static final Map<Long, States<List<String>>> MACHINES = new java.util.concurrent.ConcurrentHashMap<>();
        final States<List<String>> states;
        final StateWorld world = StateWorld.create();
        final Entity entity;

        OnEntity(long seed) {
            states = MACHINES.computeIfAbsent(seed, s -> States.of(RandomStatecharts.statechart(s)));
            entity = world.spawn(states.trait());
        }

        @Override
        public void apply(Input in) {
            if (in.event() == null) {
                world.step(in.dt());
            } else {
                states.send(entity, in.event());
            }
        }

        @Override
        public boolean can(Event e) {
            return states.can(entity, e);
        }

        @Override
        public boolean send(Event e) {
            return states.send(entity, e);
        }

        @Override
        public MachineView<?> view() {
            return states.read(entity);
        }

        @Override
        public MachineRecord record() {
            return Access.record(states.read(entity));
        }

        @Override
        public String log() {
            return String.valueOf(states.read(entity).context());
        }

        @Override
        public void close() {
            world.close();
        }
    }

    @Test
    void onRandomStatecharts_canAnswersWhatSendThenReturnsOnACopy_forEveryEventAtEveryPoint_andChangesNothing() {
        int compared = 0;
        for (long seed = 0; seed < 150; seed++) {
            compared += check(Plain::statechart, seed, 14);
        }
        assertTrue(compared > 30_000, "answers compared: " + compared);
    }

    @Test
    void onRandomPolledTables_canIsTrueExactlyWhenSendIsTaken_forEveryEventAtEveryPoint() {
        int compared = 0;
        for (long seed = 0; seed < 120; seed++) {
            compared += check(Plain::polled, seed, 14);
        }
        assertTrue(compared > 20_000, "answers compared: " + compared);
    }

    @Test
    void onRandomStatechartsOnEntities_canAnswersWhatSendThenReturnsOnACopyInAWorldOfItsOwn() {
        int compared = 0;
        for (long seed = 0; seed < 25; seed++) {
            compared += check(OnEntity::new, seed, 10);
        }
        assertTrue(compared > 3_000, "answers compared: " + compared);
    }

    /** The machines the generator made, to confirm the property met what it claims to cover. */
    @Test
    void theRandomStatechartsCoverParallelStatesHistoryEventlessTransitionsAndDoneEvents() {
        int parallel = 0;
        int history = 0;
        int eventless = 0;
        int done = 0;
        for (long seed = 0; seed < 160; seed++) {
            Machine<List<String>> m = RandomStatecharts.statechart(seed);
            dev.enginestates.chart.Chart c = Access.chart(m);
            boolean p = false;
            boolean h = false;
            boolean d = false;
            for (int s = 0; s < c.size; s++) {
                p |= c.type[s] == dev.enginestates.declare.StateType.PARALLEL;
                h |= c.type[s] == dev.enginestates.declare.StateType.HISTORY;
                d |= c.onDone[s] != null;
            }
            parallel += p ? 1 : 0;
            history += h ? 1 : 0;
            done += d ? 1 : 0;
            eventless += c.hasEventless ? 1 : 0;
        }
        assertTrue(parallel > 20 && history > 20 && eventless > 10 && done > 20,
                "parallel " + parallel + ", history " + history + ", eventless " + eventless + ", done " + done);
    }
}

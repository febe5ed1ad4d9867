package dev.enginestates.algorithm;

import dev.enginestates.RandomTree;
import dev.enginestates.StatesDef;
import dev.enginestates.chart.Chart;
import dev.enginestates.declare.MachineException;
import dev.enginestates.declare.StateGuard;
import dev.enginestates.declare.StatesBuilder;
import dev.enginestates.declare.UnknownEvents;
import dev.enginestates.plain.StateMachine;
import dev.enginestates.records.Access;
import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashSet;
import java.util.List;
import java.util.Objects;
import java.util.Set;
import java.util.SplittableRandom;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The polled style's generated code ({@link GuardLink}, {@link AfterLink}) answers exactly as the
 * loops over the chart's arrays ({@link PolledCode.Looped}) do: seeded random machines run side by
 * side on plain objects, one compiled with generated polls and one (compiled separately, so their
 * charts' caches differ) given {@link PolledCode#looped} before its first start, fed the same
 * inputs, and after every input their traces are equal: the leaf, the previous leaf, every active
 * state's clock, the enter/exit calls, what a throw said, and how many times each guard was called.
 *
 * <p>A failure names the seed and the last inputs. Runs {@value #DEFAULT_RUNS} machines of
 * {@value #TICKS} ticks by default; {@code -Dproperty.runs=N} runs more.
 */
class GeneratedPollsAnswerAsLoopsPropertyTest {
    static final int DEFAULT_RUNS = 200;
    static final int RUNS = Integer.getInteger("property.runs", DEFAULT_RUNS);
    static final int TICKS = 200;

    @Test
    void generatedPollsAnswerExactlyAsTheLoopsDoOnRandomMachines() {
        Set<String> seen = new HashSet<>();
        int generatedRuns = 0;
        for (int seed = 1; seed <= RUNS; seed++) {
            RandomTable onCode = new RandomTable(seed);
            RandomTable onLoops = new RandomTable(seed);
            Chart generatedChart = Access.chart(onCode.def.machine());
            Chart loopedChart = Access.chart(onLoops.def.machine());
            assertTrue(generatedChart != loopedChart, "two definitions, two charts");
            PolledRuntime.runWithLoops(loopedChart);
            PolledRuntime.generateNow(generatedChart);

            Ctx a = new Ctx();
            Ctx b = new Ctx();
            List<String> inputs = new ArrayList<>();
            int s = seed;
            StateMachine<Ctx> code = new StateMachine<>(onCode.def, a);
            StateMachine<Ctx> loops = new StateMachine<>(onLoops.def, b);
            String[] traces = {trace(code, ""), trace(loops, "")};
            compare(s, onCode, inputs, traces);

            // the comparison means something only if the first really runs generated classes
            boolean anyPoll = Arrays.stream(PolledCode.of(generatedChart)).anyMatch(Objects::nonNull);
            assertEquals(anyPoll, PolledRuntime.runsGeneratedCode(generatedChart), () -> "seed " + s + ": the first chart's polls are generated"
                    + onCode.text);
            assertFalse(PolledRuntime.runsGeneratedCode(loopedChart), "the second chart's polls are the loops it was given");
            generatedRuns += anyPoll ? 1 : 0;
            seen.addAll(onCode.features);

            SplittableRandom r = new SplittableRandom(seed * 31L + 7);
            boolean fixed = r.nextBoolean();
            for (int tick = 0; tick < TICKS; tick++) {
                if (r.nextInt(3) == 0) {
                    long bits = r.nextLong() & (1L << Ctx.BITS) - 1;
                    inputs.add("bits " + Long.toBinaryString(bits));
                    a.bits = bits;
                    b.bits = bits;
                }
                if (r.nextInt(4) == 0) {
                    String event = "E" + r.nextInt(4);
                    int arg = r.nextInt(10);
                    boolean flag = r.nextBoolean();
                    inputs.add("send " + event + " " + arg + " " + flag);
                    apply(() -> code.send(event, arg, flag), code, traces, 0);
                    apply(() -> loops.send(event, arg, flag), loops, traces, 1);
                    compare(s, onCode, inputs, traces);
                }
                if (r.nextInt(30) == 0) {
                    String name = r.nextInt(4) == 0 ? StatesBuilder.BACK : onCode.path.get(1 + r.nextInt(onCode.states()));
                    inputs.add("go " + name);
                    apply(() -> code.go(name), code, traces, 0);
                    apply(() -> loops.go(name), loops, traces, 1);
                    compare(s, onCode, inputs, traces);
                }
                int kind = r.nextInt(10);
                double dt = kind < 7 || fixed && kind < 9 ? 1 / 60.0 : kind == 9 ? 0 : r.nextDouble() * 0.6;
                inputs.add("step " + dt);
                apply(() -> code.step(dt), code, traces, 0);
                apply(() -> loops.step(dt), loops, traces, 1);
                compare(s, onCode, inputs, traces);
            }
            for (int g = 0; g < onCode.guardKind.size(); g++) {
                if (a.calls[g] > 0) {
                    seen.add("called guard to " + onCode.guardKind.get(g));
                }
            }
            seen.addAll(a.heard);
        }
        assertTrue(generatedRuns > RUNS / 2, "most machines have polls: " + generatedRuns + " of " + RUNS);
        // the generator makes the cases the generated code treats apart, or the property proves little
        for (String f : List.of("to self", "to ancestor", "to descendant", "to sibling", "to other", "root to",
                "called guard to descendant", "called guard to sibling", "called guard to other",
                "after ancestor", "after self", "after descendant", "after $back", "after 0", "update", "on target", "on handler", "threw")) {
            assertTrue(seen.contains(f), () -> RUNS + " random machines have no '" + f + "'; seen " + seen);
        }
        assertFalse(seen.contains("called guard to self") || seen.contains("called guard to ancestor"),
                "a guard whose target is its own state or an ancestor is never called: " + seen);
    }

    // ------------------------------------------------------------------ running both

    private interface Call {
        void run();
    }

    /** Runs one input, noting what a throw said, then the machine's trace. */
    private static void apply(Call call, StateMachine<Ctx> m, String[] traces, int i) {
        String threw = "";
        try {
            call.run();
        } catch (MachineException e) { // UserCodeException included: a guard, an update or a handler threw
            threw = e.getClass().getSimpleName() + ": " + e.getMessage();
            m.ctx().heard.add("threw");
        }
        traces[i] = trace(m, threw);
    }

    private static void compare(int seed, RandomTable t, List<String> inputs, String[] traces) {
        if (!traces[0].equals(traces[1])) {
            StringBuilder last = new StringBuilder();
            for (int i = Math.max(0, inputs.size() - 20); i < inputs.size(); i++) {
                last.append("\n  #").append(i).append(' ').append(inputs.get(i));
            }
            assertEquals(traces[0], traces[1], "seed " + seed + ": generated (expected) and looped (actual) differ after input "
                    + (inputs.size() - 1) + t.text + "\nlast inputs:" + last);
        }
    }

    /** The leaf, the previous leaf, each active state's clock, what threw, each guard's calls and the enter/exit log. */
    private static String trace(StateMachine<Ctx> m, String threw) {
        StringBuilder sb = new StringBuilder(m.state()).append(" (previous ").append(m.previous()).append(")");
        sb.append(" root ").append(m.totalTime());
        for (String p : m.branch()) {
            sb.append(' ').append(p).append('=').append(m.timeIn(p));
        }
        Ctx c = m.ctx();
        sb.append("\nthrew: ").append(threw);
        sb.append("\nguard calls: ").append(Arrays.toString(c.calls));
        sb.append("\nlog: ").append(c.log).append(" sum ").append(c.sum);
        return sb.toString();
    }

    // ------------------------------------------------------------------ the context and the generator

    /** The game's object: bits the inputs set, each guard's calls, the enter/exit log. */
    static final class Ctx {
        static final int BITS = 8;
        long bits;
        int sum;
        /** How many times each guard was called, by the guard's number in its machine. */
        final int[] calls = new int[RandomTable.MAX_GUARDS];
        final List<String> log = new ArrayList<>();
        /** What the test heard, not compared: coverage only. */
        final Set<String> heard = new HashSet<>();

        void note(String call) {
            log.add(call);
            if (log.size() > 16) {
                log.remove(0);
            }
        }

        boolean bit(int b) {
            return (bits >>> b & 1) != 0;
        }
    }

    /**
     * A random polled table from a seed: a tree of 1 to 12 states, depth up to 3 (keys {@code s0,
     * s1, ...}, unique; targets named by their paths), each state with up to 4 guards whose targets
     * are picked to be the state itself, an ancestor, a descendant, a sibling or any state; an
     * {@code after} (0 seconds, {@code $back}, self, ancestor, descendant); an {@code update};
     * {@code on} targets and handlers; logged enter and exit. One guard in twelve throws while bits
     * 6 and 7 are set, so a throw from generated code is compared too. The same seed makes the same
     * table, each call compiling a chart of its own.
     */
    static final class RandomTable {
        static final int MAX_GUARDS = 2 + 12 * 4;
        static final double[] SECONDS = {0, 1 / 60.0, 0.1, 0.25, 0.5, 1};
        static final double[] THRESHOLDS = {0, 1 / 60.0, 0.1, 0.25, 0.5, 1};

        final StatesDef<Ctx> def;
        final Set<String> features = new HashSet<>();
        /** Each guard's kind of target ("sibling"), by the guard's number. */
        final List<String> guardKind = new ArrayList<>();
        final List<String> path;
        final StringBuilder text = new StringBuilder("\nmachine:\n");
        private final SplittableRandom r;
        private final List<Integer> parent;
        private final List<Integer> depth;
        private final List<List<Integer>> kids;

        RandomTable(int seed) {
            r = new SplittableRandom(seed);
            RandomTree tree = new RandomTree(r);
            path = tree.path;
            parent = tree.parent;
            depth = tree.depth;
            kids = tree.kids;
            def = StatesDef.<Ctx>define("random-" + seed, d -> declare(d, 0));
        }

        int states() {
            return path.size() - 1;
        }

        private String key(int s) {
            return path.get(s).substring(path.get(s).lastIndexOf('.') + 1);
        }

        private void declare(StatesBuilder<Ctx> b, int s) {
            List<String> line = new ArrayList<>();
            if (s == 0) {
                b.unknownEvents(UnknownEvents.ACCEPT);
            }
            if (!kids.get(s).isEmpty() && r.nextBoolean()) {
                String first = key(kids.get(s).get(r.nextInt(kids.get(s).size())));
                b.initial(first);
                line.add("initial " + first);
            }
            int n = r.nextInt(s == 0 ? 3 : 5);
            Set<Integer> used = new HashSet<>();
            for (int g = 0; g < n; g++) {
                String[] kind = new String[1];
                int t = guardTarget(s, kind);
                if (!used.add(t)) {
                    continue;
                }
                guard(b, s, t, kind[0], line);
            }
            if (s > 0 && r.nextBoolean()) {
                double seconds = SECONDS[r.nextInt(SECONDS.length)];
                String target = afterTarget(s);
                b.after(seconds, target);
                line.add("after " + seconds + " -> " + target);
                if (seconds == 0) {
                    features.add("after 0");
                }
            }
            if (r.nextInt(4) == 0) {
                String target = r.nextInt(4) == 0 ? StatesBuilder.BACK : path.get(1 + r.nextInt(states()));
                int bit = r.nextInt(Ctx.BITS);
                double th = THRESHOLDS[r.nextInt(THRESHOLDS.length)] * 3;
                b.update((c, dt, time) -> c.bit(bit) && time >= th ? target : null);
                line.add("update: bit " + bit + " and t >= " + th + " ? " + target);
                features.add("update");
            }
            if (s > 0) {
                String me = path.get(s);
                b.enter((c, from) -> c.note("+" + me + "<" + from));
                b.exit((c, to) -> c.note("-" + me + ">" + to));
            }
            Set<String> named = new HashSet<>();
            for (int o = r.nextInt(3); o > 0; o--) {
                String event = "E" + r.nextInt(4);
                if (!named.add(event)) {
                    continue;
                }
                String target = r.nextInt(4) == 0 ? StatesBuilder.BACK : path.get(1 + r.nextInt(states()));
                if (r.nextBoolean()) {
                    b.on(event, target);
                    line.add("on " + event + " -> " + target);
                    features.add("on target");
                } else {
                    int bit = r.nextInt(Ctx.BITS);
                    b.on(event, (c, args) -> {
                        c.sum += (Integer) args[0];
                        return c.bit(bit) ^ (Boolean) args[1] ? target : null;
                    });
                    line.add("on " + event + " (sum += args[0]) -> bit " + bit + " xor args[1] ? " + target);
                    features.add("on handler");
                }
            }
            text.append("  ").append(s == 0 ? "root" : path.get(s)).append(": ").append(String.join("; ", line)).append('\n');
            for (int kid : kids.get(s)) {
                b.state(key(kid), k -> declare(k, kid));
            }
        }

        /** A guard counting its calls, on bits, on t or both; one in twelve throws while bits 6 and 7 are set. */
        private void guard(StatesBuilder<Ctx> b, int s, int t, String kind, List<String> line) {
            int id = guardKind.size();
            guardKind.add(kind);
            int bit = r.nextInt(Ctx.BITS);
            boolean set = r.nextBoolean();
            double th = THRESHOLDS[r.nextInt(THRESHOLDS.length)];
            int form = r.nextInt(3);
            boolean throwing = r.nextInt(12) == 0;
            StateGuard<Ctx> test = form == 0 ? (c, time) -> c.bit(bit) == set
                    : form == 1 ? (c, time) -> time >= th
                    : (c, time) -> c.bit(bit) == set && time >= th;
            String target = path.get(t);
            b.to(target, (c, time) -> {
                c.calls[id]++;
                if (throwing && c.bit(6) && c.bit(7)) {
                    throw new IllegalStateException("guard " + id + " breaks");
                }
                return test.test(c, time);
            });
            line.add("to " + target + " #" + id + (form == 1 ? "" : " bit " + bit + (set ? "" : " clear"))
                    + (form == 0 ? "" : " t >= " + th) + (throwing ? " (throws on bits 6 and 7)" : ""));
            features.add("to " + kind);
            if (s == 0) {
                features.add("root to");
            }
        }

        /** The state itself, an ancestor, a descendant, a sibling, or any state; {@code kind} says which it became. */
        private int guardTarget(int s, String[] kind) {
            int pick = r.nextInt(5);
            List<Integer> ancestors = ancestors(s);
            List<Integer> descendants = descendants(s);
            List<Integer> siblings = new ArrayList<>(kids.get(Math.max(parent.get(s), 0)));
            siblings.remove((Integer) s);
            if (pick == 0 && s > 0) {
                kind[0] = "self";
                return s;
            }
            if (pick == 1 && !ancestors.isEmpty()) {
                kind[0] = "ancestor";
                return ancestors.get(r.nextInt(ancestors.size()));
            }
            if (pick == 2 && !descendants.isEmpty()) {
                kind[0] = "descendant";
                return descendants.get(r.nextInt(descendants.size()));
            }
            if (pick == 3 && s > 0 && !siblings.isEmpty()) {
                kind[0] = "sibling";
                return siblings.get(r.nextInt(siblings.size()));
            }
            int t = 1 + r.nextInt(states());
            kind[0] = t == s ? "self" : ancestors.contains(t) ? "ancestor" : descendants.contains(t) ? "descendant"
                    : siblings.contains(t) && s > 0 ? "sibling" : "other";
            return t;
        }

        /** {@code $back}, the state itself, an ancestor, a descendant, or any state. */
        private String afterTarget(int s) {
            int pick = r.nextInt(6);
            List<Integer> ancestors = ancestors(s);
            List<Integer> descendants = descendants(s);
            if (pick == 0) {
                features.add("after $back");
                return StatesBuilder.BACK;
            }
            if (pick == 1) {
                features.add("after self");
                return path.get(s);
            }
            if (pick == 2 && !ancestors.isEmpty()) {
                features.add("after ancestor");
                return path.get(ancestors.get(r.nextInt(ancestors.size())));
            }
            if (pick == 3 && !descendants.isEmpty()) {
                features.add("after descendant");
                return path.get(descendants.get(r.nextInt(descendants.size())));
            }
            return path.get(1 + r.nextInt(states()));
        }

        /** The state's ancestors below the root. */
        private List<Integer> ancestors(int s) {
            List<Integer> out = new ArrayList<>();
            for (int a = s > 0 ? parent.get(s) : 0; a > 0; a = parent.get(a)) {
                out.add(a);
            }
            return out;
        }

        private List<Integer> descendants(int s) {
            List<Integer> out = new ArrayList<>();
            for (int k : kids.get(s)) {
                out.add(k);
                out.addAll(descendants(k));
            }
            return out;
        }
    }
}

package dev.enginestates.algorithm;

import dev.enginestates.chart.Chart;
import dev.enginestates.chart.PolledChart;
import dev.enginestates.declare.StateGuard;
import dev.enginestates.declare.UserCodeException;
import dev.enginestates.records.MachineRecord;

import java.io.InputStream;
import java.lang.constant.ConstantDescs;
import java.lang.invoke.MethodHandles;
import java.lang.invoke.MethodType;

/**
 * Makes each polled state's {@link StatePoll}: loops first, generated code once the chart has been
 * stepped enough; the chart's runtime ({@link PolledRuntime}) keeps them.
 *
 * <p>Why generated code: a step tests every active state's guards, and a game's guards are many
 * lambdas. Called from one loop they meet at one call site that the JIT cannot inline (2–3 ns a
 * guard, a third of a step). Here each guard gets a class of its own: {@link GuardLink}'s bytes
 * defined again as a hidden class, the guard, its target and the next link as constants, so each
 * call site sees one guard and inlines it, and a state's guards and {@code after} become one call.
 *
 * <p>Where that cannot be done (a runtime without hidden classes, such as a native image or
 * Android; class files not readable as resources; a chart of more than {@link #MAX_LINKS} guards
 * and afters; {@code -Denginestates.generatedCode=false}), the state's poll is {@link Looped}, a
 * loop over the chart's arrays with the same answers. Hidden classes are unloaded with the chart.
 */
final class PolledCode {
    /** The most guards and afters of one chart given classes of their own (each about 4 kB of metaspace and 0.13 ms to make). */
    static final int MAX_LINKS = 1024;
    /**
     * The most guards one state's generated chain holds: each link calls the next, so a state of
     * more guards is a loop (which the JIT stops inlining long before this anyway), and no chain
     * is deep enough to need much of the game thread's stack.
     */
    static final int MAX_CHAIN = 32;
    private static final System.Logger LOG = System.getLogger("dev.enginestates");
    private static final boolean ALLOWED = !"false".equals(System.getProperty("enginestates.generatedCode"));
    private static final byte[] GUARD_LINK = template("GuardLink.class");
    private static final byte[] AFTER_LINK = template("AfterLink.class");
    private static volatile boolean reported;

    private PolledCode() {
    }

    /** The chart's polls by state ({@code null} for a state that has no guard and no after): generated where the runtime allows. */
    static StatePoll[] of(Chart c) {
        return make(c, ALLOWED);
    }

    /** The polls of a chart made as loops over its arrays, whatever the runtime allows (the tests' comparison). */
    static StatePoll[] looped(Chart c) {
        return make(c, false);
    }

    /** Whether any of these polls is generated (false: all loops, or a chart with nothing to poll). */
    static boolean generated(StatePoll[] polls) {
        for (StatePoll p : polls) {
            if (p != null && !(p instanceof Looped)) {
                return true;
            }
        }
        return false;
    }

    private static StatePoll[] make(Chart c, boolean generate) {
        PolledChart p = c.polled;
        int links = 0;
        for (int s = 0; s < c.size; s++) {
            links += p.toTarget[s].length + (hasAfter(p, s) ? 1 : 0);
        }
        if (generate && GUARD_LINK != null && AFTER_LINK != null && links <= MAX_LINKS) {
            try {
                return generate(c);
            } catch (Throwable e) { // LinkageError, UnsupportedOperationException: no hidden classes on this runtime
                if (!reported) {
                    reported = true;
                    LOG.log(System.Logger.Level.DEBUG, "polled guards run through the interpreter's loop: hidden classes are not available here", e);
                }
            }
        }
        StatePoll[] out = new StatePoll[c.size];
        for (int s = 0; s < c.size; s++) {
            if (p.toTarget[s].length > 0 || hasAfter(p, s)) {
                out[s] = new Looped(c, s);
            }
        }
        return out;
    }

    private static StatePoll[] generate(Chart c) throws Throwable {
        PolledChart p = c.polled;
        StatePoll[] out = new StatePoll[c.size];
        for (int s = 0; s < c.size; s++) {
            StatePoll next = hasAfter(p, s) ? link(AFTER_LINK,
                    new Object[] {s, p.afterSeconds[s] - TimeRules.TIME_TOLERANCE, p.afterTarget[s]}) : null;
            int[] targets = p.toTarget[s];
            if (targets.length > MAX_CHAIN) {
                out[s] = new Looped(c, s);
                continue;
            }
            for (int j = targets.length - 1; j >= 0; j--) {
                int t = targets[j];
                if (isAncestorOrSelf(c, t, s)) {
                    continue; // always active while s is: this guard never moves anything
                }
                Object[] where = {c.machineId, c.path[s], "the to '" + c.path[t] + "' guard"};
                next = link(GUARD_LINK, new Object[] {p.toGuard[s][j], t, isAncestorOrSelf(c, s, t), next, where});
            }
            out[s] = next;
        }
        return out;
    }

    private static StatePoll link(byte[] template, Object[] data) throws Throwable {
        MethodHandles.Lookup l = MethodHandles.lookup().defineHiddenClassWithClassData(template, data, true);
        return (StatePoll) l.findConstructor(l.lookupClass(), MethodType.methodType(void.class)).invoke();
    }

    private static boolean hasAfter(PolledChart p, int s) {
        return !Double.isNaN(p.afterSeconds[s]);
    }

    /** Whether {@code a} is {@code s} or one of its ancestors. */
    private static boolean isAncestorOrSelf(Chart c, int a, int s) {
        for (int x = s; x >= 0; x = c.parent[x]) {
            if (x == a) {
                return true;
            }
        }
        return false;
    }

    private static byte[] template(String name) {
        try (InputStream in = PolledCode.class.getResourceAsStream(name)) {
            return in == null ? null : in.readAllBytes();
        } catch (Exception | LinkageError e) {
            return null;
        }
    }

    /**
     * The class data a generated link was defined with, read by its static initialiser through
     * its own lookup; a template loaded as an ordinary class has none, and fails to initialise.
     */
    static Object[] classData(MethodHandles.Lookup own) {
        try {
            return MethodHandles.classData(own, ConstantDescs.DEFAULT_NAME, Object[].class);
        } catch (IllegalAccessException e) {
            throw new ExceptionInInitializerError(e);
        }
    }

    /** The failure of a guard that threw, named as every move of the machine names one. */
    static UserCodeException guardThrew(Object[] where, Throwable e) {
        return new UserCodeException((String) where[0], (String) where[1], "step", (String) where[2], e);
    }

    /**
     * A due {@code after} of the active {@code state}: fired once a stay. It is marked before the
     * move, which clears the mark when it leaves the state; naming an active state (its own, an
     * ancestor, or {@code $back} to the leaf itself) it is spent and nothing moves, as only
     * {@code go} and events re-enter.
     *
     * @return the target, or -1
     */
    static int afterDue(MachineRecord r, int state, int target) {
        if (r.afterFired(state)) {
            return -1;
        }
        int t = target == PolledChart.BACK ? r.previousLeaf() : target;
        r.markAfterFired(state);
        return t > 0 && !r.isActive(t) ? t : -1;
    }

    /** A state's poll as a loop over the chart's arrays: the generated links' answers, where they cannot be made. */
    static final class Looped implements StatePoll {
        private final Chart chart;
        private final int state;
        private final int[] targets;
        private final StateGuard<Object>[] guards;
        private final double due;
        private final int afterTarget;

        Looped(Chart c, int s) {
            chart = c;
            state = s;
            targets = c.polled.toTarget[s];
            guards = c.polled.toGuard[s];
            due = hasAfter(c.polled, s) ? c.polled.afterSeconds[s] - TimeRules.TIME_TOLERANCE : Double.NaN;
            afterTarget = c.polled.afterTarget[s];
        }

        @Override
        public int first(MachineRecord r, Object ctx, double clock) {
            for (int j = 0; j < targets.length; j++) {
                int t = targets[j];
                if (r.isActive(t)) {
                    continue; // a guard never re-enters an active state
                }
                boolean holds;
                jdk.jfr.Event timer = Flight.timeCode();
                try {
                    holds = guards[j].test(ctx, clock);
                    if (timer != null) {
                        Flight.timed(timer, chart.machineId, r.self(), chart.path[state], "step", "to guard", chart.path[t]);
                    }
                } catch (Throwable e) {
                    Flight.threw(timer);
                    throw new UserCodeException(chart.machineId, chart.path[state], "step", "the to '" + chart.path[t] + "' guard", e);
                }
                if (holds) {
                    return t;
                }
            }
            return clock >= due ? afterDue(r, state, afterTarget) : -1; // NaN: no after
        }
    }
}

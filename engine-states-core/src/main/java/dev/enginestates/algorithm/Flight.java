package dev.enginestates.algorithm;

import jdk.jfr.Category;
import jdk.jfr.Description;
import jdk.jfr.Event;
import jdk.jfr.Label;
import jdk.jfr.Name;
import jdk.jfr.StackTrace;
import jdk.jfr.Threshold;

/**
 * Times a game's code (a guard, an action, a wait's seconds function, a {@code when} test, a
 * handler, a listener) for JDK Flight Recorder: a call slower than the {@code SlowCode} event's
 * threshold (1 ms unless a recording sets another) is recorded with its machine, entity, state and
 * event. With no recording, or the event disabled, {@link #timeCode()} returns {@code null} after
 * reading one flag and the call runs untimed.
 *
 * <p>A timer is an event object reused by its thread, so a recording of slow code allocates
 * nothing per call either. {@code -Dengine-states.jfr=off} compiles every engine-states event out (the JIT folds the
 * constant), for measuring what the checks cost.
 */
public final class Flight {
    /** Whether {@code -Dengine-states.jfr=off} switched every engine-states event off, for good. */
    public static final boolean OFF = "off".equals(System.getProperty("engine-states.jfr"));

    @Name("dev.enginestates.SlowCode")
    @Label("Slow game code")
    @Category({"engine-states", "Game code"})
    @Description("A call of the game's code (guard, action, wait seconds, when test, handler, listener) that took longer than the"
            + " threshold: the machine, entity, state and event it ran for")
    @Threshold("1 ms")
    @StackTrace(false)
    static final class SlowCodeEvent extends Event {
        @Label("Machine")
        @Description("The machine definition's id")
        String machine;
        @Label("Entity")
        @Description("Who runs the machine: the entity and its key, or a plain object")
        String entity;
        @Label("State")
        @Description("The path of the state whose code ran")
        String state;
        @Label("Event")
        @Description("The event being processed: a sent event's type, a wait's end, a when rule, a step")
        String event;
        @Label("Code")
        @Description("Which code: guard, action, entry, exit, wait seconds, when test, handler, update, listener")
        String code;
        /** The thread's timers this one belongs to, and its place among them (not recorded). */
        transient Timers owner;
        transient int level;
    }

    /**
     * One thread's timers, reused call after call so that timing allocates nothing: game code may
     * send to another machine whose code is timed inside the first, hence a stack.
     */
    static final class Timers {
        SlowCodeEvent[] stack = new SlowCodeEvent[4];
        int depth;

        SlowCodeEvent push() {
            if (depth == stack.length) {
                stack = java.util.Arrays.copyOf(stack, depth * 2);
            }
            SlowCodeEvent e = stack[depth];
            if (e == null) {
                e = new SlowCodeEvent();
                e.owner = this;
                e.level = depth;
                stack[depth] = e;
            }
            depth++;
            return e;
        }
    }

    private static final ThreadLocal<Timers> TIMERS = ThreadLocal.withInitial(Timers::new);

    /** Read for its enabled flag only: no event is written through it. */
    private static final SlowCodeEvent PROBE = new SlowCodeEvent();

    private Flight() {
    }

    /**
     * Starts timing a call of the game's code, when a recording wants slow calls.
     *
     * @return the timer to hand to {@link #timed}, or {@code null} when nothing records them
     */
    public static Event timeCode() {
        if (OFF || !PROBE.isEnabled()) {
            return null;
        }
        SlowCodeEvent e = TIMERS.get().push();
        e.begin();
        return e;
    }

    /**
     * Ends timing a call that returned; records it if it took longer than the threshold.
     *
     * @param timer   what {@link #timeCode()} returned, not {@code null}
     * @param machine the machine's id
     * @param entity  who runs it (its text is taken only when the call is recorded)
     * @param state   the state's path
     * @param event   the event being processed
     * @param code    which code ran
     * @param detail  what names it further (a transition's label), or {@code null}
     */
    public static void timed(Event timer, String machine, Object entity, String state, String event, String code, String detail) {
        SlowCodeEvent e = (SlowCodeEvent) timer;
        e.end();
        e.owner.depth = e.level; // also drops the timers of nested calls that threw
        if (e.shouldCommit()) {
            e.machine = machine;
            e.entity = entity == null ? "a plain object" : entity.toString();
            e.state = state;
            e.event = event;
            e.code = detail == null ? code : code + " '" + detail + "'";
            e.commit();
        }
    }

    /**
     * Drops the timer of a call that threw (its failure is reported as such, not as slow code).
     *
     * @param timer what {@link #timeCode()} returned, or {@code null}
     */
    public static void threw(Event timer) {
        if (timer != null) {
            SlowCodeEvent e = (SlowCodeEvent) timer;
            e.owner.depth = e.level;
        }
    }
}

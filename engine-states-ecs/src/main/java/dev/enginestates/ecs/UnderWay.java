package dev.enginestates.ecs;

/**
 * Which of a world's calls is under way, if any: the outermost one, inside which the game's code
 * (actions, guards, {@code when} tests, listeners, context hooks, an input recorder) may be
 * running now. While one is, the calls that need the world at rest (close, release, a step, a
 * checkpoint, a restore, a replay, setting the clock) are refused with a message naming it: done
 * from inside, they would leave the outer call half-done on a world it no longer finds as it was.
 *
 * <p>Only the outermost call is noted (a send from an action inside a step is part of the step),
 * as a constant and the record it is on: nothing is allocated on the way in or out.
 */
final class UnderWay {
    static final String STEP = "a step";
    static final String ADVANCE = "an advance(dt)";
    static final String RUN_STATES = "a runStates()";
    static final String SEND = "a send";
    static final String GO = "a go";
    static final String SET_STATE = "a setState";
    static final String EDIT = "a change to a record";
    static final String RESTORED = "a record's restore";
    static final String SPAWN = "a spawn";
    static final String ATTACH = "an attach";
    static final String DETACH = "a detach";
    static final String DESPAWN = "a despawn";
    static final String RECORDS = "a records(machine) call";
    static final String WRITES = "a write of records";

    /** The outermost call under way, one of the constants or an I/O call's own words; {@code null} at rest. */
    private String what;
    /** The record that call is on, or {@code null}. */
    private EntityRecord<?> record;
    /** The event sent or the state gone to, or {@code null}. */
    private String detail;
    /** Whether an input log is being replayed: its inputs are calls of their own, and the world is not at rest between them. */
    private boolean replaying;

    /**
     * Notes a call starting; only the outermost is kept.
     *
     * @return whether this call is the outermost, which must {@link #end} it
     */
    boolean begin(String call, EntityRecord<?> on, String about) {
        if (what != null) {
            return false;
        }
        what = call;
        record = on;
        detail = about;
        return true;
    }

    /** The end of a call that {@link #begin} found outermost ({@code began}); nothing for a nested one. */
    void end(boolean began) {
        if (began) {
            what = null;
            record = null;
            detail = null;
        }
    }

    /** Whether a call is under way now (the game's code may be running inside it). */
    boolean busy() {
        return what != null;
    }

    /** Whether the world is not at rest: a call is under way, or a replay is between two of its inputs. */
    boolean any() {
        return what != null || replaying;
    }

    boolean replaying() {
        return replaying;
    }

    void replaying(boolean on) {
        replaying = on;
    }

    /** What is under way, for a message: "a send of 'BELL' to machine 'guard' on entity 'g7'". */
    String describe() {
        if (what == null) {
            return replaying ? "the replay of an input log" : "nothing";
        }
        StringBuilder b = new StringBuilder(what);
        if (detail != null) {
            b.append(what == SEND ? " of '" : " to '").append(detail).append('\'');
        }
        if (record != null) {
            b.append(what == SEND ? " to" : " of").append(" machine '").append(record.machineId()).append("' on ")
                    .append(StateWorld.describe(record.entity));
        }
        if (replaying) {
            b.append(", part of the replay of an input log");
        }
        return b.toString();
    }
}

package dev.enginestates.algorithm;

import dev.enginestates.declare.StateGuard;
import dev.enginestates.records.MachineRecord;

import java.lang.invoke.MethodHandles;

/**
 * The template of one guard of a generated {@link StatePoll}: never loaded as itself. Its bytes
 * are defined again as a hidden class per guard ({@link PolledCode}), whose class data fills the
 * constants. Static finals are constants to the JIT, so in each copy {@code GUARD.test} and
 * {@code NEXT.first} have one known receiver each and inline.
 */
final class GuardLink implements StatePoll {
    private static final StateGuard<Object> GUARD;
    private static final int TARGET;
    /** Whether the target can be active while the guard's state is (a state below it): only then is it tested. */
    private static final boolean MAY_BE_ACTIVE;
    private static final StatePoll NEXT;
    private static final Object[] WHERE;

    static {
        Object[] d = PolledCode.classData(MethodHandles.lookup());
        @SuppressWarnings("unchecked")
        StateGuard<Object> g = (StateGuard<Object>) d[0];
        GUARD = g;
        TARGET = (Integer) d[1];
        MAY_BE_ACTIVE = (Boolean) d[2];
        NEXT = (StatePoll) d[3];
        WHERE = (Object[]) d[4];
    }

    @Override
    public int first(MachineRecord r, Object ctx, double clock) {
        if (!MAY_BE_ACTIVE || !r.isActive(TARGET)) { // a guard never re-enters an active state
            boolean holds;
            try {
                holds = GUARD.test(ctx, clock);
            } catch (Throwable e) {
                throw PolledCode.guardThrew(WHERE, e); // out of line: this method stays small enough to inline
            }
            if (holds) {
                return TARGET;
            }
        }
        return NEXT == null ? -1 : NEXT.first(r, ctx, clock);
    }
}

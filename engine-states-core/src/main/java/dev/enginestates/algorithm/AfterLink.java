package dev.enginestates.algorithm;

import dev.enginestates.records.MachineRecord;

import java.lang.invoke.MethodHandles;

/**
 * The template of a state's {@code after} at the end of a generated {@link StatePoll}: never
 * loaded as itself, defined again as a hidden class per {@code after} ({@link PolledCode}).
 */
final class AfterLink implements StatePoll {
    private static final int STATE;
    /** The seconds less the world's tolerance: twelve steps of 1/60 s sum a hair below 0.2 s. */
    private static final double DUE;
    private static final int TARGET;

    static {
        Object[] d = PolledCode.classData(MethodHandles.lookup());
        STATE = (Integer) d[0];
        DUE = (Double) d[1];
        TARGET = (Integer) d[2];
    }

    @Override
    public int first(MachineRecord r, Object ctx, double clock) {
        return clock >= DUE ? PolledCode.afterDue(r, STATE, TARGET) : -1;
    }
}

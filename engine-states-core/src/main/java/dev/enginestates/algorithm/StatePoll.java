package dev.enginestates.algorithm;

import dev.enginestates.records.MachineRecord;

/**
 * One polled state's transitions that a step tests, as code: its {@code to} guards in
 * declaration order, then its {@code after}. {@link PolledCode} makes one per state that has
 * any, as generated classes where the runtime allows (each guard on a call site of its own, which
 * the JIT inlines) and as a loop over the chart's arrays where it does not; both answer alike.
 */
interface StatePoll {
    /**
     * The first enabled transition of the state: a guard that holds (one whose target is active is
     * skipped), or an {@code after} that is due, which is then marked as fired for this stay.
     *
     * @param clock the state's clock, the seconds it has been active
     * @return the target, or -1 when nothing moves
     * @throws dev.enginestates.declare.UserCodeException when a guard throws, naming the machine, state and guard
     */
    int first(MachineRecord r, Object ctx, double clock);
}

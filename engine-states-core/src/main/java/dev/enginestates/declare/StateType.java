package dev.enginestates.declare;

/** The kinds of state node, as XState names them. */
public enum StateType {
    /** No children. */
    ATOMIC,
    /** Children, one of which is active while the state is. */
    COMPOUND,
    /** Children (regions), all active while the state is. */
    PARALLEL,
    /** A final state: entering it makes its parent done. */
    FINAL,
    /** A history pseudo-state: entering it enters what its parent last had active. */
    HISTORY
}

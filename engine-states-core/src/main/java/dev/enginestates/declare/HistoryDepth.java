package dev.enginestates.declare;

/** How much a history state remembers. */
public enum HistoryDepth {
    /** The parent's active child only; it re-enters its own initial states. */
    SHALLOW,
    /** Every active atomic descendant of the parent, and the states between. */
    DEEP
}

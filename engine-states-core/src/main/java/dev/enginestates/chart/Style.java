package dev.enginestates.chart;

/** The declaration style a chart was compiled from; each runs by its own document's semantics. */
public enum Style {
    /** XState's config (the {@code 003} document): events, eventless transitions, waits, {@code when} rules. */
    XSTATE,
    /** The polled table (the {@code 000} document): {@code to} guards outermost first, {@code after}, {@code update}, {@code $back}. */
    POLLED,
    /** The builder's flat machine (the {@code 002} document): handlers returning names, durations, windows, {@code advance}/{@code runState}. */
    BUILDER
}

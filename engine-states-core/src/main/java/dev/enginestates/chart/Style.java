package dev.enginestates.chart;

/** The declaration style a chart was compiled from; each runs by its own semantics. */
public enum Style {
    /** XState's config: events, eventless transitions, waits, {@code when} rules. */
    XSTATE,
    /**
     * The polled table ({@code StatesDef}): {@code to} guards outermost first, {@code after}, {@code update},
     * {@code $back}.
     */
    POLLED,
    /**
     * The builder's flat machine ({@code StateMachineBuilder}): handlers returning names, durations, windows,
     * {@code advance}/{@code runState}.
     */
    BUILDER
}

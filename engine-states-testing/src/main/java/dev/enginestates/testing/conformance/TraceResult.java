package dev.enginestates.testing.conformance;

/**
 * The outcome of replaying one trace: passed, or the first step that differed (-1 for the
 * start) with what XState recorded and what this engine did.
 */
public final class TraceResult {
    private final String name;
    private final int step;
    private final String expected;
    private final String got;

    private TraceResult(String name, int step, String expected, String got) {
        this.name = name;
        this.step = step;
        this.expected = expected;
        this.got = got;
    }

    static TraceResult passed(String name) {
        return new TraceResult(name, Integer.MIN_VALUE, null, null);
    }

    static TraceResult failed(String name, int step, String expected, String got) {
        return new TraceResult(name, step, expected, got);
    }

    /**
     * The trace's name.
     *
     * @return the trace's {@code name}, or its file's name without {@code .json}
     */
    public String name() {
        return name;
    }

    /**
     * Whether every step matched.
     *
     * @return whether the replay matched XState at the start and at every step
     */
    public boolean passed() {
        return expected == null;
    }

    /**
     * The index of the first differing step, -1 for the start.
     *
     * @return the step's index from 0, -1 for the start; {@link Integer#MIN_VALUE} when the trace passed
     */
    public int step() {
        return step;
    }

    /**
     * What XState recorded at that step.
     *
     * @return the value, status and actions XState recorded, as one line of JSON; a phrase such as
     *         {@code "a readable JSON trace"} when the trace could not be replayed that far; {@code null} when it passed
     */
    public String expected() {
        return expected;
    }

    /**
     * What this engine produced.
     *
     * @return what the engine had, in the same form, or the error's message; {@code null} when the trace passed
     */
    public String got() {
        return got;
    }

    /** One line: name, step, expected, got. */
    @Override
    public String toString() {
        if (passed()) {
            return name + ": passed";
        }
        return name + ": step " + (step < 0 ? "initial" : String.valueOf(step)) + ": expected " + expected + ", got " + got;
    }
}

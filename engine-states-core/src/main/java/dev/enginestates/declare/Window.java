package dev.enginestates.declare;

/**
 * A timing window of a state: a span of the
 * state's progress, such as the frames of an attack that deal damage or accept the next input.
 *
 * <p>The bounds are <b>progress</b>, fractions of the state's duration (0 at entry, 1 when the
 * duration has passed), so one window fits an attack however long it is configured to last:
 * {@code window("damage", 0.35f, 0.55f)} on a 0.55 s attack spans 0.1925 s to 0.3025 s. Both
 * bounds are inclusive.
 *
 * @param name the window's name, unique in its state
 * @param from the progress it opens at, 0 or more
 * @param to   the progress it closes at, {@code from} or more
 */
public record Window(String name, float from, float to) {
    /**
     * Whether {@code progress} lies in the window: {@code from <= progress <= to}.
     *
     * @param progress the state's progress, time in state over duration
     * @return whether it lies in the window
     */
    public boolean contains(float progress) {
        return from <= progress && progress <= to;
    }

    /**
     * Whether a tick that moved progress from {@code before} to {@code now} opened the window:
     * it crossed {@code from} (a window that opens at 0 opens on the state's first tick that
     * counts time). A tick long enough to cross the whole window both opens and closes it.
     *
     * @param before the progress before the tick
     * @param now the progress after it
     * @return whether the tick opened the window
     */
    public boolean opened(float before, float now) {
        return now >= from && now > before && (before < from || (before == 0f && from == 0f));
    }

    /**
     * Whether a tick that moved progress from {@code before} to {@code now} closed the window: it went past {@code to}.
     *
     * @param before the progress before the tick
     * @param now the progress after it
     * @return whether the tick closed the window
     */
    public boolean closed(float before, float now) {
        return before <= to && now > to;
    }
}

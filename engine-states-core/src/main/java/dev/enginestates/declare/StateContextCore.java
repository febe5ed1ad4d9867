package dev.enginestates.declare;

import java.util.Map;

/**
 * What a builder-style machine writes into its context as it runs,
 * and the helpers handlers read it with. The machine keeps its own clock and writes it here:
 * at every {@code StateMachine.advance} the time in state and the progress before it;
 * at every transition the new state's metadata, then time 0.
 *
 * <p>A context for a machine that does not live on an entity (a bot in a match room, a quest, a
 * headless test) implements this alone; {@code StateContext} adds the entity. Extending
 * {@code AIContext} implements both.
 *
 * <pre>{@code
 * String attack(Fighter f, float dt) {
 *     if (f.windowEntered("damage")) f.hit(f.currentStateData(AttackStep.class).damage());
 *     return f.progress() >= 1f ? "Idle" : null;
 * }
 * }</pre>
 */
public interface StateContextCore {
    /**
     * Seconds in the current state, counted in float as the machine's clock is.
     *
     * @return the seconds, 0 right after entry
     */
    float timeInState();

    /**
     * Written by the machine at every advance, on entry (0) and on a restore; a game reads
     * {@link #timeInState()}.
     *
     * @param seconds the time in the current state, in seconds
     */
    void setTimeInState(float seconds);

    /**
     * The current state's configured duration in seconds, or 0 without one.
     *
     * @return the duration in seconds, or 0
     */
    float stateDuration();

    /**
     * Written by the machine when it enters a state and on a restore.
     *
     * @param seconds the state's configured duration, or 0 without one
     */
    void setStateDuration(float seconds);

    /**
     * The current state's tag, or {@code ""} without one: which of the states one handler backs.
     *
     * @return the tag, or {@code ""}
     */
    String currentStateTag();

    /**
     * Written by the machine when it enters a state and on a restore.
     *
     * @param tag the state's tag, or {@code ""} without one
     */
    void setCurrentStateTag(String tag);

    /**
     * The current state's windows by name; empty (never {@code null}) without any.
     *
     * @return the windows by name; empty, never {@code null}, without any
     */
    Map<String, Window> activeWindows();

    /**
     * Written by the machine when it enters a state and on a restore.
     *
     * @param windows the state's windows by name, unmodifiable; empty, never {@code null}, without any
     */
    void setActiveWindows(Map<String, Window> windows);

    /**
     * The current state's configured data, or {@code null}.
     *
     * @return the data, or {@code null}
     */
    Object currentStateData();

    /**
     * Written by the machine when it enters a state and on a restore.
     *
     * @param data the state's configured data, or {@code null}
     */
    void setCurrentStateData(Object data);

    /**
     * The current state's motion profile, or {@code null}.
     *
     * @return the profile, or {@code null}
     */
    StateMotionProfile currentStateMotion();

    /**
     * Written by the machine when it enters a state and on a restore.
     *
     * @param motion the state's motion profile, or {@code null}
     */
    void setCurrentStateMotion(StateMotionProfile motion);

    /**
     * The progress before the last advance: with {@link #progress()}, what a window's edges are read from.
     *
     * @return the progress before the last advance; 0 right after entry
     */
    float previousProgress();

    /**
     * Written by the machine before every advance, on entry (0) and on a restore; a game reads
     * {@link #previousProgress()}.
     *
     * @param progress the progress before the advance
     */
    void setPreviousProgress(float progress);

    /**
     * Time in state over the duration ({@code 1} once the duration has passed; more after), 0 without a duration.
     *
     * @return the progress: 0 at entry, 1 once the duration has passed, more after
     */
    default float progress() {
        float d = stateDuration();
        return d > 0f ? timeInState() / d : 0f;
    }

    /**
     * Whether the current state has the window and the progress lies in it (bounds inclusive).
     *
     * @param name the window's name, as configured on the state
     * @return whether it lies in the window; {@code false} for a state without that window
     */
    default boolean inWindow(String name) {
        Window w = windowNamed(name);
        return w != null && w.contains(progress());
    }

    /**
     * Whether the last advance opened the window: the progress crossed its start.
     *
     * @param name the window's name, as configured on the state
     * @return whether the last advance opened it; {@code false} for a state without that window
     */
    default boolean windowEntered(String name) {
        Window w = windowNamed(name);
        return w != null && w.opened(previousProgress(), progress());
    }

    /**
     * Whether the last advance closed the window: the progress went past its end.
     *
     * @param name the window's name, as configured on the state
     * @return whether the last advance closed it; {@code false} for a state without that window
     */
    default boolean windowExited(String name) {
        Window w = windowNamed(name);
        return w != null && w.closed(previousProgress(), progress());
    }

    /**
     * The current state's data if it is a {@code type}, else {@code null}.
     *
     * @param <T> the data's type
     * @param type the class the data is read as
     * @return the data, or {@code null} when the state has none or it is not a {@code type}
     */
    default <T> T currentStateData(Class<T> type) {
        Object d = currentStateData();
        return type.isInstance(d) ? type.cast(d) : null;
    }

    /**
     * The share of normal movement the current state keeps: its motion's throttle, or 1 without a motion profile.
     *
     * @return the share, 0 to 1; 1 without a motion profile
     */
    default float currentMovementThrottle() {
        StateMotionProfile m = currentStateMotion();
        return m == null ? 1f : m.movementThrottle();
    }

    /**
     * The current state's motion at the current progress ({@link StateMotionProfile#evaluate}), or 0 without a motion profile.
     *
     * @return the motion value; 0 without a motion profile
     */
    default float evaluateCurrentMotion() {
        StateMotionProfile m = currentStateMotion();
        return m == null ? 0f : m.evaluate(progress());
    }

    private Window windowNamed(String name) {
        Map<String, Window> windows = activeWindows();
        return windows == null ? null : windows.get(name);
    }
}

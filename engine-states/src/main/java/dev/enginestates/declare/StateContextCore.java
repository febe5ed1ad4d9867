package dev.enginestates.declare;

import java.util.Map;

/**
 * What a builder-style machine (the {@code 002} document) writes into its context as it runs,
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
    /** Seconds in the current state, counted in float as the document's clock is. */
    float timeInState();

    void setTimeInState(float seconds);

    /** The current state's configured duration in seconds, or 0 without one. */
    float stateDuration();

    void setStateDuration(float seconds);

    /** The current state's tag, or {@code ""} without one: which of the states one handler backs. */
    String currentStateTag();

    void setCurrentStateTag(String tag);

    /** The current state's windows by name; empty (never {@code null}) without any. */
    Map<String, Window> activeWindows();

    void setActiveWindows(Map<String, Window> windows);

    /** The current state's configured data, or {@code null}. */
    Object currentStateData();

    void setCurrentStateData(Object data);

    /** The current state's motion profile, or {@code null}. */
    StateMotionProfile currentStateMotion();

    void setCurrentStateMotion(StateMotionProfile motion);

    /** The progress before the last advance: with {@link #progress()}, what a window's edges are read from. */
    float previousProgress();

    void setPreviousProgress(float progress);

    /** Time in state over the duration ({@code 1} once the duration has passed; more after), 0 without a duration. */
    default float progress() {
        float d = stateDuration();
        return d > 0f ? timeInState() / d : 0f;
    }

    /** Whether the current state has the window and the progress lies in it (bounds inclusive). */
    default boolean inWindow(String name) {
        Window w = windowNamed(name);
        return w != null && w.contains(progress());
    }

    /** Whether the last advance opened the window: the progress crossed its start. */
    default boolean windowEntered(String name) {
        Window w = windowNamed(name);
        return w != null && w.opened(previousProgress(), progress());
    }

    /** Whether the last advance closed the window: the progress went past its end. */
    default boolean windowExited(String name) {
        Window w = windowNamed(name);
        return w != null && w.closed(previousProgress(), progress());
    }

    /** The current state's data if it is a {@code type}, else {@code null}. */
    default <T> T currentStateData(Class<T> type) {
        Object d = currentStateData();
        return type.isInstance(d) ? type.cast(d) : null;
    }

    /** The share of normal movement the current state keeps: its motion's throttle, or 1 without a motion profile. */
    default float currentMovementThrottle() {
        StateMotionProfile m = currentStateMotion();
        return m == null ? 1f : m.movementThrottle();
    }

    /** The current state's motion at the current progress ({@link StateMotionProfile#evaluate}), or 0 without a motion profile. */
    default float evaluateCurrentMotion() {
        StateMotionProfile m = currentStateMotion();
        return m == null ? 0f : m.evaluate(progress());
    }

    private Window windowNamed(String name) {
        Map<String, Window> windows = activeWindows();
        return windows == null ? null : windows.get(name);
    }
}

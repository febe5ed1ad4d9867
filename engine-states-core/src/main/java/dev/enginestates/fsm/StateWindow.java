package dev.enginestates.fsm;

import dev.enginestates.declare.Window;
import java.lang.annotation.Documented;
import java.lang.annotation.ElementType;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;

/**
 * Declares a window callback: {@code void name(Context ctx)}, run once when a state's window
 * opens (or, with {@code on = Edge.EXITED}, closes).
 *
 * <pre>{@code
 * @StateWindow(state = "Attack", window = "damage")
 * void strike(Fighter f) { f.dealDamage(); }
 * }</pre>
 *
 * <p>When it runs: in {@link StateMachine#runState runState}, just before the state's handler,
 * if the last advance crossed the edge ({@link Window#opened}, {@link Window#closed}; the same
 * test as {@code windowEntered}/{@code windowExited}). It is part of running the state, so the
 * state's delay holds it back as it holds back the handler, and a state needs a handler for its
 * time, and so its windows, to move.
 */
@Documented
@Retention(RetentionPolicy.RUNTIME)
@Target(ElementType.METHOD)
public @interface StateWindow {
    /**
     * The state whose window it is.
     *
     * @return the state's name, as its {@code @State} or {@code configureState} declares it
     */
    String state();

    /**
     * The window's name, as configured with {@code configureState(state).window(name, from, to)}.
     *
     * @return the window's name, such as {@code "damage"}
     */
    String window();

    /**
     * Which edge runs the callback.
     *
     * @return {@link Edge#ENTERED} (the default) to run it when the window opens,
     *         {@link Edge#EXITED} when it closes
     */
    Edge on() default Edge.ENTERED;

    /** A window's edges. */
    enum Edge {
        /** The progress crossed the window's start. */
        ENTERED,
        /** The progress went past the window's end. */
        EXITED
    }
}

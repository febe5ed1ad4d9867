package dev.enginestates.fsm;

import java.lang.annotation.Documented;
import java.lang.annotation.ElementType;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;

/**
 * Declares a state and its handler: {@code String name(Context ctx, float dt)}, returning the
 * next state's name or {@code null} to stay.
 *
 * <pre>{@code
 * @State(value = "Attack", initial = true, delay = 0.2f)
 * String attack(Fighter f, float dt) { return f.progress() >= 1f ? "Idle" : null; }
 * }</pre>
 */
@Documented
@Retention(RetentionPolicy.RUNTIME)
@Target(ElementType.METHOD)
public @interface State {
    /**
     * The state's name.
     *
     * @return the name other handlers return to move here, such as {@code "Attack"}; not blank
     */
    String value();

    /**
     * Whether the machine starts here; exactly one state of a machine is initial.
     *
     * @return {@code true} for the initial state; {@code false} by default
     */
    boolean initial() default false;

    /**
     * Seconds after entry during which the handler does not run (enter hooks still run at once).
     *
     * @return the delay in seconds, finite and 0 or more; 0 by default (no delay)
     */
    float delay() default 0f;

    /**
     * The states the handler may return, declared for the tools that read a machine without
     * running it: the test kit's generated paths and transition coverage, and diagrams. The
     * machine itself still moves wherever the handler says; a name here that no state has is
     * refused when the machine is built.
     *
     * @return the names of the states this one may move to, such as {@code {"Idle", "Recover"}}; none by default
     */
    String[] to() default {};
}

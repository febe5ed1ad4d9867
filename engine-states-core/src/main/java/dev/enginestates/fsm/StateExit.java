package dev.enginestates.fsm;

import java.lang.annotation.Documented;
import java.lang.annotation.ElementType;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;

/** Declares a state's exit hook: {@code void name(Context ctx)}, run first in every transition out of the state. */
@Documented
@Retention(RetentionPolicy.RUNTIME)
@Target(ElementType.METHOD)
public @interface StateExit {
    /**
     * The state's name.
     *
     * @return the name of the state whose hook this is, as its {@code @State} or
     *         {@code configureState} declares it
     */
    String value();
}

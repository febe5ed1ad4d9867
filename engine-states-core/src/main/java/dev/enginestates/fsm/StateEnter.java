package dev.enginestates.fsm;

import java.lang.annotation.Documented;
import java.lang.annotation.ElementType;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;

/** Declares a state's enter hook: {@code void name(Context ctx)}, run on every entry, at once even with a delay. */
@Documented
@Retention(RetentionPolicy.RUNTIME)
@Target(ElementType.METHOD)
public @interface StateEnter {
    /**
     * The state's name.
     *
     * @return the name of the state whose hook this is, as its {@code @State} or
     *         {@code configureState} declares it
     */
    String value();
}

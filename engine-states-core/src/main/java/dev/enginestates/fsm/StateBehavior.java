package dev.enginestates.fsm;

import java.lang.annotation.Documented;
import java.lang.annotation.ElementType;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;

/**
 * Marks a class whose methods are a builder-style machine's handlers, registered with
 * {@link StateMachineBuilder#registerHandlers(Class)}. Its value names the machine (dumps,
 * tags, errors) unless the builder was given an id.
 */
@Documented
@Retention(RetentionPolicy.RUNTIME)
@Target(ElementType.TYPE)
public @interface StateBehavior {
    /**
     * The behavior's name, such as {@code "door"}.
     *
     * @return the name the machine takes when its builder was given no id
     */
    String value();
}

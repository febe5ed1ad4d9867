package dev.enginestates.declare;

import java.util.Objects;

/**
 * A name for a piece of a machine's code: a guard, a {@code when} test, an action or a wait's
 * seconds. XState names its implementations (a config says {@code "guard": "isReady"} and the
 * code is supplied by that name); this is the same name on the Java side. The XState export
 * writes it, the XState import gives every implementation it binds the name the JSON used, and
 * diagrams label guards and {@code when} rules with it.
 *
 * <pre>{@code
 * .state("sliding", s -> s.when(Named.condition("isSlow", r -> r.speed < 2), "stalling"))
 * .state("fight", s -> s.on("WAVE_HELD", t -> t.target("breather").action(Named.action("countWave", (g, e) -> g.wave++))))
 * }</pre>
 *
 * <p>Wrap the code with one of the static methods, or implement this interface on a class of
 * the game's own (its {@link #implementation()} is then the object itself). Code without a name
 * gets one from the place it is declared when it is exported (see {@code XStateExport}). A
 * named wrapper only forwards each call: it costs one call and allocates nothing.
 */
public interface Named {
    /**
     * The name, as an XState config writes it.
     *
     * @return the name; a machine whose code answers one that is empty or only spaces is refused when compiled
     */
    String name();

    /**
     * The code that runs: the wrapped guard, action or seconds.
     *
     * @return the wrapped object; {@code this} for a class of the game's own that implements {@code Named}
     */
    default Object implementation() {
        return this;
    }

    /**
     * A named guard, {@code (ctx, event) -> ...}.
     *
     * @param <C>   the context type
     * @param name  the name; one empty or only spaces is refused when a machine using it is compiled
     * @param guard the guard
     * @return the guard under that name, for {@code TransitionBuilder.guard}
     * @throws NullPointerException if an argument is {@code null}
     */
    static <C> SelfGuard<C> guard(String name, Guard<C> guard) {
        return new NamedCode.NamedGuard<>(check(name), Objects.requireNonNull(guard, "guard"));
    }

    /**
     * A named guard that reads the machine's entity and world as well, {@code (ctx, event, self) -> ...}.
     *
     * @param <C>   the context type
     * @param name  the name; one empty or only spaces is refused when a machine using it is compiled
     * @param guard the guard
     * @return the guard under that name, for {@code TransitionBuilder.guard} or a {@code when} rule
     * @throws NullPointerException if an argument is {@code null}
     */
    static <C> SelfGuard<C> guard(String name, SelfGuard<C> guard) {
        return new NamedCode.NamedGuard<>(check(name), Objects.requireNonNull(guard, "guard"));
    }

    /**
     * A named {@code when} test that reads the context, {@code ctx -> ...}.
     *
     * @param <C>  the context type
     * @param name the name; one empty or only spaces is refused when a machine using it is compiled
     * @param test the test
     * @return the test under that name, for {@code when(test, target)}
     * @throws NullPointerException if an argument is {@code null}
     */
    static <C> SelfGuard<C> condition(String name, Condition<C> test) {
        return new NamedCode.NamedGuard<>(check(name), Objects.requireNonNull(test, "test"));
    }

    /**
     * A named {@code when} test that reads the context and the machine's holder, {@code (ctx, holder) -> ...}.
     *
     * @param <C>  the context type
     * @param name the name; one empty or only spaces is refused when a machine using it is compiled
     * @param test the test
     * @return the test under that name, for {@code when(test, target)}
     * @throws NullPointerException if an argument is {@code null}
     */
    static <C> SelfGuard<C> condition(String name, HolderCondition<C> test) {
        return new NamedCode.NamedGuard<>(check(name), Objects.requireNonNull(test, "test"));
    }

    /**
     * A named action, {@code (ctx, event) -> ...}.
     *
     * @param <C>    the context type
     * @param name   the name; one empty or only spaces is refused when a machine using it is compiled
     * @param action the action
     * @return the action under that name, for {@code entry}, {@code exit} or a transition's {@code action}
     * @throws NullPointerException if an argument is {@code null}
     */
    static <C> SelfAction<C> action(String name, Action<C> action) {
        return new NamedCode.NamedAction<>(check(name), Objects.requireNonNull(action, "action"));
    }

    /**
     * A named action that sees the machine's entity and world, {@code (ctx, event, self) -> ...}.
     *
     * @param <C>    the context type
     * @param name   the name; one empty or only spaces is refused when a machine using it is compiled
     * @param action the action
     * @return the action under that name, for {@code entry}, {@code exit} or a transition's {@code action}
     * @throws NullPointerException if an argument is {@code null}
     */
    static <C> SelfAction<C> action(String name, SelfAction<C> action) {
        return new NamedCode.NamedAction<>(check(name), Objects.requireNonNull(action, "action"));
    }

    /**
     * A wait's seconds computed from the context, named: {@code ctx -> ...} (XState's named delays).
     *
     * @param <C>     the context type
     * @param name    the name; one empty or only spaces is refused when a machine using it is compiled
     * @param seconds computes the seconds as the state is entered
     * @return the seconds under that name, for {@code waitFor}
     * @throws NullPointerException if an argument is {@code null}
     */
    static <C> SelfSeconds<C> seconds(String name, Seconds<C> seconds) {
        return new NamedCode.NamedSeconds<>(check(name), Objects.requireNonNull(seconds, "seconds"));
    }

    /**
     * A wait's seconds computed from the context, the entering event and the machine's entity and world, named.
     *
     * @param <C>     the context type
     * @param name    the name; one empty or only spaces is refused when a machine using it is compiled
     * @param seconds computes the seconds as the state is entered
     * @return the seconds under that name, for {@code waitFor}
     * @throws NullPointerException if an argument is {@code null}
     */
    static <C> SelfSeconds<C> seconds(String name, SelfSeconds<C> seconds) {
        return new NamedCode.NamedSeconds<>(check(name), Objects.requireNonNull(seconds, "seconds"));
    }

    /**
     * The name of a piece of code, if it has one.
     *
     * @param code a guard, test, action or seconds function; may be {@code null}
     * @return its name when it is {@code Named}, else {@code null}
     */
    static String nameOf(Object code) {
        return code instanceof Named ? ((Named) code).name() : null;
    }

    /**
     * The code under every name: unwraps named wrappers until it reaches code that is not one.
     *
     * @param code a guard, test, action or seconds function; may be {@code null}
     * @return the innermost implementation; {@code code} itself when it is not a wrapper
     */
    static Object unwrap(Object code) {
        Object at = code;
        while (at instanceof Named) {
            Object inner = ((Named) at).implementation();
            if (inner == at) {
                break;
            }
            at = inner;
        }
        return at;
    }

    /** Null only: an empty name is refused by the compiler, with the machine's other problems and the state it is on. */
    private static String check(String name) {
        return Objects.requireNonNull(name, "name");
    }
}

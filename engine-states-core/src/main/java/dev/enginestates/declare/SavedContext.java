package dev.enginestates.declare;

/**
 * A context that writes and reads its own state for checkpoints, dumps and streams, instead of
 * having its fields read by Jackson. For a context whose state is not in fields Jackson can see:
 * an SCXML datamodel, whose variables live in a script engine's scope, implements it.
 *
 * <p>The saved state is made of JSON values as Java values: {@code null}, {@code String},
 * {@code Boolean}, a finite {@code Double}, {@code Integer} or {@code Long}, {@code List} and
 * {@code Map} with {@code String} keys, nested. A checkpoint sorts an object's keys when it is
 * written; a JSON number comes back as a {@code Long} when it is written without a fraction or
 * exponent and fits one, else as a {@code Double}.
 */
public interface SavedContext {
    /**
     * This context's state, to be written.
     *
     * @return the state as JSON values
     * @throws IllegalStateException if some of the state is not a JSON value (a function, a host
     *                               object); the message names it and says what was expected
     */
    Object save();

    /**
     * Reads back what {@link #save} gave, into a fresh context made by the machine's factory.
     * Everything is checked before anything is set, so a refused state leaves this context as it was.
     *
     * @param saved the state, as JSON values read from a checkpoint
     * @throws IllegalArgumentException if it is not a state this context could have saved; the
     *                                  message names the field (such as {@code variables.count})
     *                                  and what was expected
     */
    void restore(Object saved);
}

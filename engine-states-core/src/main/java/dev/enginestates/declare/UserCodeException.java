package dev.enginestates.declare;

/**
 * A game's guard, action, wait-seconds function or {@code when} test threw. The cause is
 * the game's exception; the message names the machine, the state the code belongs to and the
 * event being processed.
 *
 * <p>What the record holds afterwards: a guard runs before anything changes, so the record
 * keeps the configuration it had before that transition was chosen (earlier transitions of
 * the same event, such as an eventless chain, stay taken). An action runs once its
 * transition's new configuration is written, so the record holds the configuration after
 * that transition; the actions after the one that threw, and the rest of the event's
 * processing (eventless transitions, done events), do not run. Either way the record is a
 * valid configuration of the machine and the machine can take further events.
 */
public final class UserCodeException extends MachineException {
    private static final long serialVersionUID = 1L;
    /** The path of the state whose code threw ({@code ""} for the machine's root). */
    private final String statePath;
    /** The type of the event being processed, or the call that ran the code. */
    private final String eventType;
    /** The code that threw, as the message names it ({@code "a when test"}). */
    private final String what;
    /** The entity the machine is on, or {@code null}. */
    private final String entity;

    /**
     * Wraps a game's exception thrown by code attached to {@code statePath}.
     *
     * @param machineId the machine's id
     * @param statePath the path of the state the code belongs to, such as {@code "patrol.watch"}; {@code ""}
     *                  for the root
     * @param eventType the type of the event being processed, or the call that ran the code when there is no
     *                  event (such as {@code "step"}, {@code "advance"} or {@code "(entry)"})
     * @param what the code that threw, as the message names it: {@code "a when test"}, {@code "the exit"}
     * @param cause the game's exception
     */
    public UserCodeException(String machineId, String statePath, String eventType, String what, Throwable cause) {
        this(machineId, statePath, eventType, what, null, cause);
    }

    private UserCodeException(String machineId, String statePath, String eventType, String what, String entity, Throwable cause) {
        super(machineId, "machine '" + machineId + "'" + (entity == null ? "" : " on " + entity) + ": " + what + " of "
                + (statePath.isEmpty() ? "the machine's root" : "state '" + statePath + "'") + " threw "
                + described(cause) + " while processing event '" + eventType + "'", cause);
        this.statePath = statePath;
        this.eventType = eventType;
        this.what = what;
        this.entity = entity;
    }

    /**
     * The cause as the message shows it: another machine's failure (its code threw while this
     * machine's code sent to it) is shown by its innermost cause and the number of machines it came
     * through, so a chain of sends gives one line, not every level's message inside the next.
     */
    private static String described(Throwable cause) {
        int through = 0;
        Throwable root = cause;
        while (root instanceof UserCodeException && root.getCause() != null && through < 1000) {
            root = root.getCause();
            through++;
        }
        return through == 0 ? String.valueOf(cause)
                : root + " (from the code of machine '" + ((UserCodeException) cause).machineId() + "'"
                        + (through > 1 ? " and " + (through - 1) + " more it sent to" : "") + ")";
    }

    /**
     * The same failure, naming the entity the machine is on (its key, or a description).
     *
     * @param entity the entity's key, or a description of it
     * @return a copy naming the entity, with this one's stack trace; this exception itself when it already
     *         names one
     */
    public UserCodeException on(String entity) {
        if (this.entity != null) {
            return this;
        }
        UserCodeException named = new UserCodeException(machineId(), statePath, eventType, what, entity, getCause());
        named.setStackTrace(getStackTrace());
        for (Throwable s : getSuppressed()) {
            named.addSuppressed(s); // a listener's failure after this one must not be lost by naming the entity
        }
        return named;
    }

    /**
     * The entity the machine is on, when the failure reached the game through a world; else {@code null}.
     *
     * @return the entity's key or description, or {@code null}
     */
    public String entity() {
        return entity;
    }

    /**
     * The path of the state whose code threw ("" for the machine's root).
     *
     * @return the path, such as {@code "patrol.watch"}; {@code ""} for the root
     */
    public String statePath() {
        return statePath;
    }

    /**
     * The type of the event being processed.
     *
     * @return the event's type; for code that runs outside an event, the call that ran it (such as
     *         {@code "step"}, {@code "advance"} or {@code "(entry)"})
     */
    public String eventType() {
        return eventType;
    }
}

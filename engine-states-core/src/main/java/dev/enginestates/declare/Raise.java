package dev.enginestates.declare;

import java.util.Objects;

/**
 * The action {@link Action#raise(String)} makes: raises an event of its type on the machine's
 * internal queue. The event object is made once, so running it allocates nothing.
 *
 * @param <C>   the context type
 * @param event the event it raises
 */
public record Raise<C>(Event event) implements SelfAction<C>, Named {
    /**
     * An action raising events of that type.
     *
     * @param type the event type; not empty
     * @throws IllegalArgumentException if it is empty
     */
    public Raise(String type) {
        this(Event.of(Objects.requireNonNull(type, "type")));
    }

    /**
     * Checks the event.
     *
     * @param event the event; not {@code null}
     */
    public Raise {
        Objects.requireNonNull(event, "event");
    }

    @Override
    public void run(C context, Event e, Self self) {
        self.raise(event);
    }

    /** The XState name of the action: {@code "xstate.raise"}. */
    @Override
    public String name() {
        return "xstate.raise";
    }
}

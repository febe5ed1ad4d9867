package dev.enginestates.devtools;

import dev.enginestates.declare.MachineException;
import dev.enginestates.ecs.StateRecord;
import dev.enginestates.ecs.States;

import java.util.List;

/**
 * An event sent from the page to an entity's machine, applied at the next
 * {@link Devtools#publish()} as the game's own {@link States#send(dev.dominion.ecs.api.Entity, String)}
 * sends it: the machine moves at once, its actions run, and the timeline hears it.
 */
final class SentEvent extends PageWrite {
    final String event;

    SentEvent(String entity, String machine, String event) {
        super(entity, machine);
        this.event = event;
    }

    @Override
    String undone() {
        return "'" + event + "' was not sent to '" + machine + "' on '" + entity + "'";
    }

    @Override
    String ability() {
        return "send events";
    }

    /**
     * Sends the event on the world's thread, or refuses it with a sentence that names the entity,
     * the machine, the event and what was expected; a refused event changes nothing.
     */
    @Override
    Outcome applyTo(StateRecord<?> r) {
        States<?> m = r.states();
        List<String> events = m.machine().events();
        if (!events.contains(event)) {
            return Outcome.refused(422, "machine '" + machine + "' on '" + entity + "' takes no event '" + event + "'; expected one of "
                    + events + ". Nothing was changed.");
        }
        try {
            return Outcome.sent(r, m.send(r.entity(), event));
        } catch (MachineException ex) {
            return Outcome.refused(422, ex.getMessage() + " (entity '" + entity + "'). Nothing was changed.");
        }
    }
}

package dev.enginestates.devtools;

import dev.enginestates.chart.Chart;
import dev.enginestates.declare.MachineException;
import dev.enginestates.ecs.StateRecord;
import dev.enginestates.records.Access;

import java.util.HashSet;
import java.util.List;
import java.util.Set;

/**
 * A state set by hand from the page, applied at the next {@link Devtools#publish()} as
 * {@link StateRecord#setState(String...)} sets it.
 */
final class HandSet extends PageWrite {
    final List<String> states;

    HandSet(String entity, String machine, List<String> states) {
        super(entity, machine);
        this.states = List.copyOf(states);
    }

    @Override
    String undone() {
        return "'" + machine + "' on '" + entity + "' was not set";
    }

    @Override
    String ability() {
        return "set states by hand";
    }

    /**
     * Applies the request on the world's thread, or refuses it with a sentence that names the
     * entity, the machine, the state and what was expected; a refused request changes nothing.
     * The state moves as {@link StateRecord#setState(String...)} moves it: at once, with no
     * actions run, and its tags at the start of the next step.
     */
    @Override
    Outcome applyTo(StateRecord<?> r) {
        Chart c = Access.record(r).chart();
        if (states.isEmpty()) {
            return Outcome.refused(400, "machine '" + machine + "' on '" + entity + "': name at least one state to set, such as '"
                    + c.path[c.size > 1 ? 1 : 0] + "'. Nothing was changed.");
        }
        // each path once: setState compares every pair of paths, so a request of thousands of copies of
        // one path (a 64 kB body holds 10,000) would stall the game's thread for most of a second
        Set<String> named = new HashSet<>();
        for (String p : states) {
            if (!named.add(p)) {
                return Outcome.refused(422, "machine '" + machine + "' on '" + entity + "': '" + p + "' is named twice; name one state"
                        + " per region of a parallel state. Nothing was changed.");
            }
        }
        for (String p : states) {
            String prefix = machine + ".";
            if (p != null && c.stateAt(p) < 0 && p.startsWith(prefix) && c.stateAt(p.substring(prefix.length())) > 0) {
                // a tool that names a tag rather than the state is refused
                String state = p.substring(prefix.length());
                return Outcome.refused(422, "machine '" + machine + "' on '" + entity + "': '" + p + "' names the tag of state '"
                        + state + "' (a tag is named <machine id>.<state path>), not a state; a tool that names a tag rather than"
                        + " the state is refused. Set the state: '" + state + "'. Nothing was changed.");
            }
        }
        try {
            r.setState(states.toArray(new String[0]));
        } catch (MachineException ex) {
            return Outcome.refused(422, ex.getMessage() + " (entity '" + entity + "'). Nothing was changed.");
        }
        return Outcome.set(r);
    }
}

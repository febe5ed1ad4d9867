package dev.enginestates.devtools;

import dev.dominion.ecs.api.Entity;
import dev.enginestates.chart.Chart;
import dev.enginestates.declare.MachineException;
import dev.enginestates.ecs.StateRecord;
import dev.enginestates.ecs.StateWorld;
import dev.enginestates.ecs.States;
import dev.enginestates.records.Access;

import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.atomic.AtomicBoolean;

/**
 * A state set by hand from the page: asked for on a server thread, applied (or refused) on the
 * world's thread at the next {@link Devtools#publish()}. Whichever side claims it first decides:
 * the world's thread applies it, or the server gives up on it after waiting too long, and then
 * it is never applied.
 */
final class HandSet {
    final String entity;
    final String machine;
    final List<String> states;
    private final AtomicBoolean claimed = new AtomicBoolean();
    final CompletableFuture<Outcome> outcome = new CompletableFuture<>();

    HandSet(String entity, String machine, List<String> states) {
        this.entity = entity;
        this.machine = machine;
        this.states = List.copyOf(states);
    }

    /** Takes the request for one side; false if the other side has it. */
    boolean claim() {
        return claimed.compareAndSet(false, true);
    }

    /** What came of a request: an HTTP status, and the record as set or the reason it was refused. */
    static final class Outcome {
        final int status;
        final String error;
        /** The record as set, for the world's thread to describe; {@code null} once described or when refused. */
        final StateRecord<?> record;
        /** The page's answer, JSON text written on the world's thread; {@code null} until then or when refused. */
        final String body;

        private Outcome(int status, String error, StateRecord<?> record, String body) {
            this.status = status;
            this.error = error;
            this.record = record;
            this.body = body;
        }

        static Outcome set(StateRecord<?> r) {
            return new Outcome(200, null, r, null);
        }

        static Outcome refused(int status, String error) {
            return new Outcome(status, error, null, null);
        }

        /** The answer the server sends, written on the world's thread (the record is not the server's to read). */
        Outcome answered(String body) {
            return new Outcome(status, null, null, body);
        }

        boolean ok() {
            return error == null;
        }
    }

    /**
     * Applies the request on the world's thread, or refuses it with a sentence that names the
     * entity, the machine, the state and what was expected; a refused request changes nothing.
     * The state moves as {@link StateRecord#setState(String...)} moves it: at once, with no
     * actions run, and its tags at the start of the next step.
     */
    Outcome apply(StateWorld world, EntityNames names, boolean writable) {
        if (!writable) {
            return Outcome.refused(403, "this devtools page is read-only, so '" + machine + "' on '" + entity
                    + "' was not set; serve it with DevtoolsOptions.onPort(port).writable(true) to set states by hand");
        }
        Entity e = names.find(world, entity);
        if (e == null) {
            return Outcome.refused(404, "no live entity of " + world + " is named '" + entity + "', so '" + machine
                    + "' was not set; expected a name the page lists (an entity's key, or a name such as 'guard#3')");
        }
        States<?> m = null;
        List<String> ids = new ArrayList<>();
        List<String> held = new ArrayList<>();
        for (States<?> s : world.machines()) {
            ids.add(s.id());
            StateRecord<?> r = e.get(s.recordType());
            if (r != null && r.world() == world) {
                held.add(s.id());
            }
            if (s.id().equals(machine)) {
                m = s;
            }
        }
        if (m == null) {
            return Outcome.refused(404, "no machine of " + world + " has id '" + machine + "'; expected one of " + ids
                    + ". Nothing was changed.");
        }
        StateRecord<?> r = e.get(m.recordType());
        if (r == null || r.world() != world) {
            return Outcome.refused(404, "entity '" + entity + "' holds no '" + machine + "' machine; it holds "
                    + (held.isEmpty() ? "none" : held) + ". Nothing was changed.");
        }
        Chart c = Access.chart(m.machine());
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

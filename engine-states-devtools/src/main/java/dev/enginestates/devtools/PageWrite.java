package dev.enginestates.devtools;

import dev.dominion.ecs.api.Entity;
import dev.enginestates.ecs.StateRecord;
import dev.enginestates.ecs.StateWorld;
import dev.enginestates.ecs.States;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.atomic.AtomicBoolean;

/**
 * A change the page asks for (a state set by hand, an event sent): asked for on a server thread,
 * applied (or refused) on the world's thread at the next {@link Devtools#publish()}. Whichever
 * side claims it first decides: the world's thread applies it, or the server gives up on it
 * after waiting too long, and then it is never applied.
 */
abstract class PageWrite {
    final String entity;
    final String machine;
    private final AtomicBoolean claimed = new AtomicBoolean();
    final CompletableFuture<Outcome> outcome = new CompletableFuture<>();

    PageWrite(String entity, String machine) {
        this.entity = entity;
        this.machine = machine;
    }

    /** Takes the request for one side; false if the other side has it. */
    boolean claim() {
        return claimed.compareAndSet(false, true);
    }

    /** What was not done when it is refused, such as {@code "'guard' on 'guard-1' was not set"}. */
    abstract String undone();

    /** What a writable page lets the game's developer do, such as {@code "set states by hand"}. */
    abstract String ability();

    /** Applies the request on the world's thread, or refuses it, changing nothing. */
    final Outcome apply(StateWorld world, EntityNames names, boolean writable) {
        if (!writable) {
            return readOnly();
        }
        Outcome[] refusal = new Outcome[1];
        StateRecord<?> r = target(world, names, refusal);
        return r == null ? refusal[0] : applyTo(r);
    }

    /** Applies the request to the record it names (found, on a writable page), or refuses it, changing nothing. */
    abstract Outcome applyTo(StateRecord<?> r);

    /** The refusal of a read-only page. */
    Outcome readOnly() {
        return Outcome.refused(403, "this devtools page is read-only, so " + undone() + "; serve it with"
                + " DevtoolsOptions.onPort(port).writable(true) to " + ability());
    }

    /** The record the request names, or {@code null} after answering {@code refusal[0]} with what was expected. */
    StateRecord<?> target(StateWorld world, EntityNames names, Outcome[] refusal) {
        Entity e = names.find(world, entity);
        if (e == null) {
            refusal[0] = Outcome.refused(404, "no live entity of " + world + " is named '" + entity + "', so " + undone()
                    + "; expected a name the page lists (an entity's key, or a name such as 'guard#3')");
            return null;
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
            refusal[0] = Outcome.refused(404, "no machine of " + world + " has id '" + machine + "'; expected one of " + ids
                    + ". Nothing was changed.");
            return null;
        }
        StateRecord<?> r = e.get(m.recordType());
        if (r == null || r.world() != world) {
            refusal[0] = Outcome.refused(404, "entity '" + entity + "' holds no '" + machine + "' machine; it holds "
                    + (held.isEmpty() ? "none" : held) + ". Nothing was changed.");
            return null;
        }
        return r;
    }

    /** What came of a request: an HTTP status, and the record as changed or the reason it was refused. */
    static final class Outcome {
        final int status;
        final String error;
        /** The record as changed, for the world's thread to describe; {@code null} once described or when refused. */
        final StateRecord<?> record;
        /** For a sent event: whether a state took it; {@code null} for a state set by hand. */
        final Boolean taken;
        /** The page's answer, JSON text written on the world's thread; {@code null} until then or when refused. */
        final String body;

        private Outcome(int status, String error, StateRecord<?> record, Boolean taken, String body) {
            this.status = status;
            this.error = error;
            this.record = record;
            this.taken = taken;
            this.body = body;
        }

        static Outcome set(StateRecord<?> r) {
            return new Outcome(200, null, r, null, null);
        }

        static Outcome sent(StateRecord<?> r, boolean taken) {
            return new Outcome(200, null, r, taken, null);
        }

        static Outcome refused(int status, String error) {
            return new Outcome(status, error, null, null, null);
        }

        /** The answer the server sends, written on the world's thread (the record is not the server's to read). */
        Outcome answered(String body) {
            return new Outcome(status, null, null, taken, body);
        }

        boolean ok() {
            return error == null;
        }
    }
}

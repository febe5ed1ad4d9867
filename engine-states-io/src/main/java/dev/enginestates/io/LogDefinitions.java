package dev.enginestates.io;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.enginestates.ecs.States;

import java.util.HashMap;
import java.util.Map;
import java.util.Set;

/**
 * Which definition of each machine id an input log's records and inputs are read as, followed
 * through the log: the version its start checkpoint names when the saves hold it (else the
 * newest, which the restore migrates the records to), then the one a spawn, an attach or a swap
 * names. A log written before versions names none, and every id is read as the saves' newest, as
 * before. The check and the replay each follow one, so the check sees what the replay will.
 */
final class LogDefinitions {
    /** The field of a spawn naming its records' definitions, by machine id. */
    static final String SPAWNED = "definitions";
    /** The field of an attach naming its record's definition. */
    static final String ATTACHED = "definition";

    private final Saves saves;
    private final Map<String, States<?>> current = new HashMap<>();

    LogDefinitions(Saves saves, JsonNode start) {
        this.saves = saves;
        for (Map.Entry<String, JsonNode> e : start.path(SavesJson.MACHINES).properties()) {
            JsonNode version = e.getValue().path("version");
            States<?> m = version.isInt() ? saves.machine(e.getKey(), version.asInt()) : null;
            if (m != null) {
                current.put(e.getKey(), m); // a version not held, or a malformed one: the restore says so, or migrates
            }
        }
    }

    /** The definition machine {@code id}'s inputs are read as at this point of the log, or {@code null} when the saves hold none. */
    States<?> of(String id) {
        States<?> m = current.get(id);
        return m != null ? m : saves.machine(id);
    }

    /** From this point of the log on, machine {@code m.id()}'s inputs are read as {@code m}. */
    void use(States<?> m) {
        current.put(m.id(), m);
    }

    /** A definition as a log names it: its version and fingerprint. */
    static ObjectNode identity(States<?> m) {
        return SavesJson.identity(m);
    }

    /** Whether {@code node} is a definition's name, {@code {version, fingerprint}}. */
    static boolean wellFormed(JsonNode node) {
        return SavesJson.isIdentity(node);
    }

    /** A well-formed name as messages say it: {@code version 2 (fingerprint 0123456789abcdef)}. */
    static String text(JsonNode identity) {
        return SavesJson.identityText(identity);
    }

    /** The definition of {@code id} a well-formed name names, or {@code null} when the saves do not hold it with that fingerprint. */
    States<?> held(String id, JsonNode identity) {
        States<?> m = saves.machine(id, identity.path("version").asInt());
        return m != null && m.machine().fingerprint().equals(identity.path("fingerprint").asText()) ? m : null;
    }

    /** Why the saves do not hold the definition of {@code id} a well-formed name names, or {@code null} when they do. */
    String missing(String id, JsonNode identity) {
        int version = identity.path("version").asInt();
        States<?> m = saves.machine(id, version);
        if (m == null) {
            Set<Integer> held = saves.versions(id);
            return held.isEmpty() ? "these saves hold no machine '" + id + "'"
                    : "these saves hold no version " + version + " of it, only " + (held.size() == 1 ? "version " : "versions ")
                    + String.join(", ", held.stream().map(String::valueOf).toList());
        }
        String fingerprint = m.machine().fingerprint();
        if (!fingerprint.equals(identity.path("fingerprint").asText())) {
            return "the version " + version + " these saves hold has fingerprint " + fingerprint + ": its states changed since the log"
                    + " was written without a new version";
        }
        return null;
    }

    /**
     * Reads a name a spawn or an attach gives its record's definition and makes it current;
     * {@code false} with a problem when it is malformed or the saves do not hold it.
     */
    boolean named(String id, JsonNode identity, String at, java.util.List<String> problems) {
        if (!wellFormed(identity)) {
            problems.add(at + ": expected {\"version\": a whole number 0 or more, \"fingerprint\": a string}, found " + Json.kind(identity));
            return false;
        }
        String why = missing(id, identity);
        if (why != null) {
            problems.add(at + ": the log's records of machine '" + id + "' here are " + text(identity) + ", but " + why
                    + "; expected saves holding that definition (Saves.of takes several versions of one machine)");
            return false;
        }
        use(held(id, identity));
        return true;
    }
}

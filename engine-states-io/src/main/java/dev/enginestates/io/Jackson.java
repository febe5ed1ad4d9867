package dev.enginestates.io;

/**
 * Jackson (jackson-databind) is an optional dependency of engine-states: saves, dumps, input
 * logs and the XState import need it, worlds and machines do not. The classes that need it
 * check for it first, so a game without it gets a sentence saying what to add rather than a
 * {@link NoClassDefFoundError}. For that check to run, a class that calls it must not need
 * Jackson to be linked: it catches Jackson's exceptions as {@link java.io.IOException}.
 */
final class Jackson {
    private static final String MAPPER = "com.fasterxml.jackson.databind.ObjectMapper";

    private Jackson() {
    }

    /** Throws if Jackson cannot be loaded; {@code what} names the feature that needs it. */
    static void require(String what) {
        try {
            Class.forName(MAPPER, false, Jackson.class.getClassLoader());
        } catch (ClassNotFoundException | LinkageError e) {
            throw new IllegalStateException(what + " needs Jackson, an optional dependency of engine-states: add"
                    + " com.fasterxml.jackson.core:jackson-databind (2.x) to the game's dependencies to save, dump,"
                    + " record or replay worlds, or to import XState JSON; on the module path, the game's module"
                    + " also requires com.fasterxml.jackson.databind (" + MAPPER + " was not found)");
        }
    }
}

package dev.enginestates.io;

/**
 * Jackson (jackson-databind) is a dependency of engine-states-io, which brings it: saves, dumps,
 * input logs and streams need it. A build that excludes it still gets a sentence saying what to
 * add rather than a {@link NoClassDefFoundError}: the classes that need it check for it first. For that check to run, a class that calls it must not need
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
            throw new IllegalStateException(what + " needs Jackson, which engine-states-io depends on, but " + MAPPER
                    + " was not found: the build excludes com.fasterxml.jackson.core:jackson-databind (2.x); keep it to save,"
                    + " dump, record or replay worlds");
        }
    }
}

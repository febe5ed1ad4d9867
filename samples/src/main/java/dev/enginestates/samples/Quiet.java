package dev.enginestates.samples;

/** Turns Dominion's banner and INFO settings print off for a sample's run, unless the command line set them. */
final class Quiet {
    private Quiet() {
    }

    /** Call first in a sample's {@code main}, before any world is made. */
    static void dominion() {
        System.setProperty("dominion.show-banner", System.getProperty("dominion.show-banner", "false"));
        System.setProperty("dominion.logging-level", System.getProperty("dominion.logging-level", "WARNING"));
    }
}

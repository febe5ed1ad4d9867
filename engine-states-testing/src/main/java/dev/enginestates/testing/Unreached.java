package dev.enginestates.testing;

/**
 * A state or transition the path generator found no path to, and why.
 *
 * @param what   the state's dotted path, or the transition as {@code "patrol –BELL→ answer"}
 * @param reason why no path reaches it, and what the game could give the generator to reach it
 */
public record Unreached(String what, String reason) {
    @Override
    public String toString() {
        return what + ": " + reason;
    }
}

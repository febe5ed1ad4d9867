package dev.enginestates;

/**
 * What the property tests counted (worlds, inputs, seconds), printed only when asked with
 * {@code -Dengine-states.figures=true}: a build prints nothing of its own.
 */
public final class Figures {
    /** Whether the figures are printed. */
    public static final boolean SHOWN = Boolean.getBoolean("engine-states.figures");

    private Figures() {
    }

    /** Prints a line of figures, formatted as {@link String#format} does, when asked. */
    public static void printf(String format, Object... args) {
        if (SHOWN) {
            System.out.print(String.format(format, args));
        }
    }

    /** Prints a line of figures when asked. */
    public static void println(String line) {
        if (SHOWN) {
            System.out.println(line);
        }
    }
}

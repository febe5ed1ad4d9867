package dev.enginestates.scxml;

/**
 * An expression, location or script that a {@link Datamodel} could not evaluate. The importer's
 * executable content turns it into SCXML's {@code error.execution} event (raised on the
 * machine's internal queue) and stops the block it happened in; a condition that throws it is
 * false.
 */
public final class DatamodelException extends RuntimeException {
    private static final long serialVersionUID = 1L;

    /**
     * Makes the error.
     *
     * @param message what failed: the expression and why
     * @param cause   the evaluator's own error, or {@code null}
     */
    public DatamodelException(String message, Throwable cause) {
        super(message, cause);
    }
}

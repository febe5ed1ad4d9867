package dev.enginestates.scxml;

/**
 * An expression, location or script that a {@link Datamodel} could not evaluate. The importer's
 * executable content turns it into SCXML's {@code error.execution} event (raised on the
 * machine's internal queue) and stops the block it happened in; a condition that throws it is
 * false.
 */
public final class DatamodelException extends RuntimeException {
    private static final long serialVersionUID = 1L;
    /** The element that failed, set by the importer (the innermost first). */
    private String tagname;
    /** The failing element's line. */
    private int line;
    /** The failing element's column. */
    private int column;
    /** The sendid of the {@code <send>} that failed, so that the error event carries it (SCXML 5.10.1). */
    private String sendid;

    /**
     * Makes the error.
     *
     * @param message what failed: the expression and why
     * @param cause   the evaluator's own error, or {@code null}
     */
    public DatamodelException(String message, Throwable cause) {
        super(message, cause);
    }

    /** Notes the failing element, unless an inner one was noted first. */
    DatamodelException at(String tag, int atLine, int atColumn) {
        if (tagname == null) {
            tagname = tag;
            line = atLine;
            column = atColumn;
        }
        return this;
    }

    /** Notes the sendid of the failing {@code <send>}. */
    DatamodelException sendid(String id) {
        this.sendid = id;
        return this;
    }

    /** The failing {@code <send>}'s sendid, or null. */
    String sendid() {
        return sendid;
    }

    /**
     * The element whose evaluation failed, such as {@code "assign"}, once the importer knows it.
     *
     * @return the element's name, or {@code null}
     */
    public String tagname() {
        return tagname;
    }

    /**
     * The failing element's line in the document.
     *
     * @return the line, or 0 when not known
     */
    public int line() {
        return line;
    }

    /**
     * The failing element's column in the document (where its start tag ends, as the XML parser reports it).
     *
     * @return the column, or 0 when not known
     */
    public int column() {
        return column;
    }
}

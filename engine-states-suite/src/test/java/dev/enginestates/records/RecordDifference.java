package dev.enginestates.records;

/**
 * The first difference between two records of one machine that a game could see: status, the
 * active states in order, entry times, paused waits, histories, the counting wait and the hold.
 * Shared by the property tests that run one machine two ways (checkpoint and go on, replay,
 * stream, the interpreter's fast path) and expect the same record.
 */
public final class RecordDifference {
    private RecordDifference() {
    }

    /** The first difference, or {@code null} when the records agree. */
    public static String of(MachineRecord x, MachineRecord y) {
        if (x.status() != y.status()) {
            return "status " + x.status() + " / " + y.status();
        }
        if (x.activeCount() != y.activeCount()) {
            return "active count " + x.activeCount() + " / " + y.activeCount();
        }
        for (int i = 0; i < x.activeCount(); i++) {
            if (x.activeAt(i) != y.activeAt(i)) {
                return "active[" + i + "] " + x.activeAt(i) + " / " + y.activeAt(i);
            }
        }
        int size = x.chart().size;
        for (int s = 0; s < size; s++) {
            if (Double.doubleToRawLongBits(x.paused(s)) != Double.doubleToRawLongBits(y.paused(s))) {
                return "paused " + x.chart().path[s] + " " + x.paused(s) + " / " + y.paused(s);
            }
            if (Double.doubleToRawLongBits(x.enteredAt(s)) != Double.doubleToRawLongBits(y.enteredAt(s))) {
                return "entered " + x.chart().path[s] + " " + x.enteredAt(s) + " / " + y.enteredAt(s); // timeIn counts from it
            }
            if (x.historySize(s) != y.historySize(s)) {
                return "history size " + x.chart().path[s];
            }
            for (int i = 0; i < Math.max(0, x.historySize(s)); i++) {
                if (x.historyAt(s, i) != y.historyAt(s, i)) {
                    return "history " + x.chart().path[s] + "[" + i + "]";
                }
            }
        }
        if (x.waitState() != y.waitState()) {
            return "wait state " + x.waitState() + " / " + y.waitState();
        }
        if (x.waitState() >= 0 && (Double.doubleToRawLongBits(x.waitStart()) != Double.doubleToRawLongBits(y.waitStart())
                || Double.doubleToRawLongBits(x.waitSeconds()) != Double.doubleToRawLongBits(y.waitSeconds()))) {
            return "wait " + x.waitStart() + "+" + x.waitSeconds() + " / " + y.waitStart() + "+" + y.waitSeconds();
        }
        if (Double.doubleToRawLongBits(x.heldSince()) != Double.doubleToRawLongBits(y.heldSince())) {
            return "held since " + x.heldSince() + " / " + y.heldSince();
        }
        return null;
    }
}

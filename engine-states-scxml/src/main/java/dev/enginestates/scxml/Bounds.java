package dev.enginestates.scxml;

import dev.enginestates.declare.Self;
import dev.enginestates.records.MachineRecord;

/**
 * What one imported machine may spend, shared by every session of its tree: how deep its invoked
 * sessions nest, how many run at once, and the work of each call into the library (a send, a step,
 * the start). The work is counted in instructions: what the ECMAScript datamodel's evaluations run,
 * plus {@link #OPERATION} for each piece of the document's own work (a condition or action the
 * engine runs, an element of executable content, a {@code <foreach>} turn), {@link #VALUE} for each
 * value copied between Java and the datamodel, and one for each character of a document compiled while
 * the machine runs. The count starts afresh when a new call reaches the machine, which the top
 * record's call number tells without any allocation.
 */
final class Bounds {
    /**
     * What one piece of the document's own work costs, in instructions: about what the datamodel
     * spends to run it, and at least what an evaluation may run unseen between two reports of the
     * instruction count ({@link RhinoScope#OBSERVE_EVERY}).
     */
    static final long OPERATION = 1_000;
    /**
     * What copying one value between Java and the datamodel costs (an event's data, a value read out, a
     * {@code <foreach>} array's item): an item of a large (sparse) array took as long as 5 to 60 interpreted
     * instructions.
     */
    static final long VALUE = 50;

    final int maxDepth;
    final int maxSessions;
    final long perCall;
    /** The tree's top session: its record tells which call is under way. */
    private final Session top;
    /** Sessions of the tree that run now, the top's own included. */
    int sessions = 1;
    /** The live sessions a restore has read so far, its top's own included: bounded as {@link #sessions} is. */
    int restoring;

    private Self seen;
    private MachineRecord record;
    private long call = -1;
    private long spent;

    Bounds(Session top, int maxDepth, int maxSessions, long perCall) {
        this.top = top;
        this.maxDepth = maxDepth;
        this.maxSessions = maxSessions;
        this.perCall = perCall;
    }

    /** The number of the call under way on the top machine, or -1 outside one (Java code reading the datamodel). */
    private long currentCall() {
        Self self = top.self;
        if (self == null) {
            return -1;
        }
        if (self != seen) {
            seen = self;
            record = self instanceof MachineRecord r ? r : self.machine() instanceof MachineRecord r ? r : null;
        }
        return record == null ? -1 : record.call();
    }

    /** The instructions spent in the call under way; a new call starts from 0. */
    private long spentNow() {
        long c = currentCall();
        if (c < 0) {
            return -1;
        }
        if (c != call) {
            call = c;
            spent = 0;
        }
        return spent;
    }

    /**
     * Spends work in the call under way.
     *
     * @throws CallBudgetException once the call has spent its budget (and again for every later spend in it)
     */
    void spend(long instructions) {
        if (!tryToSpend(instructions)) {
            throw exhausted();
        }
    }

    /** Spends work in the call under way; false once the call has spent its budget. Work outside a call is free. */
    boolean tryToSpend(long instructions) {
        long now = spentNow();
        if (now < 0) {
            return true;
        }
        spent = Math.min(now + instructions, Long.MAX_VALUE / 2); // a huge cost stays over the budget, never wraps round
        return spent <= perCall;
    }

    /** Whether the call under way has spent its budget: then what is left of it (a cancelled session's onexit) is skipped. */
    boolean spentOut() {
        return spentNow() > perCall;
    }

    CallBudgetException exhausted() {
        String name = top.doc.name;
        return new CallBudgetException(name, "machine '" + name + "' spent its budget of " + perCall + " instructions for one call"
                + " (a send, a step or its start) across its " + sessions + " session" + (sessions == 1 ? "" : "s")
                + ": its script instructions, " + OPERATION + " for each condition, action, element of executable content and"
                + " <foreach> turn, " + VALUE + " for each value copied and one for each character of a document compiled."
                + " The rest of this call's processing is skipped and the machine keeps a valid configuration; expected a"
                + " document that does less per event (or a larger budget: ScxmlImport.callBudget)");
    }
}

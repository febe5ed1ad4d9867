package dev.enginestates.algorithm;

import dev.enginestates.chart.Chart;
import dev.enginestates.records.MachineRecord;

/**
 * One of a style's own fields of a machine record, as checkpoints, dumps, logs and streams write
 * it: its name, its kind and how it is read from and written into a record. It knows no JSON: the
 * I/O layer writes and reads each kind the one way it has, so a style adds fields without
 * touching it. A write checks what only the style knows (a clock's range, a state it can be in)
 * and returns what is wrong, the record left as it was, or {@code null}; the caller has already
 * checked the value's JSON type and that a number is finite.
 */
public abstract sealed class RecordField permits RecordField.Number, RecordField.StatePath, RecordField.Times, RecordField.StateList {
    /** The field's name in a record's JSON. */
    public final String name;
    /** What the field holds, for a message saying what was expected: {@code "the leaf active before the last transition"}. */
    public final String meaning;
    private final boolean optional;
    private final boolean afterShape;

    RecordField(String name, String meaning, boolean optional, boolean afterShape) {
        this.name = name;
        this.meaning = meaning;
        this.optional = optional;
        this.afterShape = afterShape;
    }

    /** Whether a record may lack the field (one written before the field was): it then keeps what a new record has. */
    public final boolean optional() {
        return optional;
    }

    /**
     * Whether the field is read only once the rest of the record is sound, its configuration
     * included: its values belong to the active states, so a broken configuration would only
     * add problems of its own.
     */
    public final boolean afterShape() {
        return afterShape;
    }

    /** Whether the field reads the same in both records (of one chart, with the same active states in the same order). */
    public abstract boolean same(MachineRecord a, MachineRecord b);

    static boolean same(double a, double b) {
        return Double.doubleToLongBits(a) == Double.doubleToLongBits(b);
    }

    /** Why {@code v} is not a number of seconds a record can hold, or {@code null}. */
    public static String secondsProblem(double v) {
        if (v < 0) {
            return "expected seconds, 0 or more, found " + v;
        }
        if (v > TimeRules.MAX_SECONDS) {
            return v + " seconds; expected at most " + TimeRules.MAX_SECONDS + " (31,700 years)";
        }
        return null;
    }

    /** A number. */
    public abstract static non-sealed class Number extends RecordField {
        Number(String name, String meaning) {
            super(name, meaning, false, false);
        }

        public abstract double read(MachineRecord r);

        /** Whether the number belongs to the active leaf (time in it, its progress): a migration keeps it only where the leaf stays. */
        public boolean ofLeaf() {
            return false;
        }

        /** Writes a finite number, or says why not. */
        public abstract String write(MachineRecord r, double v);

        @Override
        public final boolean same(MachineRecord a, MachineRecord b) {
            return same(read(a), read(b));
        }
    }

    /** A state's path, or {@code ""} for none. */
    public abstract static non-sealed class StatePath extends RecordField {
        StatePath(String name, String meaning) {
            super(name, meaning, false, false);
        }

        /** The state, or -1 for none. */
        public abstract int read(MachineRecord r);

        /** Writes the state of a path (not empty) as written, or says why it is none the field can hold. */
        public abstract String write(MachineRecord r, String path);

        @Override
        public final boolean same(MachineRecord a, MachineRecord b) {
            return read(a) == read(b);
        }
    }

    /** A number for some of the active states, keyed by their paths (the root's {@code ""}), in the order they were entered. */
    public abstract static non-sealed class Times extends RecordField {
        /** What one value is, for messages: {@code "an entry time"}. */
        public final String one;

        Times(String name, String meaning, String one, boolean optional, boolean afterShape) {
            super(name, meaning, optional, afterShape);
            this.one = one;
        }

        /** Whether active state {@code s} may have a value ({@code s} 0: the root, keyed {@code ""}). */
        public abstract boolean takes(int s);

        /** Whether every active state it {@link #takes} must have one. */
        public abstract boolean everyOne();

        /** Whether active state {@code s} has a value to write. */
        public abstract boolean has(MachineRecord r, int s);

        public abstract double read(MachineRecord r, int s);

        /** Writes active state {@code s}'s value, a finite number, or says why not. */
        public abstract String write(MachineRecord r, int s, double v);

        @Override
        public final boolean same(MachineRecord a, MachineRecord b) {
            for (int i = 0; i < a.activeCount(); i++) {
                int s = a.activeAt(i);
                boolean has = has(a, s);
                if (has != has(b, s) || has && !same(read(a, s), read(b, s))) {
                    return false;
                }
            }
            return true;
        }
    }

    /** Some of the active states, by their paths, in the order they were entered. */
    public abstract static non-sealed class StateList extends RecordField {
        StateList(String name, String meaning, boolean optional) {
            super(name, meaning, optional, false);
        }

        /** Whether active state {@code s} is in the list. */
        public abstract boolean has(MachineRecord r, int s);

        /** Puts state {@code s} (a state of the chart, not yet in the list) in the list, or says why it cannot be there. */
        public abstract String add(MachineRecord r, int s);

        @Override
        public final boolean same(MachineRecord a, MachineRecord b) {
            for (int i = 0; i < a.activeCount(); i++) {
                if (has(a, a.activeAt(i)) != has(b, a.activeAt(i))) {
                    return false;
                }
            }
            return true;
        }
    }

    // ------------------------------------------------------------------ fields two styles share

    /** The state before the last transition, {@code ""} for none; {@code leaf}: only a leaf can be it. */
    static StatePath previous(String meaning, boolean leaf) {
        return new StatePath("previous", meaning) {
            @Override
            public int read(MachineRecord r) {
                return r.previousLeaf();
            }

            @Override
            public String write(MachineRecord r, String path) {
                Chart c = r.chart();
                int p = c.stateAt(path);
                if (p <= 0 || leaf && !c.isLeaf(p)) {
                    return "'" + path + "' is not a " + (leaf ? "leaf " : "") + "state of machine '" + c.machineId + "'";
                }
                r.previousLeaf(p);
                return null;
            }
        };
    }

    /** A number read the one way, written nowhere: a dump's picture of a record. */
    static Number shown(String name, java.util.function.ToDoubleFunction<MachineRecord> read) {
        return new Number(name, name) {
            @Override
            public double read(MachineRecord r) {
                return read.applyAsDouble(r);
            }

            @Override
            public String write(MachineRecord r, double v) {
                throw new UnsupportedOperationException(name + " is shown, not read back");
            }
        };
    }
}

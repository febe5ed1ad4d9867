package dev.enginestates.algorithm;

import dev.enginestates.chart.Chart;
import dev.enginestates.declare.Event;
import dev.enginestates.declare.MachineException;
import dev.enginestates.records.MachineRecord;
import dev.enginestates.records.Reads;

/** The XState style's runtime: macrosteps on events, eventless transitions, waits and {@code when} rules scheduled by the face. */
final class XStateRuntime extends StyleRuntime {
    static final XStateRuntime RUNTIME = new XStateRuntime();
    private static final int[] ROOT = {0};

    @Override
    public String kind() {
        return "XState-style";
    }

    @Override
    public void start(Scratch s, MachineRecord r) {
        s.xstate().start(r);
    }

    @Override
    public void startOnEntity(Scratch s, MachineRecord r) {
        s.xstate().place(r, ROOT);
    }

    @Override
    public Event event(Chart c, int eventId, String type) {
        return eventId >= 0 && c.isExact(eventId) ? c.eventObjects[eventId] : Event.of(type);
    }

    @Override
    public void checkArguments(Chart c, String type, Object[] args) {
        if (args != null && args.length > 0) {
            throw new MachineException(c.machineId, "machine '" + c.machineId + "' is XState-style: its events carry named fields;"
                    + " send Event.of(\"" + type + "\", ...) instead of arguments");
        }
    }

    @Override
    public boolean send(Scratch s, MachineRecord r, int eventId, String type, Object[] args, Event event) {
        return s.xstate().send(r, eventId, event != null ? event : event(r.chart(), eventId, type));
    }

    @Override
    public boolean can(Scratch s, MachineRecord r, int eventId, String type, Object[] args, Event event) {
        return s.xstate().can(r, eventId, event != null ? event : event(r.chart(), eventId, type));
    }

    @Override
    boolean listsEvent(Chart c, int id) {
        return c.isExact(id); // a wildcard descriptor names no event of its own
    }

    @Override
    public boolean polls() {
        return false;
    }

    @Override
    public void placeInitial(Scratch s, MachineRecord r) {
        s.xstate().place(r, ROOT);
    }

    @Override
    public void place(Scratch s, MachineRecord r, int[] targets) {
        s.xstate().place(r, targets);
    }

    @Override
    public void placeMigrated(Scratch s, MachineRecord r, int[] targets, boolean[] kept) {
        s.xstate().place(r, targets, kept);
    }

    @Override
    public String ownMoveAdvice() {
        return "take a transition (an event raised, or a target)";
    }

    @Override
    public double secondsIn(MachineRecord r, int s, double clock) {
        return Math.max(0, clock - r.enteredAt(s));
    }

    // ---- plain faces

    @Override
    public int goTarget(MachineRecord r, String name) {
        return Reads.stateNamed(r.chart(), name, "go"); // a plain object's go sets an XState-style machine's state by hand
    }

    @Override
    public void go(Scratch s, MachineRecord r, int state) {
        place(s, r, new int[] {state});
    }

    @Override
    public void setSecondsIn(MachineRecord r, int s, double seconds, double clock) {
        r.markEntered(s, clock - seconds);
    }

    @Override
    public void setTime(MachineRecord r, int s, String path, double seconds) {
        Chart c = r.chart();
        throw new MachineException(c.machineId, "machine '" + c.machineId + "' is XState-style; its time is its wait's: use setWaited");
    }

    // ---- tools: devtools, diagrams, the XState export

    @Override
    public String declaredWith() {
        return "Machine.define";
    }

    // ---- I/O: the style's own record fields

    /** The clock time each active state was entered at, which timeIn counts from; absent in checkpoints written before it was. */
    private static final RecordField ENTERED = new RecordField.Times("entered", "each active state's path to the clock time it was"
            + " entered at", "an entry time", true, true) {
        @Override
        public boolean takes(int s) {
            return true;
        }

        @Override
        public boolean everyOne() {
            return true;
        }

        @Override
        public boolean has(MachineRecord r, int s) {
            return true;
        }

        @Override
        public double read(MachineRecord r, int s) {
            return r.enteredAt(s);
        }

        @Override
        public String write(MachineRecord r, int s, double v) {
            r.markEntered(s, v);
            return null;
        }
    };
    private static final java.util.List<RecordField> FIELDS = java.util.List.of(ENTERED);

    @Override
    public java.util.List<RecordField> recordFields() {
        return FIELDS;
    }

    @Override
    public void checkRunsOnPlainObject(Chart c) {
        if (c.invokes != null) {
            for (dev.enginestates.chart.Invocation[] list : c.invokes) {
                if (list.length > 0) {
                    throw new MachineException(c.machineId, "machine '" + c.machineId + "' invokes " + list[0] + " in "
                            + (list[0].state == 0 ? "its root" : "state '" + c.path[list[0].state] + "'")
                            + "; a child machine lives on an entity, so run the machine on a StateWorld"
                            + " (world.spawn(..., States.of(machine).trait()))");
                }
            }
        }
    }
}

package dev.enginestates.algorithm;

import dev.enginestates.chart.Chart;
import dev.enginestates.declare.Event;
import dev.enginestates.declare.StateType;
import dev.enginestates.records.MachineRecord;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * A record with its states named by their paths instead of a chart's numbers: what a migration
 * reads, whether the record comes from a running world ({@link #of}) or from a saved checkpoint
 * read without the older definition (the I/O layer fills one in). {@link Migrator} writes it
 * into a record of the newer chart.
 */
public final class RecordImage {
    /** One pending send to itself. */
    public record Send(Event event, double due, String id) {
    }

    public boolean done;
    /** The active states' paths, in the order they were entered; the root is not among them. */
    public final List<String> active = new ArrayList<>();
    /** By history state's path: the paths it remembers. */
    public final Map<String, List<String>> history = new LinkedHashMap<>();
    /** By state's path: the seconds its wait had counted when it was left through a history state. */
    public final Map<String, Double> paused = new LinkedHashMap<>();
    /** The state whose wait counts, or {@code null}. */
    public String waitState;
    public double waitStart;
    public double waitSeconds;
    /** When a hold began, or NaN. */
    public double heldSince = Double.NaN;
    /**
     * The style's own fields ({@link RecordField}) by name: a {@code Double} for a number, a path
     * ({@code ""}: none) for a state, a map from path ({@code ""}: the root) to number for times, a
     * list of paths for a state list.
     */
    public final Map<String, Object> fields = new LinkedHashMap<>();
    public final List<Send> sends = new ArrayList<>();
    /** The state of its random numbers, 0 before its code drew any. */
    public long random;
    /** The live context, as it is (a saved one is read by the caller, which knows how). */
    public Object context;

    /** The image of a live record. */
    public static RecordImage of(MachineRecord r) {
        Chart c = r.chart();
        RecordImage img = new RecordImage();
        img.done = r.isDone();
        for (int i = 0; i < r.activeCount(); i++) {
            int s = r.activeAt(i);
            if (s > 0) {
                img.active.add(c.path[s]);
            }
        }
        for (int h = 1; h < c.size; h++) {
            if (c.type[h] == StateType.HISTORY && r.historySize(h) >= 0) {
                List<String> remembered = new ArrayList<>();
                for (int i = 0; i < r.historySize(h); i++) {
                    remembered.add(c.path[r.historyAt(h, i)]);
                }
                img.history.put(c.path[h], remembered);
            }
        }
        for (int s = 1; s < c.size; s++) {
            if (!Double.isNaN(r.paused(s))) {
                img.paused.put(c.path[s], r.paused(s));
            }
        }
        if (r.waitState() >= 0) {
            img.waitState = c.path[r.waitState()];
            img.waitStart = r.waitStart();
            img.waitSeconds = r.waitSeconds();
        }
        img.heldSince = r.isHeld() ? r.heldSince() : Double.NaN;
        for (RecordField f : StyleRuntime.of(c).recordFields()) {
            img.fields.put(f.name, read(f, r));
        }
        for (int i = 0; i < r.sendCount(); i++) {
            img.sends.add(new Send(r.sendEvent(i), r.sendDue(i), r.sendId(i)));
        }
        img.random = r.randomState();
        img.context = r.contextObject();
        return img;
    }

    private static Object read(RecordField f, MachineRecord r) {
        Chart c = r.chart();
        if (f instanceof RecordField.Number n) {
            return n.read(r);
        }
        if (f instanceof RecordField.StatePath p) {
            int s = p.read(r);
            return s > 0 ? c.path[s] : "";
        }
        if (f instanceof RecordField.Times t) {
            Map<String, Double> out = new LinkedHashMap<>();
            for (int i = 0; i < r.activeCount(); i++) {
                int s = r.activeAt(i);
                if (t.takes(s) && t.has(r, s)) {
                    out.put(s == 0 ? "" : c.path[s], t.read(r, s));
                }
            }
            return out;
        }
        RecordField.StateList l = (RecordField.StateList) f;
        List<String> out = new ArrayList<>();
        for (int i = 0; i < r.activeCount(); i++) {
            int s = r.activeAt(i);
            if (l.has(r, s)) {
                out.add(c.path[s]);
            }
        }
        return out;
    }
}

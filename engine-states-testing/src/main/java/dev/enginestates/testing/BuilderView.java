package dev.enginestates.testing;

import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.enginestates.declare.MachineException;
import dev.enginestates.algorithm.BuilderInterpreter;
import dev.enginestates.algorithm.StyleRuntime;
import dev.enginestates.chart.BuilderChart;
import dev.enginestates.chart.Chart;
import dev.enginestates.chart.Names;
import dev.enginestates.declare.Window;
import dev.enginestates.records.MachineRecord;

import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * What the kit reads of a builder-style machine, from its record:
 * the one the plain {@code dev.enginestates.fsm.StateMachine} keeps and the one on an entity are
 * the same kind, so both faces' assertions and dumps say the same things the same way.
 *
 * <p>Times and progress are the machine's own float32 values, printed as Java prints a
 * {@code float} ({@code 0.74999994}): the value a handler compares is the one shown.
 */
final class BuilderView {
    private BuilderView() {
    }

    /** Whether the record's states have durations, time in state and windows: a builder-style machine's. */
    static boolean is(MachineRecord r) {
        return r.chart().hasDurations;
    }

    /**
     * Throws unless the record is of a builder-style machine, naming the call that needs one.
     *
     * @throws MachineException for an XState-style or polled machine
     */
    static void require(MachineRecord r, String what) {
        Chart c = r.chart();
        if (!c.hasDurations) {
            throw new MachineException(c.machineId, "machine '" + c.machineId + "' is " + StyleRuntime.of(c).kind()
                    + "; " + what + " is for builder-style machines (StateMachineBuilder), whose states have a time in state,"
                    + " durations and windows");
        }
    }

    /** The current state's name, or {@code ""} before the machine is started. */
    static String state(MachineRecord r) {
        return active(r) ? r.chart().path[r.leaf()] : "";
    }

    /** The state before the last transition, or {@code ""} before the first. */
    static String previous(MachineRecord r) {
        int p = r.previousLeaf();
        return p > 0 ? r.chart().path[p] : "";
    }

    /** Seconds in the current state, the machine's float clock. */
    static float time(MachineRecord r) {
        return active(r) ? r.timeInState() : 0f;
    }

    /** The current state's duration in seconds, 0 without one. */
    static float duration(MachineRecord r) {
        return active(r) ? r.chart().builder.duration[r.leaf()] : 0f;
    }

    /** The current state's progress as the context computes it (time over duration, float), 0 without a duration. */
    static float progress(MachineRecord r) {
        return active(r) ? BuilderInterpreter.progress(r) : 0f;
    }

    /** The current state's configured tag ({@code currentStateTag}), {@code ""} without one. */
    static String stateTag(MachineRecord r) {
        return active(r) ? r.chart().builder.tag[r.leaf()] : "";
    }

    /** The current state's windows by name, in the order they were configured. */
    static Map<String, Window> windows(MachineRecord r) {
        return active(r) ? r.chart().builder.windows[r.leaf()] : Map.of();
    }

    /** Whether the current state has the window and its progress lies in it (bounds inclusive), as {@code ctx.inWindow} says. */
    static boolean inWindow(MachineRecord r, String window) {
        Window w = windows(r).get(window);
        return w != null && w.contains(progress(r));
    }

    /**
     * Throws unless some state of the machine configures a window of that name, so a misspelt
     * window fails loudly instead of reading as "not in it".
     *
     * @throws MachineException naming every state's windows
     */
    static void requireKnownWindow(MachineRecord r, String window) {
        BuilderChart b = r.chart().builder;
        Set<String> names = new LinkedHashSet<>();
        for (int s = 1; s < r.chart().size; s++) {
            names.addAll(b.windows[s].keySet());
        }
        if (window == null || !names.contains(window)) {
            Chart c = r.chart();
            throw new MachineException(c.machineId, "machine '" + c.machineId + "' has no window '" + window + "' in any state; its"
                    + " windows: " + allWindows(r) + (window == null ? "" : Names.suggestion(window, names)));
        }
    }

    /** One phrase for a message: {@code 'Attack', 0.2 s in state of 0.55 s (progress 0.36363637), previous 'Idle'}. */
    static String now(MachineRecord r) {
        if (!active(r)) {
            return "no state (not started)";
        }
        StringBuilder b = new StringBuilder("'").append(state(r)).append("', ").append(time(r)).append(" s in state");
        float d = duration(r);
        if (d > 0f) {
            b.append(" of ").append(d).append(" s (progress ").append(progress(r)).append(')');
        } else {
            b.append(" (no duration, progress 0)");
        }
        String p = previous(r);
        b.append(p.isEmpty() ? ", no previous state" : ", previous '" + p + "'");
        return b.toString();
    }

    /** The current state's windows in one phrase: {@code damage 0.35..0.55 (open), input 0.6..1.0 (closed)}, or {@code none}. */
    static String windowsNow(MachineRecord r) {
        Map<String, Window> ws = windows(r);
        if (ws.isEmpty()) {
            return "none";
        }
        float p = progress(r);
        List<String> out = new ArrayList<>();
        for (Window w : ws.values()) {
            out.add(w.name() + " " + w.from() + ".." + w.to() + (w.contains(p) ? " (open)" : " (closed)"));
        }
        return String.join(", ", out);
    }

    /** Every state's windows: {@code Attack: damage, input; Dodge: iframes}, or {@code none}. */
    static String allWindows(MachineRecord r) {
        Chart c = r.chart();
        List<String> out = new ArrayList<>();
        for (int s = 1; s < c.size; s++) {
            if (!c.builder.windows[s].isEmpty()) {
                out.add(c.path[s] + ": " + String.join(", ", c.builder.windows[s].keySet()));
            }
        }
        return out.isEmpty() ? "none" : String.join("; ", out);
    }

    /** The builder-style reads as JSON: what a failing assertion prints next to the context. */
    static ObjectNode tree(MachineRecord r) {
        ObjectNode o = JsonNodeFactory.instance.objectNode();
        o.put("previous", previous(r));
        o.put("timeInState", time(r));
        o.put("duration", duration(r));
        o.put("progress", progress(r));
        if (active(r) && r.chart().builder.delay[r.leaf()] > 0f) {
            o.put("delay", r.chart().builder.delay[r.leaf()]);
        }
        o.put("tag", stateTag(r));
        ObjectNode windows = o.putObject("windows");
        float p = progress(r);
        for (Window w : windows(r).values()) {
            ObjectNode n = windows.putObject(w.name());
            n.put("from", w.from());
            n.put("to", w.to());
            n.put("open", w.contains(p));
        }
        return o;
    }

    /** Whether the machine was started ({@code initialize}) and is in a state. */
    static boolean active(MachineRecord r) {
        return r.status() == MachineRecord.ACTIVE && r.leaf() > 0;
    }
}

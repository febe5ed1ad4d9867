package dev.enginestates.chart;

import dev.enginestates.declare.Named;
import dev.enginestates.declare.SelfAction;

import java.util.ArrayList;
import java.util.List;

/**
 * The moves a chart declares, numbered, whatever its style: what the tools that read a machine
 * without running it (diagrams, the test kit's generated paths and transition coverage) call its
 * transitions. The XState style's move {@code t} is its transition {@code t}; the polled style's are
 * each state's {@code to} guards, {@code after} and {@code on} entries; the builder style's are the
 * targets its handlers are declared to return ({@code transitionsTo}).
 *
 * <p>Immutable; made once per chart ({@link Chart#moves()}) and shared.
 */
public final class Moves {
    /** What declared a move. */
    public enum Kind {
        /** An event's transition ({@code on}), the polled style's {@code on} target too. */
        EVENT,
        /** A wait's transition ({@code waitFor}, XState's {@code after}), the polled style's {@code after}. */
        WAIT,
        /** A {@code when} rule, tested each step. */
        WHEN,
        /** An eventless transition ({@code always}). */
        EVENTLESS,
        /** A compound or parallel state's {@code onDone}, or another event the machine raises itself. */
        DONE,
        /** The polled style's {@code to} guard, tested each step. */
        POLL,
        /** The polled style's {@code on} handler, whose target is chosen at run time. */
        EVENT_HANDLER,
        /** The builder style's handler returning a declared state. */
        HANDLER
    }

    public final int count;
    /** By move: the state declaring it. */
    public final int[] source;
    /** By move: its targets; empty for a targetless transition or a target chosen at run time. */
    public final int[][] targets;
    /** By move: what a diagram writes on it, such as {@code "BELL"}, {@code "wait 4 s"}, {@code "to ready (1)"}. */
    public final String[] label;
    /** By move: the event type it takes ({@link Kind#EVENT}, {@link Kind#EVENT_HANDLER}), else {@code null}. */
    public final String[] event;
    public final Kind[] kind;
    /** By move: the name of its guard ({@code "guard"} when unnamed), or {@code null} when it has none. */
    public final String[] guard;
    /** By move: whether the polled style's {@code $back} is its target. */
    public final boolean[] toBack;
    /** Whether any move targets {@code $back}: then a record's previous leaf decides where it goes. */
    public final boolean anyBack;
    /**
     * The longest time the chart declares a state may wait before it moves by itself, in seconds: a
     * constant wait, a polled {@code after}, a builder state's duration and delay; 0 without any.
     */
    public final double longestWait;

    private final int[][] polledTo;
    private final int[] polledAfter;
    private final int[][] polledOn;
    private final int[][] builderNext;

    private Moves(Chart c) {
        List<Object[]> rows = new ArrayList<>();
        polledTo = new int[c.size][];
        polledAfter = new int[c.size];
        polledOn = new int[c.size][];
        builderNext = new int[c.size][];
        double longest = 0;
        if (c.polled == null && c.builder == null) {
            for (int s = 0; s < c.size; s++) {
                if (c.waitTransition[s] >= 0 && c.waitSecondsOf[s] == null) {
                    longest = Math.max(longest, c.waitSeconds[s]);
                }
            }
            for (int t = 0; t < c.transitionCount; t++) {
                String guardName = c.tGuard[t] == null ? null : nameOr(Named.nameOf(c.tGuard[t]), "guard");
                if (c.tLabel[t].equals("when")) {
                    guardName = nameOr(Named.nameOf(c.whenTest[t]), "test");
                }
                rows.add(new Object[]{c.tSource[t], c.tTargets[t], statechartLabel(c, t), eventOf(c.tLabel[t]), kindOf(c.tLabel[t]),
                        guardName, false});
            }
        } else if (c.polled != null) {
            PolledChart p = c.polled;
            for (int s = 0; s < c.size; s++) {
                polledTo[s] = new int[p.toTarget[s].length];
                for (int i = 0; i < p.toTarget[s].length; i++) {
                    String n = Named.nameOf(p.toGuard[s][i]);
                    polledTo[s][i] = rows.size();
                    rows.add(new Object[]{s, new int[]{p.toTarget[s][i]}, "to" + (n != null ? " " + n : "") + " (" + (i + 1) + ")",
                            null, Kind.POLL, nameOr(n, "guard"), false});
                }
                polledAfter[s] = -1;
                if (p.afterTarget[s] != -1) {
                    longest = Math.max(longest, p.afterSeconds[s]);
                    polledAfter[s] = rows.size();
                    rows.add(row(s, p.afterTarget[s], "after " + seconds(p.afterSeconds[s]) + " s", null, Kind.WAIT));
                }
                if (p.onKind[s] != null) {
                    polledOn[s] = new int[p.eventTypes.length];
                    for (int e = 0; e < p.eventTypes.length; e++) {
                        polledOn[s][e] = -1;
                        if (p.onKind[s][e] == PolledChart.ON_TARGET) {
                            polledOn[s][e] = rows.size();
                            rows.add(row(s, p.onTarget[s][e], p.eventTypes[e], p.eventTypes[e], Kind.EVENT));
                        } else if (p.onKind[s][e] == PolledChart.ON_HANDLER) {
                            polledOn[s][e] = rows.size();
                            rows.add(new Object[]{s, new int[0], p.eventTypes[e] + " / handler", p.eventTypes[e], Kind.EVENT_HANDLER, null, false});
                        }
                    }
                }
            }
        } else {
            for (int s = 0; s < c.size; s++) {
                longest = Math.max(longest, (double) c.builder.duration[s] + c.builder.delay[s]);
                int[] next = c.builder.next[s];
                builderNext[s] = new int[next.length];
                for (int i = 0; i < next.length; i++) {
                    builderNext[s][i] = rows.size();
                    rows.add(row(s, next[i], "handler", null, Kind.HANDLER));
                }
            }
        }
        longestWait = Double.isFinite(longest) ? longest : 0;
        count = rows.size();
        source = new int[count];
        targets = new int[count][];
        label = new String[count];
        event = new String[count];
        kind = new Kind[count];
        guard = new String[count];
        toBack = new boolean[count];
        for (int m = 0; m < count; m++) {
            Object[] r = rows.get(m);
            source[m] = (Integer) r[0];
            int[] to = (int[]) r[1];
            toBack[m] = to.length == 1 && to[0] == PolledChart.BACK;
            targets[m] = toBack[m] ? new int[0] : to;
            label[m] = (String) r[2];
            event[m] = (String) r[3];
            kind[m] = (Kind) r[4];
            guard[m] = (String) r[5];
        }
        boolean back = false;
        for (boolean b : toBack) {
            back |= b;
        }
        anyBack = back;
    }

    private static Object[] row(int s, int target, String label, String event, Kind kind) {
        return new Object[]{s, new int[]{target}, label, event, kind, null, false};
    }

    static Moves of(Chart c) {
        return new Moves(c);
    }

    /**
     * The polled style's move for a step that moved state {@code s} to {@code target}: its
     * {@code after} when that fired, else the first {@code to} guard with that target; -1 when none
     * declares it.
     */
    public int polledStep(int s, int target, boolean afterFired) {
        if (afterFired && polledAfter[s] >= 0) {
            return polledAfter[s];
        }
        for (int m : polledTo[s]) {
            if (targets[m].length == 1 && targets[m][0] == target) {
                return m;
            }
        }
        return polledAfter[s];
    }

    /** The polled style's move for the event {@code eventId} that state {@code s} handled, or -1. */
    public int polledEvent(int s, int eventId) {
        return polledOn[s] == null ? -1 : polledOn[s][eventId];
    }

    /** The builder style's declared move from {@code from} to {@code to}, or -1 when the handler was not declared to return it. */
    public int builderMove(int from, int to) {
        if (from < 0 || builderNext[from] == null) {
            return -1;
        }
        for (int m : builderNext[from]) {
            if (targets[m][0] == to) {
                return m;
            }
        }
        return -1;
    }

    /** A move as a test report names it: {@code "patrol –BELL→ answer"}, {@code "watch –wait 4 s→ rest"}. */
    public String describe(Chart c, int m) {
        StringBuilder sb = new StringBuilder(c.describe(source[m])).append(" \u2013").append(label[m]).append("\u2192 ");
        if (toBack[m]) {
            sb.append("$back");
        } else if (targets[m].length == 0) {
            sb.append(kind[m] == Kind.EVENT_HANDLER ? "(its handler's choice)" : "(stays)");
        } else {
            for (int i = 0; i < targets[m].length; i++) {
                sb.append(i == 0 ? "" : ", ").append(c.describe(targets[m][i]));
            }
        }
        return sb.toString();
    }

    private static Kind kindOf(String tLabel) {
        if (tLabel.startsWith("on ")) {
            return Kind.EVENT;
        }
        return switch (tLabel) {
            case "wait" -> Kind.WAIT;
            case "when" -> Kind.WHEN;
            case "always" -> Kind.EVENTLESS;
            default -> Kind.DONE;
        };
    }

    private static String eventOf(String tLabel) {
        return tLabel.startsWith("on ") ? tLabel.substring(3) : null;
    }

    private static String nameOr(String name, String otherwise) {
        return name != null ? name : otherwise;
    }

    /** What a diagram writes on an XState-style transition: its trigger, its guard's name, its named actions. */
    private static String statechartLabel(Chart c, int t) {
        String kind = c.tLabel[t];
        StringBuilder sb = new StringBuilder();
        if (kind.startsWith("on ")) {
            sb.append(kind.substring(3));
        } else if (kind.equals("wait")) {
            int s = c.tSource[t];
            if (c.waitSecondsOf[s] != null) {
                String n = Named.nameOf(c.waitSecondsOf[s]);
                sb.append("wait ").append(n != null ? n : "(computed)");
            } else {
                sb.append("wait ").append(seconds(c.waitSeconds[s])).append(" s");
            }
        } else if (kind.equals("when")) {
            String n = Named.nameOf(c.whenTest[t]);
            sb.append("when ").append(n != null ? n : "test");
        } else {
            sb.append(kind);
        }
        if (c.tGuard[t] != null) {
            String n = Named.nameOf(c.tGuard[t]);
            sb.append(" [").append(n != null ? n : "guard").append(']');
        }
        List<String> names = new ArrayList<>();
        for (SelfAction<Object> a : c.tActions[t]) {
            String n = Named.nameOf(a);
            if (n != null) {
                names.add(n);
            }
        }
        if (!names.isEmpty()) {
            sb.append(" / ").append(String.join(", ", names));
        }
        if (c.tReenter[t]) {
            sb.append(" (reenter)");
        }
        return sb.toString();
    }

    /** Seconds as a game writes them: {@code 12}, {@code 0.35}. */
    static String seconds(double d) {
        if (d == Math.rint(d) && Math.abs(d) < 1e15) {
            return Long.toString((long) d);
        }
        return Double.toString(d);
    }
}

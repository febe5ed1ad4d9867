package dev.enginestates.chart;

import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;

/**
 * A chart's structure as 16 hex digits: what a record's meaning depends on (states, their kinds,
 * initial and history states, transitions and their targets, waits, each style's table), none of
 * its code. Written as text in document order, then SHA-256: the same on every JVM and run, where
 * {@code hashCode} of the lambdas would not be.
 */
public final class Fingerprint {
    private Fingerprint() {
    }

    /** The chart's fingerprint. */
    public static String of(Chart c) {
        StringBuilder t = new StringBuilder(256 + c.size * 48);
        t.append(c.style).append('|').append(c.semantics).append('|').append(c.unknownEvents).append('\n');
        for (dev.enginestates.declare.ChildMachine<?> m : c.spawns) {
            t.append("spawns ").append(m.id()).append('\n');
        }
        if (c.invokes != null) {
            for (Invocation i : c.invokes[0]) {
                t.append("root invoke ").append(i.id).append(' ').append(i.machine.id()).append(i.sameEntity ? " same" : "").append('\n');
            }
        }
        for (int s = 1; s < c.size; s++) {
            t.append("state ").append(c.path[s]).append(' ').append(c.type[s]);
            if (c.initial[s] >= 0) {
                t.append(" initial ").append(c.path[c.initial[s]]);
            }
            if (c.deepHistory[s]) {
                t.append(" deep");
            }
            if (c.historyDefault[s] != null) {
                t.append(" default");
                paths(t, c, c.historyDefault[s]);
            }
            if (c.waitTransition[s] >= 0) {
                t.append(" wait ").append(c.waitSecondsOf[s] != null ? "code" : Double.toString(c.waitSeconds[s]));
            }
            if (c.when != null && c.when[s] != null) {
                t.append(" when ").append(c.when[s].length);
            }
            if (c.invokes != null) {
                for (Invocation i : c.invokes[s]) {
                    t.append(" invoke ").append(i.id).append(' ').append(i.machine.id()).append(i.sameEntity ? " same" : "");
                }
            }
            t.append('\n');
        }
        for (int i = 0; i < c.transitionCount; i++) {
            t.append("transition ").append(c.path[c.tSource[i]]).append(' ').append(c.tLabel[i]);
            paths(t, c, c.tTargets[i]);
            t.append(c.tReenter[i] ? " reenter" : "").append(c.tGuard[i] != null ? " guarded" : "");
            if (c.tInState[i] >= 0) {
                t.append(" in ").append(c.path[c.tInState[i]]);
            }
            t.append('\n');
        }
        if (c.polled != null) {
            polled(t, c);
        }
        if (c.builder != null) {
            BuilderChart b = c.builder;
            for (int s = 1; s < c.size; s++) {
                t.append("builder ").append(c.path[s]).append(' ').append(b.duration[s]).append(' ').append(b.delay[s]).append(' ')
                        .append(b.tag[s]).append(' ').append(b.windows[s] == null ? "" : new java.util.TreeSet<>(b.windows[s].keySet()))
                        .append('\n');
            }
        }
        try {
            byte[] d = MessageDigest.getInstance("SHA-256").digest(t.toString().getBytes(StandardCharsets.UTF_8));
            StringBuilder hex = new StringBuilder(16);
            for (int i = 0; i < 8; i++) {
                hex.append(Character.forDigit((d[i] >> 4) & 15, 16)).append(Character.forDigit(d[i] & 15, 16));
            }
            return hex.toString();
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException("SHA-256 is missing from this JVM, which every Java SE must have", e);
        }
    }

    private static void polled(StringBuilder t, Chart c) {
        PolledChart p = c.polled;
        for (int s = 0; s < c.size; s++) {
            t.append("polled ").append(s == 0 ? "" : c.path[s]).append(" to");
            if (p.toTarget[s] != null) {
                paths(t, c, p.toTarget[s]);
            }
            if (!Double.isNaN(p.afterSeconds[s])) {
                t.append(" after ").append(p.afterSeconds[s]);
                paths(t, c, new int[] {p.afterTarget[s]});
            }
            t.append(p.update[s] != null ? " update" : "");
            if (p.onKind[s] != null) {
                for (int e = 0; e < p.onKind[s].length; e++) {
                    if (p.onKind[s][e] != PolledChart.ON_NONE) {
                        t.append(" on ").append(p.eventTypes[e]).append(p.onKind[s][e] == PolledChart.ON_TARGET
                                ? " " + (p.onTarget[s][e] >= 0 ? c.path[p.onTarget[s][e]] : p.onTarget[s][e]) : " code");
                    }
                }
            }
            t.append('\n');
        }
    }

    private static void paths(StringBuilder t, Chart c, int[] states) {
        for (int s : states) {
            t.append(' ').append(s >= 0 && s < c.size ? c.path[s] : Integer.toString(s));
        }
    }
}

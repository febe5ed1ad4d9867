package dev.enginestates.chart;

import java.util.Collection;

/** "Did you mean" suggestions for names that name nothing. */
public final class Names {
    private Names() {
    }

    /** The candidate closest to {@code name} by edit distance, if close enough to be a typo; else {@code null}. */
    public static String closest(String name, Collection<String> candidates) {
        if (name == null) {
            return null;
        }
        String best = null;
        int bestDistance = Integer.MAX_VALUE;
        for (String c : candidates) {
            int d = distance(name, c);
            if (d < bestDistance) {
                bestDistance = d;
                best = c;
            }
        }
        int allowed = Math.max(1, Math.min(3, name.length() / 3));
        return bestDistance <= allowed ? best : null;
    }

    /** {@code "; did you mean 'x'?"} or {@code ""}. */
    public static String suggestion(String name, Collection<String> candidates) {
        String c = closest(name, candidates);
        return c == null ? "" : "; did you mean '" + c + "'?";
    }

    /** Edit distance, case-blind, where swapping two neighbouring letters counts one edit (the commonest typo). */
    private static int distance(String a, String b) {
        int[] before = new int[b.length() + 1];
        int[] prev = new int[b.length() + 1];
        int[] cur = new int[b.length() + 1];
        for (int j = 0; j <= b.length(); j++) {
            prev[j] = j;
        }
        for (int i = 1; i <= a.length(); i++) {
            cur[0] = i;
            char x = Character.toLowerCase(a.charAt(i - 1));
            for (int j = 1; j <= b.length(); j++) {
                char y = Character.toLowerCase(b.charAt(j - 1));
                int d = Math.min(Math.min(cur[j - 1] + 1, prev[j] + 1), prev[j - 1] + (x == y ? 0 : 1));
                if (i > 1 && j > 1 && x == Character.toLowerCase(b.charAt(j - 2)) && Character.toLowerCase(a.charAt(i - 2)) == y) {
                    d = Math.min(d, before[j - 2] + 1);
                }
                cur[j] = d;
            }
            int[] t = before;
            before = prev;
            prev = cur;
            cur = t;
        }
        return prev[b.length()];
    }
}

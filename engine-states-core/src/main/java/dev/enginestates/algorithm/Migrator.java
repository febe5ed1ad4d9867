package dev.enginestates.algorithm;

import dev.enginestates.chart.Chart;
import dev.enginestates.declare.Event;
import dev.enginestates.declare.Migration;
import dev.enginestates.declare.StateType;
import dev.enginestates.declare.UnknownEvents;
import dev.enginestates.records.Configurations;
import dev.enginestates.records.MachineRecord;

import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * Writes a record of an older version ({@link RecordImage}) as a record of a newer chart, through
 * a chain of {@link Migration}s: the one way both a running world's swap and a restore of an older
 * checkpoint place records, so a world swapped live and a twin restored through the migrations
 * step alike afterwards.
 *
 * <p>The rules. A state that keeps its place (the same path, or renamed) keeps everything it had:
 * its entry time or clocks, its wait (its start, so the seconds left are the same when its seconds
 * are), its paused seconds; no code runs for it and listeners hear nothing of it. A state the
 * older one did not have, or one a removal moved machines to, is entered as a target is: a
 * compound one enters its initial child, a parallel one all its regions, its entry time is the
 * migration's and a wait it has starts then. Entry actions do not run, in any style: a migration
 * is not a transition. History keeps what it remembers, at the new paths. Pending sends stay
 * pending. A state, a remembered state or a history state the migrations cannot place is a
 * problem; the caller changes nothing if any record has one.
 */
public final class Migrator {
    private Migrator() {
    }

    /**
     * A state's path after every migration of {@code chain}, or {@code null} for a history state
     * forgotten; {@code moved[0]} tells whether a removal moved it (it is then entered, not kept).
     */
    public static String pathOf(List<Migration> chain, String path, boolean[] moved) {
        boolean mv = false;
        String p = path;
        for (Migration m : chain) {
            mv |= m.removes(p);
            p = m.pathOf(p);
            if (p == null) {
                break;
            }
        }
        if (moved != null) {
            moved[0] = mv;
        }
        return p;
    }

    /** The context after the changes of the chain's steps from {@code first} on. */
    public static Object context(List<Migration> chain, int first, Object context) {
        Object c = context;
        for (int i = first; i < chain.size(); i++) {
            if (chain.get(i).changesContext()) {
                c = chain.get(i).changeContext(c);
            }
        }
        return c;
    }

    /**
     * The image written as a record of {@code to}, or {@code null} with its problems added, each
     * starting with {@code where} (the entity and machine, or a checkpoint's JSON path).
     *
     * @param context the record's context in the newer version (already changed by the chain)
     * @param scratch positioned at the migration's clock time: a state entered now is entered then
     */
    public static MachineRecord migrate(RecordImage img, List<Migration> chain, Chart to, String version, Object context,
            Scratch scratch, String where, List<String> problems) {
        int before = problems.size();
        String of = version + " of machine '" + to.machineId + "'";
        boolean[] moved = new boolean[1];
        Set<Integer> kept = new HashSet<>();
        int[] placedAt = new int[img.active.size()];
        for (int i = 0; i < img.active.size(); i++) {
            String p = img.active.get(i);
            String q = pathOf(chain, p, moved);
            int s = q == null ? -1 : to.stateAt(q);
            placedAt[i] = s;
            if (s <= 0 || to.type[s] == StateType.HISTORY) {
                problems.add(where + ": it is in '" + p + "', which has no place in " + of
                        + (q != null && !q.equals(p) ? " (the migrations lead it to '" + q + "', no state there)" : "")
                        + "; expected a migration that renames '" + p + "' or removes it to a state of that version");
            } else if (!moved[0]) {
                kept.add(s);
            }
        }
        if (problems.size() > before) {
            return null;
        }
        List<Integer> targets = new ArrayList<>();
        for (int i = 0; i < img.active.size(); i++) {
            if (isLeaf(img.active, img.active.get(i)) && !targets.contains(placedAt[i])) {
                targets.add(placedAt[i]);
            }
        }
        targets.removeIf(a -> targets.stream().anyMatch(b -> b != a.intValue() && to.isDescendant(b, a)));
        for (int i = 0; i < targets.size(); i++) {
            for (int j = i + 1; j < targets.size(); j++) {
                if (!to.canBeActiveTogether(targets.get(i), targets.get(j))) {
                    problems.add(where + ": its states land on '" + to.path[targets.get(i)] + "' and '" + to.path[targets.get(j)]
                            + "', which cannot be active together in " + of + "; expected migrations that place its states in one"
                            + " configuration (from " + img.active + ")");
                }
            }
        }
        if (problems.size() > before) {
            return null;
        }
        MachineRecord r = new MachineRecord(to, context);
        boolean[] keptStates = new boolean[to.size];
        for (int s : kept) {
            keptStates[s] = true;
        }
        try {
            StyleRuntime.of(to).placeMigrated(scratch, r, targets.stream().mapToInt(Integer::intValue).toArray(), keptStates);
        } catch (RuntimeException e) {
            problems.add(where + ": entering its new states in " + of + " asked a wait's seconds of the machine's code, which threw"
                    + " (a migration runs no machine: code that needs its entity or random numbers cannot run in it): " + e);
            return null;
        }
        keepOrder(img, chain, r);
        keepFields(img, chain, r, kept, where, problems);
        keepWait(img, chain, r, kept);
        keepHistory(img, chain, r, of, where, problems);
        keepSends(img, r, of, where, problems);
        if (img.random != 0) {
            r.randomState(img.random);
        }
        if (!Double.isNaN(img.heldSince)) {
            r.setHeldSince(img.heldSince);
        }
        if (problems.size() == before) {
            String shape = Configurations.problem(r);
            if (shape != null) {
                problems.add(where + ": migrated to " + of + ", " + shape);
            }
        }
        return problems.size() == before ? r : null;
    }

    /**
     * The active states in the order the older record entered them (XState's later choices follow
     * entry order): each kept or target state where its older one was, and each state newly
     * entered just before the first of its descendants already placed, or else just after its parent.
     */
    private static void keepOrder(RecordImage img, List<Migration> chain, MachineRecord r) {
        Chart to = r.chart();
        int n = r.activeCount();
        List<Integer> order = new ArrayList<>(n);
        List<Integer> rest = new ArrayList<>(n);
        for (int i = 0; i < n; i++) {
            if (r.activeAt(i) == 0) {
                order.add(0);
            }
        }
        for (String p : img.active) {
            String q = pathOf(chain, p, null);
            int s = q == null ? -1 : to.stateAt(q);
            if (s > 0 && r.isActive(s) && !order.contains(s)) {
                order.add(s);
            }
        }
        for (int i = 0; i < n; i++) {
            if (!order.contains(r.activeAt(i))) {
                rest.add(r.activeAt(i));
            }
        }
        rest.sort(null); // document order: a parent before its children
        for (int x : rest) {
            int at = -1;
            for (int i = 0; i < order.size() && at < 0; i++) {
                if (to.isDescendant(order.get(i), x)) {
                    at = i;
                }
            }
            if (at < 0) {
                int parent = order.indexOf(to.parent[x]);
                at = parent < 0 ? order.size() : parent + 1;
            }
            order.add(at, x);
        }
        int[] a = new int[n];
        for (int i = 0; i < n; i++) {
            a[i] = order.get(i);
        }
        r.restoreOrder(a, n);
    }

    /** Whether no other active path lies below {@code p}. */
    private static boolean isLeaf(List<String> active, String p) {
        for (String q : active) {
            if (q.length() > p.length() && q.startsWith(p) && q.charAt(p.length()) == '.') {
                return false;
            }
        }
        return true;
    }

    /** The style's own fields of the states that kept their place. */
    private static void keepFields(RecordImage img, List<Migration> chain, MachineRecord r, Set<Integer> kept, String where,
            List<String> problems) {
        Chart to = r.chart();
        boolean[] moved = new boolean[1];
        boolean leafKept = kept.contains(r.leaf());
        for (RecordField f : StyleRuntime.of(to).recordFields()) {
            Object v = img.fields.get(f.name);
            if (v == null) {
                continue;
            }
            if (f instanceof RecordField.Number n) {
                if (!n.ofLeaf() || leafKept) {
                    String problem = n.write(r, (Double) v);
                    if (problem != null) {
                        problems.add(where + "." + f.name + ": " + problem);
                    }
                }
            } else if (f instanceof RecordField.StatePath p) {
                String q = ((String) v).isEmpty() ? null : pathOf(chain, (String) v, moved);
                if (q != null && to.stateAt(q) > 0) {
                    p.write(r, q); // a previous state that is no longer one it can name is left unnamed
                }
            } else if (f instanceof RecordField.Times t) {
                Set<Integer> written = new HashSet<>();
                for (Map.Entry<?, ?> e : ((Map<?, ?>) v).entrySet()) {
                    String p = (String) e.getKey();
                    String q = p.isEmpty() ? "" : pathOf(chain, p, moved);
                    int s = q == null ? -1 : q.isEmpty() ? 0 : to.stateAt(q);
                    if (s < 0 || (s > 0 && (moved[0] || !kept.contains(s))) || !r.isActive(s) || !t.takes(s) || !written.add(s)) {
                        continue;
                    }
                    String problem = t.write(r, s, (Double) e.getValue());
                    if (problem != null) {
                        problems.add(where + "." + f.name + "." + p + ": " + problem);
                    }
                }
            } else if (f instanceof RecordField.StateList l) {
                for (Object o : (List<?>) v) {
                    String q = pathOf(chain, (String) o, moved);
                    int s = q == null ? -1 : to.stateAt(q);
                    if (s > 0 && !moved[0] && kept.contains(s) && !l.has(r, s)) {
                        l.add(r, s);
                    }
                }
            }
        }
    }

    /**
     * A kept state keeps its wait as it was: counting from the same start (the newer version's
     * seconds where they are a number), or not counting. A state newly entered starts its own.
     */
    private static void keepWait(RecordImage img, List<Migration> chain, MachineRecord r, Set<Integer> kept) {
        Chart to = r.chart();
        int placed = r.waitState();
        boolean placedNew = placed >= 0 && !kept.contains(placed);
        if (placedNew) {
            return;
        }
        boolean[] moved = new boolean[1];
        String q = img.waitState == null ? null : pathOf(chain, img.waitState, moved);
        int s = q == null ? -1 : to.stateAt(q);
        if (s > 0 && !moved[0] && r.isActive(s) && to.waitTransition[s] >= 0) {
            r.setWait(s, img.waitStart, to.waitSecondsOf[s] == null ? to.waitSeconds[s] : img.waitSeconds);
        } else if (placed >= 0) {
            r.clearWait();
        }
        for (Map.Entry<String, Double> e : img.paused.entrySet()) {
            String p = pathOf(chain, e.getKey(), moved);
            int w = p == null ? -1 : to.stateAt(p);
            if (w > 0 && !moved[0] && to.waitTransition[w] >= 0) {
                r.setPaused(w, e.getValue());
            }
        }
    }

    private static void keepHistory(RecordImage img, List<Migration> chain, MachineRecord r, String of, String where,
            List<String> problems) {
        Chart to = r.chart();
        for (Map.Entry<String, List<String>> e : img.history.entrySet()) {
            String q = pathOf(chain, e.getKey(), null);
            if (q == null) {
                continue; // forgotten
            }
            int h = to.stateAt(q);
            if (h <= 0 || to.type[h] != StateType.HISTORY) {
                problems.add(where + ": its history state '" + e.getKey() + "' remembers " + e.getValue() + " and has no place in " + of
                        + "; expected a migration that renames it or forgets it (forget(\"" + e.getKey() + "\"))");
                continue;
            }
            int parent = to.parent[h];
            List<Integer> remembered = new ArrayList<>();
            for (String m : e.getValue()) {
                String mq = pathOf(chain, m, null);
                int s = mq == null ? -1 : to.stateAt(mq);
                if (s <= 0 || to.type[s] == StateType.HISTORY || !to.isDescendant(s, parent)) {
                    problems.add(where + ": its history state '" + e.getKey() + "' remembers '" + m + "', which has no place"
                            + (s > 0 ? " inside '" + to.describe(parent) + "'" : "") + " in " + of
                            + "; expected a migration that places it inside the history state's parent");
                    continue;
                }
                if (!to.deepHistory[h]) {
                    while (to.parent[s] != parent) {
                        s = to.parent[s];
                    }
                    add(remembered, s);
                } else {
                    defaultLeaves(to, s, remembered);
                }
            }
            r.clearHistory(h);
            for (int s : remembered) {
                r.addHistory(h, s);
            }
        }
    }

    private static void add(List<Integer> list, int s) {
        if (!list.contains(s)) {
            list.add(s);
        }
    }

    /** The leaves a state's default entry reaches: itself when it is one. */
    private static void defaultLeaves(Chart c, int s, List<Integer> out) {
        if (c.isLeaf(s)) {
            add(out, s);
        } else if (c.type[s] == StateType.PARALLEL) {
            for (int child : c.regularChildren[s]) {
                defaultLeaves(c, child, out);
            }
        } else if (c.initialChild[s] >= 0) {
            defaultLeaves(c, c.initialChild[s], out);
        }
    }

    private static void keepSends(RecordImage img, MachineRecord r, String of, String where, List<String> problems) {
        Chart to = r.chart();
        for (RecordImage.Send s : img.sends) {
            String type = s.event().type();
            int eid = to.eventId(type);
            if (eid < 0 && to.unknownEvents == UnknownEvents.REJECT) {
                problems.add(where + ": it has a pending send of '" + type + "' to itself, an event " + of + " does not know; expected"
                        + " the event kept in that version");
                continue;
            }
            Event e = s.event().fields().isEmpty() && eid >= 0 && to.isExact(eid) ? to.eventObjects[eid] : s.event();
            r.restoreSend(e, s.due(), s.id());
        }
    }
}

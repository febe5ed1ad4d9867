package dev.enginestates.declare;

import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import java.util.function.Function;
import java.util.function.Supplier;

/**
 * How the records of one version of a machine become records of the next: states renamed,
 * states removed (and where their machines go), history states forgotten, and the context
 * changed by a function. Every state the migration does not name keeps its path. A machine
 * declares the migrations that lead to its version; restores of older checkpoints and
 * {@code StateWorld.swap} apply them in a chain.
 *
 * <pre>{@code
 * Machine.define("guard", Guard::new, m -> m
 *     .version(2, Migration.from(1)
 *         .rename("patrol.rest", "patrol.nap")        // patrol.rest.* becomes patrol.nap.*
 *         .remove("answer", "patrol"))                // a guard answering goes back on patrol
 *     .initial("patrol") ...);
 * }</pre>
 *
 * <p>A path that names a state made compound (a leaf split into children) places its machines in
 * the new state, which enters its initial child; name a child ({@code rename("watch",
 * "watch.look")}) to choose another. Immutable: each method returns a new migration.
 */
public final class Migration {
    private final int from;
    private final Map<String, String> renames;
    private final Map<String, String> removals;
    private final Set<String> forgotten;
    private final Supplier<?> oldContext;
    private final Function<Object, Object> change;

    private Migration(int from, Map<String, String> renames, Map<String, String> removals, Set<String> forgotten,
            Supplier<?> oldContext, Function<Object, Object> change) {
        this.from = from;
        this.renames = renames;
        this.removals = removals;
        this.forgotten = forgotten;
        this.oldContext = oldContext;
        this.change = change;
    }

    /**
     * A migration from version {@code version} to the next.
     *
     * @param version the version whose records it migrates, 0 or more (0: the version of a machine that declared none)
     * @return a migration that keeps every path, to which renames and removals are added
     * @throws IllegalArgumentException if {@code version} is negative
     */
    public static Migration from(int version) {
        if (version < 0) {
            throw new IllegalArgumentException("a migration from version " + version + "; expected a version 0 or more");
        }
        return new Migration(version, Map.of(), Map.of(), Set.of(), null, null);
    }

    /**
     * Renames a state: a machine in {@code from}, or in a state below it, is in {@code to}, or in
     * the state with the same path below it ({@code patrol.rest.nap} becomes {@code patrol.nap.nap}).
     *
     * @param from the state's path in the older version
     * @param to its path in the newer one
     * @return a new migration with the rename added
     * @throws IllegalArgumentException if a path is empty, they are equal, or {@code from} is named twice
     */
    public Migration rename(String from, String to) {
        check(from, "rename");
        check(to, "rename");
        once(from, "rename");
        if (from.equals(to)) {
            throw new IllegalArgumentException("rename(\"" + from + "\", \"" + to + "\"): the same path; expected a new name");
        }
        Map<String, String> r = new LinkedHashMap<>(renames);
        r.put(from, to);
        return new Migration(this.from, Map.copyOf(r), removals, forgotten, oldContext, change);
    }

    /**
     * Removes a state: a machine in {@code state}, or in any state below it, goes to {@code to}
     * (which enters its initial states, as a target does).
     *
     * @param state the removed state's path in the older version
     * @param to the path, in the newer version, of the state its machines go to
     * @return a new migration with the removal added
     * @throws IllegalArgumentException if a path is empty, or {@code state} is named twice
     */
    public Migration remove(String state, String to) {
        check(state, "remove");
        check(to, "remove");
        once(state, "remove");
        Map<String, String> r = new LinkedHashMap<>(removals);
        r.put(state, to);
        return new Migration(this.from, renames, Map.copyOf(r), forgotten, oldContext, change);
    }

    /**
     * Forgets what a history state remembers: the newer version has no such history state.
     *
     * @param historyState the history state's path in the older version
     * @return a new migration that drops what it remembered
     * @throws IllegalArgumentException if the path is empty or named twice
     */
    public Migration forget(String historyState) {
        check(historyState, "forget");
        once(historyState, "forget");
        Set<String> f = new LinkedHashSet<>(forgotten);
        f.add(historyState);
        return new Migration(this.from, renames, removals, Set.copyOf(f), oldContext, change);
    }

    /**
     * Changes each record's context. A record of a running world hands its context object to
     * {@code change} as it is; a saved one is first read into a fresh {@code old} context, the
     * way a restore reads a context. {@code change} returns the newer version's context; it must
     * not change the one it is given (a swap refused later keeps it).
     *
     * @param <A> the older version's context type
     * @param old makes an empty context of the older version, into which a saved one is read
     * @param change makes the newer version's context from the older one
     * @return a new migration with the change
     * @throws IllegalStateException if the migration already changes the context
     */
    @SuppressWarnings("unchecked")
    public <A> Migration context(Supplier<? extends A> old, Function<? super A, ?> change) {
        Objects.requireNonNull(old, "old");
        Objects.requireNonNull(change, "change");
        if (this.change != null) {
            throw new IllegalStateException("the migration from version " + from + " already changes the context; expected one context(...)");
        }
        return new Migration(from, renames, removals, forgotten, old, (Function<Object, Object>) change);
    }

    /**
     * The version whose records this migration takes.
     *
     * @return the older version
     */
    public int fromVersion() {
        return from;
    }

    /**
     * The path a state of the older version has in the newer one (no state is checked to exist).
     *
     * @param path a state's path in the older version
     * @return its path in the newer version, or {@code null} for a history state forgotten
     */
    public String pathOf(String path) {
        if (forgotten.contains(path)) {
            return null;
        }
        String best = null;
        for (String k : renames.keySet()) {
            best = longer(best, k, path);
        }
        for (String k : removals.keySet()) {
            best = longer(best, k, path);
        }
        if (best == null) {
            return path;
        }
        String removedTo = removals.get(best);
        return removedTo != null ? removedTo : renames.get(best) + path.substring(best.length());
    }

    /**
     * Whether the state at {@code path} is removed (its machines moved to another state, which they
     * enter) rather than kept under its own or a new name.
     *
     * @param path a state's path in the older version
     * @return {@code true} when a {@link #remove} covers it
     */
    public boolean removes(String path) {
        String best = null;
        for (String k : renames.keySet()) {
            best = longer(best, k, path);
        }
        for (String k : removals.keySet()) {
            best = longer(best, k, path);
        }
        return best != null && removals.containsKey(best);
    }

    /**
     * The paths this migration names in the newer version, which that version's definition checks.
     *
     * @return the renames' and removals' targets
     */
    public Set<String> targets() {
        Set<String> out = new LinkedHashSet<>(renames.values());
        out.addAll(removals.values());
        return out;
    }

    /**
     * Whether the migration changes the context.
     *
     * @return {@code true} when {@link #context} was given
     */
    public boolean changesContext() {
        return change != null;
    }

    /**
     * A fresh older context to read a saved one into; only when {@link #changesContext}.
     *
     * @return what the {@code old} supplier given to {@link #context} makes
     */
    public Object oldContext() {
        return oldContext.get();
    }

    /**
     * The newer context made from an older one; only when {@link #changesContext}.
     *
     * @param old the older version's context
     * @return what the {@code change} given to {@link #context} makes of it
     */
    public Object changeContext(Object old) {
        return change.apply(old);
    }

    private static String longer(String best, String rule, String path) {
        boolean matches = path.equals(rule) || path.startsWith(rule) && path.charAt(rule.length()) == '.';
        return matches && (best == null || rule.length() > best.length()) ? rule : best;
    }

    private void check(String path, String call) {
        Objects.requireNonNull(path, call + "'s path");
        if (path.isEmpty() || path.startsWith(".") || path.endsWith(".")) {
            throw new IllegalArgumentException(call + "(\"" + path + "\") in the migration from version " + from
                    + ": expected a state's dotted path, such as \"patrol.watch\"");
        }
    }

    /** Refuses an older state named a second time: which rule would win would be a guess. */
    private void once(String path, String call) {
        if (renames.containsKey(path) || removals.containsKey(path) || forgotten.contains(path)) {
            throw new IllegalArgumentException(call + "(\"" + path + "\") in the migration from version " + from
                    + ": the migration already says where '" + path + "' goes; expected each older state named once");
        }
    }

    @Override
    public String toString() {
        return "Migration(from " + from + " to " + (from + 1) + ", renames " + renames + ", removals " + removals + ", forgotten "
                + forgotten + (change != null ? ", context changed" : "") + ")";
    }
}

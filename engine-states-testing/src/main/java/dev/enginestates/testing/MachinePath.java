package dev.enginestates.testing;

import java.util.List;

/**
 * A generated path: the machine's start, then events, waits and context changes, each with the
 * leaves it leaves the machine in. Its {@link #name()} reads like the path:
 * {@code "patrol.watch –(4 s)→ patrol.rest –BELL→ answer"}.
 *
 * @param start   the machine's active leaves once spawned
 * @param steps   the inputs, in order
 * @param reaches what the path was generated for: the states it enters first and the transitions it takes first
 */
public record MachinePath(List<String> start, List<PathStep> steps, List<String> reaches) {
    /**
     * Copies the lists, so a path never changes.
     *
     * @param start   the machine's active leaves once spawned
     * @param steps   the inputs, in order
     * @param reaches what the path was generated for
     */
    public MachinePath {
        start = List.copyOf(start);
        steps = List.copyOf(steps);
        reaches = List.copyOf(reaches);
    }

    /**
     * The path as a test's name: the start's leaves, then each input and the leaves after it.
     *
     * @return the path as a name
     */
    public String name() {
        StringBuilder sb = new StringBuilder(PathStep.where(start));
        for (PathStep s : steps) {
            sb.append(" \u2013").append(s.label()).append("\u2192 ").append(PathStep.where(s.leaves()));
        }
        return sb.toString();
    }

    /** Whether this path's inputs begin with all of {@code other}'s. */
    boolean startsWith(MachinePath other) {
        if (other.steps.size() > steps.size()) {
            return false;
        }
        for (int i = 0; i < other.steps.size(); i++) {
            PathStep a = steps.get(i);
            PathStep b = other.steps.get(i);
            if (a.kind() != b.kind() || a.steps() != b.steps() || !java.util.Objects.equals(a.given(), b.given())
                    || !java.util.Objects.equals(a.event(), b.event())) {
                return false;
            }
        }
        return true;
    }

    @Override
    public String toString() {
        return name();
    }
}

package dev.enginestates;

import java.util.ArrayList;
import java.util.List;
import java.util.SplittableRandom;

/**
 * The shape of a random polled machine for property tests: the root (index 0) and 1 to 12
 * states, each under the root a third of the time and else under any state less than 3 deep.
 * State {@code i} is keyed {@code "s" + i}; paths join keys with dots. Drawn from the caller's
 * generator, so that what the test draws next follows from the same seed.
 */
public final class RandomTree {
    public final List<String> key = new ArrayList<>();
    public final List<String> path = new ArrayList<>();
    public final List<Integer> parent = new ArrayList<>();
    public final List<Integer> depth = new ArrayList<>();
    public final List<List<Integer>> kids = new ArrayList<>();

    public RandomTree(SplittableRandom r) {
        key.add("");
        path.add("");
        parent.add(-1);
        depth.add(0);
        kids.add(new ArrayList<>());
        int count = 1 + r.nextInt(12);
        for (int i = 0; i < count; i++) {
            List<Integer> open = new ArrayList<>();
            for (int s = 0; s < key.size(); s++) {
                if (depth.get(s) < 3) {
                    open.add(s);
                }
            }
            int p = r.nextInt(3) == 0 ? 0 : open.get(r.nextInt(open.size()));
            int s = key.size();
            key.add("s" + i);
            path.add(p == 0 ? "s" + i : path.get(p) + ".s" + i);
            parent.add(p);
            depth.add(depth.get(p) + 1);
            kids.add(new ArrayList<>());
            kids.get(p).add(s);
        }
    }

    /** Whether a state is 3 deep. */
    public boolean reachesDepth3() {
        return depth.contains(3);
    }
}

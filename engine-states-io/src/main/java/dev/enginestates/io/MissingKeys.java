package dev.enginestates.io;

import java.util.ArrayList;
import java.util.List;

/**
 * The keys of a checkpoint that no entity of the world has, for a plain restore's refusal. A world
 * that lacks them all is most often a fresh one (a server restarting) that wanted
 * {@link Saves#restoreSpawningMissing}: the refusal says so first, and lists a few keys, not a
 * line for each of thousands.
 */
final class MissingKeys {
    private final List<String> listed = new ArrayList<>(Problems.LISTED);
    private int count;
    private int of;

    /** Counts the checkpoint's entities, missing or not. */
    void entities(int total) {
        of = total;
    }

    void add(String key) {
        count++;
        if (listed.size() < Problems.LISTED) {
            listed.add(key);
        }
    }

    boolean any() {
        return count > 0;
    }

    /**
     * The restore's refusal of {@code problems}: the missing keys, if any, lead, in the message's first
     * line and in the list, before the other problems.
     *
     * @param stopped whether the checks stopped at {@link Problems#MAX} problems, which the message then says
     */
    CheckpointException refusal(boolean stopped, List<String> problems) {
        String stoppedAt = stopped ? " (the checks stopped at the first " + Problems.MAX + " problems)" : "";
        if (count == 0) {
            return new CheckpointException("the checkpoint cannot be restored; the world is unchanged" + stoppedAt, problems);
        }
        List<String> all = new ArrayList<>(listed.size() + 1 + problems.size());
        for (String key : listed) {
            all.add("$.entities." + key + ": no entity of the world has key '" + key + "'; expected the game to spawn it"
                    + " (with an EntityKey) before restoring, or a restore that spawns it");
        }
        if (count > listed.size()) {
            all.add("… and " + (count - listed.size()) + " more keys the world lacks");
        }
        all.addAll(problems);
        return new CheckpointException("the checkpoint cannot be restored: the world lacks " + count + " of its " + of
                + " entities. To restore into a fresh world (a server restarting), call"
                + " Saves.restoreSpawningMissing(StateWorld world, String checkpoint), which spawns each missing entity with its"
                + " key; or spawn them with EntityKey.of(key) first. The world is unchanged" + stoppedAt, all);
    }
}

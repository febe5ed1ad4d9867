package dev.enginestates.ecs;

import java.util.Arrays;
import java.util.List;

/** For tests: a world's records as a rewind's snapshot writes them, copied out. */
public final class SnapshotBytes {
    private SnapshotBytes() {
    }

    /** The bytes of a snapshot of {@code world}, each machine's contexts written with {@code codec}. */
    public static <C> byte[] of(StateWorld world, List<States<C>> machines, Rewind.ContextBytes<C> codec) {
        WorldSnapshot.Contexts contexts = new WorldSnapshot.Contexts();
        machines.forEach(m -> contexts.codec(m, codec));
        WorldSnapshot s = new WorldSnapshot();
        s.take(world, contexts);
        return Arrays.copyOf(s.bytes.array(), s.bytes.size());
    }

    /** The bytes of a snapshot of {@code world}, contexts kept by reference (none written). */
    public static byte[] of(StateWorld world) {
        WorldSnapshot.Contexts contexts = new WorldSnapshot.Contexts();
        for (States<?> m : world.machines()) {
            contexts.share(m);
        }
        WorldSnapshot s = new WorldSnapshot();
        s.take(world, contexts);
        return Arrays.copyOf(s.bytes.array(), s.bytes.size());
    }
}

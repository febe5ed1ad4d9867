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

    /**
     * Each record's bytes as a snapshot writes them (its context's after them, through {@code codec}),
     * by entity key and machine id, in key order: two worlds that hold the same records in another
     * order compare equal.
     */
    public static <C> java.util.SortedMap<String, String> byRecord(StateWorld world, List<States<C>> machines, Rewind.ContextBytes<C> codec) {
        java.util.SortedMap<String, String> out = new java.util.TreeMap<>();
        for (States<C> m : machines) {
            for (StateRecord<C> face : world.records(m)) {
                EntityRecord<C> r = EntityRecord.of(face);
                dev.enginestates.records.RecordBytes.Buffer b = new dev.enginestates.records.RecordBytes.Buffer(256);
                dev.enginestates.records.RecordBytes.write(r, b);
                java.nio.ByteBuffer view = b.view(b.size());
                codec.write(r.context(), view);
                b.skipTo(view.position());
                out.put(StateWorld.keyOf(r.entity) + " " + m.id(), java.util.HexFormat.of().formatHex(b.array(), 0, b.size()));
            }
        }
        return out;
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

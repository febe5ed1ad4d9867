package dev.enginestates.ecs;

import java.util.List;

/**
 * Benchmark support only, not API: reaches a rewind's package-private snapshot ({@link WorldSnapshot})
 * from {@code RewindBench}, so that taking one tick's snapshot and restoring one are timed alone,
 * without the world's step around them. It lives in the bench module, in the library's package
 * (the benchmarks run from the class path, as the suite's tests reach the same class).
 */
public final class RewindBenchHook {
    private final StateWorld world;
    private final WorldSnapshot snapshot = new WorldSnapshot();
    private final WorldSnapshot.Contexts contexts = new WorldSnapshot.Contexts();

    private RewindBenchHook(StateWorld world) {
        this.world = world;
    }

    /**
     * A snapshot of {@code world}'s records, {@code machine}'s contexts written by {@code codec},
     * or kept by reference when {@code codec} is {@code null}, as a {@link Rewind} does.
     */
    public static <C> RewindBenchHook of(StateWorld world, States<C> machine, Rewind.ContextBytes<C> codec) {
        RewindBenchHook h = new RewindBenchHook(world);
        if (codec != null) {
            h.contexts.codec(machine, codec);
        } else {
            h.contexts.share(machine);
        }
        return h;
    }

    /** Takes the world's snapshot, as {@link Rewind#step} does before the tick's inputs; returns its bytes. */
    public int take() {
        snapshot.take(world, contexts);
        return snapshot.bytes.size();
    }

    /** Writes the last snapshot taken back into the world, as {@link Rewind#rewind} does (nothing spawned since). */
    public void restore() {
        world.listeners.mute();
        boolean began = world.underWay.begin("a rewind", null, null);
        try {
            snapshot.restore(world, contexts, List.of(), old -> null);
        } finally {
            world.underWay.end(began);
            world.listeners.unmute(world.registry.bindings());
        }
    }
}

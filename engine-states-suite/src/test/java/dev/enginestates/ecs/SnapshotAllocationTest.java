package dev.enginestates.ecs;

import dev.enginestates.Allocations;
import dev.enginestates.declare.HistoryDepth;
import org.junit.jupiter.api.Test;

import java.nio.ByteBuffer;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * A rewind takes a snapshot of every record each tick: once its buffers have grown, that must
 * allocate nothing, or a game keeping its last ticks would feed the collector sixty times a
 * second. Counts this thread's allocated bytes ({@link Allocations}) over 1,000 snapshots of a
 * warm world of 1,000 guards spread over their states (answering the bell with a wait's seconds
 * paused, resumed through the history, watching, resting), with and without a context codec.
 */
class SnapshotAllocationTest {
    static final class Post {
        int bells;
    }

    static final States<Post> GUARD = States.define("snapshot-guard", Post::new, m -> m
            .tags(false)
            .initial("PATROL")
            .state("PATROL", p -> p
                    .initial("WATCH")
                    .state("WATCH", s -> s.waitFor(4, "REST"))
                    .state("REST", s -> s.waitFor(10, "WATCH"))
                    .history("RESUMED", HistoryDepth.DEEP)
                    .on("BELL", "ANSWER"))
            .state("ANSWER", s -> s
                    .entry((c, e) -> c.bells++)
                    .on("RESUME", "PATROL.RESUMED")
                    .on("RESTART", "PATROL")));

    static final Rewind.ContextBytes<Post> POST = new Rewind.ContextBytes<>() {
        @Override
        public void write(Post post, ByteBuffer out) {
            out.putInt(post.bells);
        }

        @Override
        public Post read(Post post, ByteBuffer in) {
            post.bells = in.getInt();
            return post;
        }
    };

    /** 1,000 guards after 5 s: a third rang for, half of those resumed. */
    private static StateWorld guards() {
        StateWorld world = StateWorld.create();
        for (int i = 0; i < 1_000; i++) {
            world.spawn(EntityKey.of("g" + i), GUARD.trait());
        }
        List<StateRecord<Post>> rs = world.records(GUARD);
        for (int t = 0; t < 5 * 60; t++) {
            world.step(1 / 60.0);
            if (t % 60 == 30) {
                for (int i = t / 60; i < rs.size(); i += 15) {
                    GUARD.send(rs.get(i).entity(), "BELL");
                }
            }
        }
        for (int i = 0; i < rs.size(); i += 6) {
            if (rs.get(i).matches("ANSWER")) {
                GUARD.send(rs.get(i).entity(), "RESUME");
            }
        }
        world.step(1 / 60.0);
        return world;
    }

    private static long thousandSnapshots(StateWorld world, WorldSnapshot.Contexts contexts) {
        WorldSnapshot snapshot = new WorldSnapshot();
        return Allocations.warmThenMeasure(() -> {
            for (int i = 0; i < 1_000; i++) {
                snapshot.take(world, contexts);
            }
        });
    }

    @Test
    void takingASnapshotOfAWarmWorldAllocatesNothing() {
        try (StateWorld world = guards()) {
            List<StateRecord<Post>> rs = world.records(GUARD);
            assertTrue(rs.stream().anyMatch(r -> r.matches("ANSWER")) && rs.stream().anyMatch(r -> r.matches("PATROL.REST"))
                    && rs.stream().anyMatch(r -> r.matches("PATROL.WATCH")), "the guards are spread over their states");
            WorldSnapshot.Contexts shared = new WorldSnapshot.Contexts();
            shared.share(GUARD);
            long bytes = thousandSnapshots(world, shared);
            assertTrue(bytes <= Allocations.MEASUREMENT_MARGIN,
                    "1,000 snapshots of a warm world of 1,000 guards (contexts shared) allocated " + bytes + " B; expected none");
        }
    }

    @Test
    void takingASnapshotWithAContextCodecAllocatesNothing() {
        try (StateWorld world = guards()) {
            WorldSnapshot.Contexts coded = new WorldSnapshot.Contexts();
            coded.codec(GUARD, POST);
            long bytes = thousandSnapshots(world, coded);
            assertTrue(bytes <= Allocations.MEASUREMENT_MARGIN,
                    "1,000 snapshots of a warm world of 1,000 guards (contexts by a codec) allocated " + bytes + " B; expected none");
            WorldSnapshot s = new WorldSnapshot();
            s.take(world, coded);
            assertEquals(1_000, s.records());
        }
    }
}

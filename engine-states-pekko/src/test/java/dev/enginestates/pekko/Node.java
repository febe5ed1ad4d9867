package dev.enginestates.pekko;

import com.typesafe.config.ConfigFactory;
import org.apache.pekko.actor.typed.ActorSystem;
import org.apache.pekko.actor.typed.javadsl.Behaviors;
import org.apache.pekko.cluster.MemberStatus;
import org.apache.pekko.cluster.typed.Cluster;
import org.apache.pekko.cluster.typed.Join;

import java.time.Duration;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.function.BooleanSupplier;

import static org.junit.jupiter.api.Assertions.fail;

/** A one-node cluster on loopback over a test's journal (H2 or PostgreSQL): started, then stopped hard (no leaving, no hand-off). */
final class Node implements AutoCloseable {
    final ActorSystem<Void> system;

    private Node(ActorSystem<Void> system) {
        this.system = system;
    }

    /** A node over the H2 database at this URL, whose tables the caller made ({@code Rooms.createH2Tables}). */
    static Node start(String h2Url) throws InterruptedException {
        return start(Map.of("engine-states.rooms.jdbc.url", h2Url));
    }

    /**
     * Starts this many actor systems on loopback over one H2 journal, joins them to the first, and waits until every
     * one sees them all up. The caller terminates them.
     */
    static void joinCluster(String h2Url, int count, List<ActorSystem<Void>> into) throws InterruptedException {
        for (int i = 0; i < count; i++) {
            into.add(ActorSystem.create(Behaviors.empty(), "rooms", Rooms.config(ConfigFactory.parseMap(Map.of(
                    "engine-states.rooms.jdbc.url", h2Url,
                    "pekko.remote.artery.canonical.hostname", "127.0.0.1",
                    "pekko.remote.artery.canonical.port", 0)))));
        }
        org.apache.pekko.actor.Address first = Cluster.get(into.get(0)).selfMember().address();
        for (ActorSystem<Void> node : into) {
            Cluster.get(node).manager().tell(Join.create(first));
        }
        for (ActorSystem<Void> node : into) {
            await(count + " members up", Duration.ofSeconds(30), () -> java.util.stream.StreamSupport.stream(
                    Cluster.get(node).state().getMembers().spliterator(), false).filter(m -> m.status() == MemberStatus.up()).count() == count);
        }
    }

    /** A node over the H2 database at this URL, with these settings besides (such as a shorter linger). */
    static Node start(String h2Url, Map<String, ?> more) throws InterruptedException {
        Map<String, Object> settings = new HashMap<>(more);
        settings.put("engine-states.rooms.jdbc.url", h2Url);
        return start(settings);
    }

    static Node start(Journal journal) throws InterruptedException {
        return start(journal.settings());
    }

    private static Node start(Map<String, ?> journalSettings) throws InterruptedException {
        Map<String, Object> settings = new HashMap<>(journalSettings);
        settings.put("pekko.remote.artery.canonical.hostname", "127.0.0.1");
        settings.put("pekko.remote.artery.canonical.port", 0);
        ActorSystem<Void> system = ActorSystem.create(Behaviors.empty(), "rooms", Rooms.config(ConfigFactory.parseMap(settings)));
        Cluster cluster = Cluster.get(system);
        cluster.manager().tell(Join.create(cluster.selfMember().address()));
        await("the node up", Duration.ofSeconds(30), () -> cluster.selfMember().status() == MemberStatus.up());
        return new Node(system);
    }

    @Override
    public void close() throws ExecutionException, TimeoutException {
        system.terminate();
        try {
            system.getWhenTerminated().toCompletableFuture().get(30, TimeUnit.SECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted while " + system.address() + " stopped", e);
        }
    }

    static <T> T get(CompletionStage<T> answer) throws Exception {
        return answer.toCompletableFuture().get(30, TimeUnit.SECONDS);
    }

    static void await(String what, Duration within, BooleanSupplier condition) throws InterruptedException {
        long end = System.nanoTime() + within.toNanos();
        while (!condition.getAsBoolean()) {
            if (System.nanoTime() > end) {
                fail("not within " + within.toSeconds() + " s: " + what);
            }
            Thread.sleep(20);
        }
    }

    /**
     * Sets the rooms' hand-moved clock to a step's time (100 ms a step from {@code t0}) and waits until the room has
     * run to it.
     */
    static void stepTo(Rooms<?> rooms, String roomId, java.util.concurrent.atomic.AtomicLong clock, long t0, long step)
            throws InterruptedException {
        clock.set(t0 + step * 100);
        await(roomId + " at step " + step, Duration.ofSeconds(30), () -> {
            try {
                return get(rooms.status(roomId)).steps() == step;
            } catch (Exception e) {
                return false;
            }
        });
    }

    /** A count from an H2 journal's database ({@code sa}, no password). */
    static long count(String h2Url, String sql, String persistenceId) throws java.sql.SQLException {
        try (java.sql.Connection c = java.sql.DriverManager.getConnection(h2Url, "sa", "");
             java.sql.PreparedStatement s = c.prepareStatement(sql)) {
            s.setString(1, persistenceId);
            try (java.sql.ResultSet r = s.executeQuery()) {
                r.next();
                return r.getLong(1);
            }
        }
    }
}

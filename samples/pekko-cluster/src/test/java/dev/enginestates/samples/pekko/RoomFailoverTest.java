package dev.enginestates.samples.pekko;

import com.typesafe.config.Config;
import dev.enginestates.pekko.Room;
import dev.enginestates.pekko.RoomKind;
import dev.enginestates.pekko.RoomListener;
import dev.enginestates.pekko.Rooms;
import org.apache.pekko.actor.Address;
import org.apache.pekko.actor.typed.ActorSystem;
import org.apache.pekko.actor.typed.javadsl.Behaviors;
import org.apache.pekko.cluster.MemberStatus;
import org.apache.pekko.cluster.typed.Cluster;
import org.apache.pekko.cluster.typed.Down;
import org.apache.pekko.cluster.typed.Join;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.SplittableRandom;
import java.util.UUID;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.stream.Collectors;
import java.util.stream.StreamSupport;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

/**
 * Rooms on a cluster survive a node's death: three nodes on loopback in this JVM (three actor systems, Artery on
 * 127.0.0.1, random ports), one JDBC journal they share (an in-memory H2 database; or PostgreSQL), rooms of
 * guards with game commands arriving all the time. One node is stopped hard while its rooms'
 * guards are mid-wait (its actor system terminated without leaving the cluster, then downed);
 * its rooms come back on the other two. Every room's dump then equals, step for step, the dump
 * of a twin room run in a single world with the same commands at the same steps and no failure,
 * and so does each moved room's world at the moment it finished recovering.
 *
 * <p>Size: {@code -Drooms.count=100 -Drooms.guards=100} (the default, on H2); on PostgreSQL 20 rooms of 20 guards. {@code -Drooms.report=true}
 * prints the figures: recovery time per moved room and the steps lost.
 */
class RoomFailoverTest {
    private static final Duration ASK = Duration.ofSeconds(3);

    /** One command as the room answered it. */
    record Logged(long seq, RoomInput input, long step, boolean taken) {
    }

    /** A recovery the probe heard. */
    record Recovery(String node, long steps, long lastSeq, long recoveryNanos, long atNanos, String dump) {
    }

    /** Hears every node's rooms (all in this JVM). */
    static final class Probe implements RoomListener {
        final Map<String, List<Recovery>> recoveries = new ConcurrentHashMap<>();
        final Map<String, Map<String, Long>> persisted = new ConcurrentHashMap<>();   // node -> room -> steps

        @Override
        public void recovered(String roomId, String node, long steps, long lastSeq, long recoveryNanos, Room<?> room) {
            long at = System.nanoTime();
            recoveries.computeIfAbsent(roomId, k -> Collections.synchronizedList(new ArrayList<>()))
                    .add(new Recovery(node, steps, lastSeq, recoveryNanos, at, room == null ? null : room.dump()));
        }

        @Override
        public void stepsPersisted(String roomId, String node, long steps) {
            persisted.computeIfAbsent(node, k -> new ConcurrentHashMap<>()).merge(roomId, steps, Math::max);
        }
    }

    /** Sends one room random commands, one at a time, each again until answered. */
    static final class Driver {
        final String roomId;
        final Rooms<RoomInput> rooms;
        final ScheduledExecutorService timer;
        final SplittableRandom random;
        final List<Logged> log = Collections.synchronizedList(new ArrayList<>());
        final CompletableFuture<Void> done = new CompletableFuture<>();
        final int guards;
        volatile boolean running = true;
        long seq;
        int spawned;
        int retries;

        Driver(String roomId, Rooms<RoomInput> rooms, ScheduledExecutorService timer, long seed, int guards) {
            this.roomId = roomId;
            this.rooms = rooms;
            this.timer = timer;
            this.random = new SplittableRandom(seed);
            this.guards = guards;
        }

        void next() {
            if (!running) {
                done.complete(null);
                return;
            }
            send(++seq, pick());
        }

        RoomInput pick() {
            String guard = String.format(Locale.ROOT, "guard-%03d", random.nextInt(Math.max(1, guards)));
            double p = random.nextDouble();
            if (p < 0.6) {
                return new RoomInput.Send(guard, RoomGuard.EVENTS[random.nextInt(RoomGuard.EVENTS.length)]);
            } else if (p < 0.9) {
                return new RoomInput.Hold(guard, p < 0.75);
            }
            return new RoomInput.Spawn("extra-" + (spawned++));
        }

        void send(long s, RoomInput input) {
            rooms.send(roomId, s, input).whenComplete((ack, err) -> {
                if (err != null || ack.step() < 0) {
                    // the room is moving (or its node is gone): the same command again, answered once applied once
                    retries++;
                    timer.schedule(() -> send(s, input), 100, TimeUnit.MILLISECONDS);
                } else {
                    log.add(new Logged(s, input, ack.step(), ack.taken()));
                    timer.schedule(this::next, 100 + random.nextInt(400), TimeUnit.MILLISECONDS);
                }
            });
        }
    }

    @Test
    @Timeout(value = 10, unit = TimeUnit.MINUTES)
    void roomsOfADeadNodeComeBackElsewhereEqualToTheirTwinsStepForStep() throws Exception {
        String url = "jdbc:h2:mem:rooms-" + UUID.randomUUID() + ";DB_CLOSE_DELAY=-1";
        Rooms.createH2Tables(url);
        failOver("H2 in memory", RoomNode.config(url), Integer.getInteger("rooms.count", 100), Integer.getInteger("rooms.guards", 100));
    }

    /**
     * The same with the journal and snapshots in PostgreSQL, the database a deployment's nodes share: a new database
     * on the server {@code ENGINE_STATES_POSTGRES_URL} names, 20 rooms of 20 guards
     * ({@code -Drooms.postgres.count}, {@code -Drooms.postgres.guards}). Skipped without that variable.
     */
    @Test
    @Timeout(value = 10, unit = TimeUnit.MINUTES)
    void roomsOfADeadNodeComeBackElsewhereEqualToTheirTwinsWithTheJournalInPostgres() throws Exception {
        int roomCount = Integer.getInteger("rooms.postgres.count", 20);
        try (PostgresJournal db = PostgresJournal.create()) {
            failOver("PostgreSQL", RoomNode.config(db.settings), roomCount, Integer.getInteger("rooms.postgres.guards", 20));
            assertEquals(roomCount, db.journaledRooms(), "rooms with events in the PostgreSQL journal");
        }
    }

    private static void failOver(String database, Config config, int roomCount, int guards) throws Exception {
        boolean report = Boolean.getBoolean("rooms.report");
        RoomKind<RoomInput> kind = GuardRooms.kind(guards);
        Probe probe = new Probe();
        long t0 = System.nanoTime();

        List<ActorSystem<Void>> nodes = new ArrayList<>();
        ScheduledExecutorService timer = Executors.newSingleThreadScheduledExecutor();
        try {
            for (int i = 0; i < 3; i++) {
                nodes.add(ActorSystem.create(Behaviors.empty(), "rooms", config));
            }
            Address first = Cluster.get(nodes.get(0)).selfMember().address();
            for (ActorSystem<Void> node : nodes) {
                Cluster.get(node).manager().tell(Join.create(first));
            }
            for (ActorSystem<Void> node : nodes) {
                awaitTrue("3 members up on " + node.address(), Duration.ofSeconds(30), () -> upMembers(node) == 3);
            }
            List<Rooms<RoomInput>> homes = new ArrayList<>();
            for (ActorSystem<Void> node : nodes) {
                homes.add(GuardRooms.start(node, guards, probe));
            }
            long clusterUp = System.nanoTime();

            // every room opened, then commands arriving at each
            Rooms<RoomInput> rooms = homes.get(0).withAskTimeout(Duration.ofSeconds(30));
            List<Driver> drivers = new ArrayList<>();
            List<CompletableFuture<Rooms.Ack>> opened = new ArrayList<>();
            for (int r = 0; r < roomCount; r++) {
                String id = String.format(Locale.ROOT, "room-%03d", r);
                drivers.add(new Driver(id, homes.get(0).withAskTimeout(ASK), timer, 1000L + r, guards));
                opened.add(rooms.open(id).toCompletableFuture());
            }
            CompletableFuture.allOf(opened.toArray(CompletableFuture[]::new)).get(60, TimeUnit.SECONDS);
            long roomsOpen = System.nanoTime();
            drivers.forEach(Driver::next);
            Thread.sleep(6_000); // past the first snapshot (step 50), guards in every kind of wait

            // the victim: the youngest node (the oldest keeps the shard coordinator, as a deployment's would move it too)
            ActorSystem<Void> victim = nodes.get(2);
            String victimNode = Cluster.get(victim).selfMember().address().toString();
            Map<String, Rooms.Status> before = statuses(rooms, drivers);
            List<String> moved = before.values().stream().filter(s -> s.node().equals(victimNode))
                    .map(Rooms.Status::roomId).sorted().collect(Collectors.toList());
            assertFalse(moved.isEmpty(), "the victim node runs no room");
            for (String id : moved) {
                assertTrue(before.get(id).midWait() > 0, id + " has no guard mid-wait");
            }
            for (Rooms.Status s : before.values()) {
                assertTrue(s.incarnation() >= 1, s.roomId() + " has persisted no incarnation: " + s);
            }
            int midWaitAtKill = moved.stream().mapToInt(id -> before.get(id).midWait()).sum();

            long killAt = System.nanoTime();
            Address victimAddress = Cluster.get(victim).selfMember().address();
            victim.terminate();
            victim.getWhenTerminated().toCompletableFuture().get(30, TimeUnit.SECONDS);
            long downAt = System.nanoTime();
            Cluster.get(nodes.get(0)).manager().tell(new Down(victimAddress));

            // its rooms come back on the others (remember-entities starts them; commands keep coming)
            awaitTrue("the victim's rooms recovered elsewhere", Duration.ofSeconds(60),
                    () -> moved.stream().allMatch(id -> recoveredElsewhere(probe, id, victimNode) != null));
            long allBack = System.nanoTime();
            Thread.sleep(3_000);
            drivers.forEach(d -> d.running = false);
            CompletableFuture.allOf(drivers.stream().map(d -> d.done).toArray(CompletableFuture[]::new)).get(60, TimeUnit.SECONDS);

            // each room's dump now, and its twin's at the same step
            Map<String, Rooms.Dump> dumps = new ConcurrentHashMap<>();
            List<CompletableFuture<?>> asks = new ArrayList<>();
            for (Driver d : drivers) {
                asks.add(rooms.dump(d.roomId).toCompletableFuture().thenAccept(dump -> dumps.put(d.roomId, dump)));
            }
            CompletableFuture.allOf(asks.toArray(CompletableFuture[]::new)).get(60, TimeUnit.SECONDS);
            int commands = 0;
            int retries = 0;
            long compared = 0;
            for (Driver d : drivers) {
                commands += d.log.size();
                retries += d.retries;
                compared += compareWithTwin(d, kind, dumps.get(d.roomId), probe.recoveries.getOrDefault(d.roomId, List.of()));
            }

            // steps lost: what the dead node's journal writes confirmed, against what its rooms came back with
            long lost = 0;
            List<Long> fromDown = new ArrayList<>();
            List<Long> ownRecovery = new ArrayList<>();
            Map<String, Long> victimPersisted = probe.persisted.getOrDefault(victimNode, Map.of());
            for (String id : moved) {
                Recovery back = recoveredElsewhere(probe, id, victimNode);
                lost += Math.max(0, victimPersisted.getOrDefault(id, 0L) - back.steps());
                fromDown.add(back.atNanos() - downAt);
                ownRecovery.add(back.recoveryNanos());
            }
            assertEquals(0, lost, "steps the dead node had written were lost");
            // a moved room's new home is a newer incarnation, so a stream from it would carry a larger epoch than the dead node's
            Map<String, Rooms.Status> after = statuses(rooms, drivers);
            for (String id : moved) {
                assertTrue(after.get(id).incarnation() > before.get(id).incarnation(), id + " moved from incarnation "
                        + before.get(id).incarnation() + " on the dead node to " + after.get(id) + "; expected a larger one");
            }

            if (report) {
                Collections.sort(fromDown);
                Collections.sort(ownRecovery);
                System.out.printf(Locale.ROOT, "rooms: %d of %d guards on 3 nodes, journal in %s; cluster up in %.1f s, rooms open in %.1f s%n",
                        roomCount, guards, database, (clusterUp - t0) / 1e9, (roomsOpen - clusterUp) / 1e9);
                System.out.printf(Locale.ROOT, "killed %s with %d rooms (%d guards mid-wait); terminate took %.2f s%n",
                        victimNode, moved.size(), midWaitAtKill, (downAt - killAt) / 1e9);
                System.out.printf(Locale.ROOT, "recovery per moved room, from the down: median %.3f s, max %.3f s; all back %.3f s after the down%n",
                        median(fromDown) / 1e9, fromDown.get(fromDown.size() - 1) / 1e9, (allBack - downAt) / 1e9);
                System.out.printf(Locale.ROOT, "recovery per moved room, the entity's own (snapshot restored, events replayed): median %.3f s, max %.3f s%n",
                        median(ownRecovery) / 1e9, ownRecovery.get(ownRecovery.size() - 1) / 1e9);
                System.out.printf(Locale.ROOT, "steps lost: %d; commands: %d (%d sent again while rooms moved); %d rooms equal to their twins"
                        + " (%d dumps compared); whole test %.1f s%n", lost, commands, retries, drivers.size(), compared, (System.nanoTime() - t0) / 1e9);
            }
        } finally {
            timer.shutdownNow();
            for (ActorSystem<Void> node : nodes) {
                node.terminate();
            }
            for (ActorSystem<Void> node : nodes) {
                node.getWhenTerminated().toCompletableFuture().get(30, TimeUnit.SECONDS);
            }
        }
    }

    /**
     * Runs the room's twin: one world, no cluster, the logged commands at their steps. Checks the
     * twin's dump against each recovery of the room on a node (the world just restored) and against
     * the room's final dump.
     *
     * @return how many dumps were compared
     */
    private static long compareWithTwin(Driver d, RoomKind<RoomInput> kind, Rooms.Dump last, List<Recovery> recoveries) {
        List<Logged> log = new ArrayList<>(d.log);
        log.sort((a, b) -> Long.compare(a.seq(), b.seq()));
        List<Recovery> checks = new ArrayList<>();
        for (Recovery r : recoveries) {
            if (r.dump() != null) {
                checks.add(r);
            }
        }
        checks.sort((a, b) -> Long.compare(a.lastSeq(), b.lastSeq()));
        long compared = 0;
        try (Room<RoomInput> twin = Room.open(kind, d.roomId)) {
            int next = 0;
            for (int i = 0; i <= log.size(); i++) {
                long appliedSeq = i == 0 ? 0 : log.get(i - 1).seq();
                while (next < checks.size() && checks.get(next).lastSeq() == appliedSeq) {
                    Recovery r = checks.get(next++);
                    stepTo(twin, r.steps(), d.roomId + " recovered on " + r.node());
                    assertEquals(twin.dump(), r.dump(), d.roomId + ": recovered on " + r.node() + " at step " + r.steps()
                            + " after command " + appliedSeq + ", it differs from its twin");
                    compared++;
                }
                if (i < log.size()) {
                    Logged l = log.get(i);
                    assertEquals(i + 1, l.seq(), d.roomId + ": commands answered out of order");
                    stepTo(twin, l.step(), d.roomId + " command " + l.seq());
                    assertEquals(l.taken(), twin.apply(l.input()), d.roomId + ": command " + l.seq() + " " + l.input()
                            + " taken differently by the twin");
                }
            }
            assertEquals(checks.size(), next, d.roomId + ": a recovery matched no command");
            stepTo(twin, last.steps(), d.roomId + " at the end");
            assertEquals(twin.dump(), last.dump(), d.roomId + ": at step " + last.steps() + " the room differs from its twin");
            compared++;
        }
        return compared;
    }

    private static void stepTo(Room<RoomInput> twin, long step, String what) {
        long behind = step - twin.steps();
        if (behind < 0) {
            fail(what + ": step " + step + " is before the twin's " + twin.steps());
        }
        twin.step((int) behind);
    }

    private static Recovery recoveredElsewhere(Probe probe, String roomId, String deadNode) {
        for (Recovery r : probe.recoveries.getOrDefault(roomId, List.of()).toArray(new Recovery[0])) {
            if (!r.node().equals(deadNode) && r.dump() != null) {
                return r;
            }
        }
        return null;
    }

    private static Map<String, Rooms.Status> statuses(Rooms<RoomInput> rooms, List<Driver> drivers) throws Exception {
        Map<String, Rooms.Status> out = new ConcurrentHashMap<>();
        List<CompletableFuture<?>> asks = new ArrayList<>();
        for (Driver d : drivers) {
            asks.add(rooms.status(d.roomId).toCompletableFuture().thenAccept(s -> out.put(d.roomId, s)));
        }
        CompletableFuture.allOf(asks.toArray(CompletableFuture[]::new)).get(60, TimeUnit.SECONDS);
        return out;
    }

    private static long upMembers(ActorSystem<Void> node) {
        return StreamSupport.stream(Cluster.get(node).state().getMembers().spliterator(), false)
                .filter(m -> m.status() == MemberStatus.up()).count();
    }

    private static long median(List<Long> sorted) {
        return sorted.get(sorted.size() / 2);
    }

    private static void awaitTrue(String what, Duration within, java.util.function.BooleanSupplier condition) throws InterruptedException {
        long end = System.nanoTime() + within.toNanos();
        while (!condition.getAsBoolean()) {
            if (System.nanoTime() > end) {
                fail("not within " + within.toSeconds() + " s: " + what);
            }
            Thread.sleep(50);
        }
    }
}

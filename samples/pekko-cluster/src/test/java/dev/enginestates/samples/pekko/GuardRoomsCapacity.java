package dev.enginestates.samples.pekko;

import dev.enginestates.pekko.RoomKind;
import dev.enginestates.pekko.RoomListener;
import dev.enginestates.pekko.Rooms;
import org.apache.pekko.actor.typed.ActorSystem;
import org.apache.pekko.actor.typed.javadsl.Behaviors;
import org.apache.pekko.cluster.MemberStatus;
import org.apache.pekko.cluster.typed.Cluster;
import org.apache.pekko.cluster.typed.Join;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;

/**
 * How many rooms of guards one node steps at 60 Hz until a step misses its tick: a figure for
 * engine-states-pekko's page, not a test. It starts a one-node cluster over an in-memory H2
 * journal, opens rooms of the sample's guards ({@link GuardRooms#kind}, stepped at 1/60 s with its
 * timer every 16 ms) in rounds, lets each round settle, then watches it run and prints a line per
 * round. No commands are sent: the guards run their patrols, every step an event in the journal.
 *
 * <p>Two ways a round fails, either ends the search:
 * <ul>
 *   <li><b>a late tick</b>: after a tick's steps are written (the listener's {@code stepsPersisted}),
 *   the room is still more than one step behind its clock, so its next tick has to catch up. The
 *   room's opening time is not public; it is taken as the latest it can be (the open's answer, or
 *   the room's most punctual moment), so a tick counted late is late for sure, and a lag may read
 *   up to a step short;</li>
 *   <li><b>behind over the run</b>: a room took more than {@value #BEHIND_STEPS} steps fewer than its
 *   clock owed over its own interval between two status reads (engine-states-pekko's lamps figure
 *   uses the same bound).</li>
 * </ul>
 *
 * <p>Sizes are system properties or arguments, in that order of precedence: {@code capacity.start}
 * (first round's rooms, 10), {@code capacity.guards} (guards a room, 100), {@code capacity.rounds}
 * (most rounds, unbounded), {@code capacity.seconds} (each round's watched run, 8),
 * {@code capacity.latePerMille} (late ticks a round may have, per thousand of its ticks, and still count as
 * kept up: 10. A pause of the whole process, a collection or the journal's database, makes every room late
 * at once a few times a minute even with 10 rooms, so the figure counts a round as missed when more than
 * 1% of its ticks are late, or a room falls behind over the run). Rounds double the rooms up to 320, then add 80.
 *
 * <p>Run, with nothing else on the machine: {@code mvn -q -o -pl samples/pekko-cluster -am test-compile}, then
 * {@code mvn -q -o -pl samples/pekko-cluster exec:java -Dexec.classpathScope=test
 * -Dexec.mainClass=dev.enginestates.samples.pekko.GuardRoomsCapacity}; a smoke run adds
 * {@code -Dcapacity.start=2 -Dcapacity.guards=10 -Dcapacity.rounds=2}.
 */
public final class GuardRoomsCapacity {
    private static final double STEP_SECONDS = 1.0 / 60;
    private static final double STEP_MILLIS = STEP_SECONDS * 1000;
    private static final long TICK_MILLIS = 16;
    /** Steps behind its clock over a run that fail a round: a tenth of a second at 60 Hz. */
    private static final int BEHIND_STEPS = 6;
    /** Opening rooms loads the node (recoveries, journal reads): the rooms run this long before a round is watched. */
    private static final Duration SETTLE = Duration.ofSeconds(2);

    private GuardRoomsCapacity() {
    }

    /**
     * One room as its listener sees it: when it was opened, its most punctual moment, and this
     * round's counts. Written on the room's actor, read and reset by the main thread.
     */
    private static final class Watch {
        private final long openSentMillis;
        private volatile long answeredMillis = Long.MAX_VALUE;
        /** The earliest wall time at which the room's steps so far were owed: never before it opened. */
        private double punctualMillis = Double.MAX_VALUE;
        private long lastSteps;
        private long events;
        private long late;
        private long worstLag;
        private long largestEvent;

        Watch(long openSentMillis) {
            this.openSentMillis = openSentMillis;
        }

        synchronized void persisted(long steps, long nowMillis) {
            punctualMillis = Math.min(punctualMillis, nowMillis - steps * STEP_MILLIS);
            // the room opened between the open being sent and both of these: the latest bound undercounts the lag
            double openedAt = Math.max(openSentMillis, Math.min(answeredMillis, punctualMillis));
            long lag = Math.max(0, (long) Math.floor((nowMillis - openedAt) / STEP_MILLIS) - steps);
            events++;
            if (lag > 1) {
                late++;
            }
            worstLag = Math.max(worstLag, lag);
            largestEvent = Math.max(largestEvent, steps - lastSteps);
            lastSteps = steps;
        }

        synchronized void startRound() {
            events = 0;
            late = 0;
            worstLag = 0;
            largestEvent = 0;
        }

        synchronized long[] round() {
            return new long[] {events, late, worstLag, largestEvent};
        }
    }

    /**
     * Prints a line per round and the largest count of rooms whose every step kept its tick.
     *
     * @param args optionally the first round's rooms, the guards a room, the most rounds, the seconds watched a round
     *             and the late ticks a round may have per thousand
     * @throws Exception if the node fails
     */
    public static void main(String[] args) throws Exception {
        int start = setting("capacity.start", args, 0, 10);
        int guards = setting("capacity.guards", args, 1, 100);
        int rounds = setting("capacity.rounds", args, 2, Integer.MAX_VALUE);
        Duration run = Duration.ofSeconds(setting("capacity.seconds", args, 3, 8));
        int latePerMille = setting("capacity.latePerMille", args, 4, 10);
        if (start <= 0 || guards <= 0 || rounds <= 0 || run.isZero() || run.isNegative() || latePerMille < 0) {
            throw new IllegalArgumentException("GuardRoomsCapacity: expected a first round of at least 1 room, at least 1 guard a room,"
                    + " at least 1 round, at least 1 second watched and no negative count of late ticks allowed; found start "
                    + start + ", guards " + guards + ", rounds " + rounds + ", seconds " + run.toSeconds() + ", latePerMille " + latePerMille);
        }
        Map<String, Watch> watches = new ConcurrentHashMap<>();
        RoomListener listener = new RoomListener() {
            @Override
            public void stepsPersisted(String roomId, String node, long steps) {
                Watch w = watches.get(roomId);
                if (w != null) {
                    w.persisted(steps, System.currentTimeMillis());
                }
            }
        };
        RoomKind<RoomInput> kind = GuardRooms.kind(guards).stepSeconds(STEP_SECONDS).tickMillis(TICK_MILLIS)
                .snapshotEvery(600).maxCatchUp(30);

        String url = "jdbc:h2:mem:guard-capacity-" + UUID.randomUUID() + ";DB_CLOSE_DELAY=-1";
        Rooms.createH2Tables(url);
        ActorSystem<Void> node = ActorSystem.create(Behaviors.empty(), "rooms", RoomNode.config(url));
        int keptUp = 0;
        String failed = null;
        try {
            Cluster cluster = Cluster.get(node);
            cluster.manager().tell(Join.create(cluster.selfMember().address()));
            while (cluster.selfMember().status() != MemberStatus.up()) {
                Thread.sleep(20);
            }
            Rooms<RoomInput> rooms = Rooms.start(node, kind, listener).withAskTimeout(Duration.ofSeconds(30));
            List<String> open = new ArrayList<>();
            int round = 0;
            for (int target = start; round < rounds; target = target < 320 ? Math.min(target * 2, 320) : target + 80) {
                round++;
                while (open.size() < target) {
                    String id = "room-" + open.size();
                    Watch w = new Watch(System.currentTimeMillis());
                    watches.put(id, w);
                    get(rooms.open(id));
                    w.answeredMillis = System.currentTimeMillis();
                    open.add(id);
                }
                Thread.sleep(SETTLE.toMillis());
                for (String id : open) {
                    watches.get(id).startRound();
                }
                long[][] before = steps(rooms, open);
                Thread.sleep(run.toMillis());
                long[][] after = steps(rooms, open);

                double seconds = 0;
                double behind = 0;
                long total = 0;
                long events = 0;
                long late = 0;
                long worstLag = 0;
                long largestEvent = 0;
                int lateRooms = 0;
                for (int i = 0; i < open.size(); i++) {
                    // each room against its own interval: the rooms are asked one after another
                    double interval = (after[1][i] - before[1][i]) / 1e9;
                    long taken = after[0][i] - before[0][i];
                    total += taken;
                    seconds = Math.max(seconds, interval);
                    behind = Math.max(behind, interval / STEP_SECONDS - taken);
                    long[] r = watches.get(open.get(i)).round();
                    events += r[0];
                    late += r[1];
                    lateRooms += r[1] > 0 ? 1 : 0;
                    worstLag = Math.max(worstLag, r[2]);
                    largestEvent = Math.max(largestEvent, r[3]);
                }
                List<String> why = new ArrayList<>();
                if (late * 1000 > (long) latePerMille * events) {
                    why.add(String.format(Locale.ROOT, "late ticks (more than %d per thousand; %d rooms more than one step behind after a"
                            + " tick)", latePerMille, lateRooms));
                }
                if (behind > BEHIND_STEPS) {
                    why.add(String.format(Locale.ROOT, "behind over the run (more than %d steps)", BEHIND_STEPS));
                }
                System.out.printf(Locale.ROOT, "%d rooms of %d guards over %.1f s: %.0f room steps/s, %.0f guard steps/s;"
                                + " worst lag after a tick %d steps (largest write %d steps), behind its clock over the run %.0f steps;"
                                + " late ticks %d of %d%s%n",
                        open.size(), guards, seconds, total / seconds, total * guards / seconds, worstLag, largestEvent,
                        Math.max(0, behind), late, events, why.isEmpty() ? "" : ": missed, by " + String.join(" and ", why));
                if (!why.isEmpty()) {
                    failed = String.join(" and ", why);
                    break;
                }
                keptUp = open.size();
            }
        } finally {
            node.terminate();
            node.getWhenTerminated().toCompletableFuture().get(30, TimeUnit.SECONDS);
        }
        System.out.println("rooms of " + guards + " guards kept at 60 Hz on one node, "
                + (latePerMille == 0 ? "every tick on time: " : "at most " + latePerMille + " late ticks per thousand: ") + keptUp
                + (failed == null ? " (no round missed; the search stopped at its last round)" : " (the next round missed: " + failed + ")"));
    }

    /** A size: the system property, else the argument at this index, else the default. */
    private static int setting(String property, String[] args, int index, int fallback) {
        String value = System.getProperty(property, args.length > index ? args[index] : null);
        if (value == null || value.isBlank()) {
            return fallback;
        }
        try {
            return Integer.parseInt(value.trim());
        } catch (NumberFormatException e) {
            throw new IllegalArgumentException("GuardRoomsCapacity: " + property + " (or argument " + (index + 1)
                    + ") must be a whole number; found '" + value + "'", e);
        }
    }

    /** Each room's steps and the nano time they were read at. */
    private static long[][] steps(Rooms<RoomInput> rooms, List<String> ids) throws Exception {
        long[][] out = new long[2][ids.size()];
        for (int i = 0; i < ids.size(); i++) {
            out[0][i] = get(rooms.status(ids.get(i))).steps();
            out[1][i] = System.nanoTime();
        }
        return out;
    }

    private static <T> T get(CompletionStage<T> answer) throws Exception {
        return answer.toCompletableFuture().get(30, TimeUnit.SECONDS);
    }
}

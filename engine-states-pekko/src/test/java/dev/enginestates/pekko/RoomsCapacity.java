package dev.enginestates.pekko;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/**
 * How many rooms of 100 lamps one node steps at 60 Hz before a room falls behind its clock: a
 * figure for the module's page, not a test. It starts a one-node cluster over an in-memory H2
 * journal, opens rooms in rounds (10, 20, 40 up to 320, then 80 more a round), lets them run for a while and
 * reads each room's steps against the steps its clock owes; a round in which any room is more than
 * a tenth of a second behind ends the search. Each step is an event persisted to the journal, so
 * the journal's writes are part of what is measured.
 *
 * <p>Run: {@code mvn -q -pl engine-states-pekko -am test-compile}, then {@code mvn -q -pl engine-states-pekko exec:java
 * -Dexec.classpathScope=test -Dexec.mainClass=dev.enginestates.pekko.RoomsCapacity} (with {@code -am} exec:java would run in
 * every module), with nothing else on the machine.
 */
public final class RoomsCapacity {
    private static final double STEP = 1.0 / 60;
    private static final int LAMPS = 100;
    private static final Duration RUN = Duration.ofSeconds(8);

    private RoomsCapacity() {
    }

    /**
     * Prints a line per round and the largest count of rooms that kept up.
     *
     * @param args none
     * @throws Exception if the node fails
     */
    public static void main(String[] args) throws Exception {
        int keptUp = 0;
        try (Journal journal = Journal.h2(); Node node = Node.start(journal)) {
            RoomKind<Lamps.Command> kind = Lamps.kind(LAMPS, System::currentTimeMillis).stepSeconds(STEP).tickMillis(16)
                    .snapshotEvery(600).maxCatchUp(30);
            Rooms<Lamps.Command> rooms = Rooms.start(node.system, kind).withAskTimeout(Duration.ofSeconds(30));
            List<String> open = new ArrayList<>();
            for (int target = 10; target <= 1280; target = target < 320 ? target * 2 : target + 80) {
                while (open.size() < target) {
                    String id = "room-" + open.size();
                    Node.get(rooms.open(id));
                    open.add(id);
                }
                long[][] before = steps(rooms, open);
                Thread.sleep(RUN.toMillis());
                long[][] after = steps(rooms, open);
                // each room against its own interval: the rooms are asked one after another
                double worstBehind = 0;
                double seconds = 0;
                long total = 0;
                for (int i = 0; i < open.size(); i++) {
                    double interval = (after[1][i] - before[1][i]) / 1e9;
                    long taken = after[0][i] - before[0][i];
                    total += taken;
                    seconds = Math.max(seconds, interval);
                    worstBehind = Math.max(worstBehind, interval / STEP - taken);
                }
                boolean kept = worstBehind <= 6; // at most a tenth of a second behind at 60 Hz
                System.out.printf(Locale.ROOT, "%d rooms of %d lamps over %.1f s: the room furthest behind its clock was %.0f steps"
                        + " behind; %.0f room steps a second in all (%.0f lamp-steps a second)%s%n", open.size(), LAMPS, seconds,
                        Math.max(0, worstBehind), total / seconds, total * LAMPS / seconds, kept ? "" : ": behind");
                if (!kept) {
                    break;
                }
                keptUp = open.size();
            }
        }
        System.out.println("rooms kept at 60 Hz on one node: " + keptUp);
    }

    /** Each room's steps and the nano time they were read at. */
    private static long[][] steps(Rooms<Lamps.Command> rooms, List<String> ids) throws Exception {
        long[][] out = new long[2][ids.size()];
        for (int i = 0; i < ids.size(); i++) {
            out[0][i] = Node.get(rooms.status(ids.get(i))).steps();
            out[1][i] = System.nanoTime();
        }
        return out;
    }
}

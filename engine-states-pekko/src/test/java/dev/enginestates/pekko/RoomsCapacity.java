package dev.enginestates.pekko;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/**
 * How many rooms of 100 lamps one node steps at 60 Hz before a room falls behind its clock: a
 * figure for the module's page, not a test. It starts a one-node cluster over an in-memory H2
 * journal, opens rooms in rounds (10, 20, 40, ... more each round), lets them run for a while and
 * reads each room's steps against the steps its clock owes; a round in which any room is more than
 * a tenth of a second behind ends the search. Each step is an event persisted to the journal, so
 * the journal's writes are part of what is measured.
 *
 * <p>Run: {@code mvn -q -pl engine-states-pekko -am test-compile exec:java -Dexec.classpathScope=test
 * -Dexec.mainClass=dev.enginestates.pekko.RoomsCapacity}, with nothing else on the machine.
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
            for (int target = 10; target <= 640; target *= 2) {
                while (open.size() < target) {
                    String id = "room-" + open.size();
                    Node.get(rooms.open(id));
                    open.add(id);
                }
                List<Long> before = steps(rooms, open);
                long start = System.nanoTime();
                Thread.sleep(RUN.toMillis());
                List<Long> after = steps(rooms, open);
                double seconds = (System.nanoTime() - start) / 1e9;
                double owed = seconds / STEP;
                double worst = Double.MAX_VALUE;
                long total = 0;
                for (int i = 0; i < open.size(); i++) {
                    long taken = after.get(i) - before.get(i);
                    total += taken;
                    worst = Math.min(worst, taken);
                }
                boolean kept = worst >= owed - 6; // at most a tenth of a second behind at 60 Hz
                System.out.printf(Locale.ROOT, "%d rooms of %d lamps: %.0f steps owed each in %.1f s; slowest room took %.0f;"
                        + " %.0f room steps a second in all (%.0f guard-steps a second)%s%n", open.size(), LAMPS, owed, seconds, worst,
                        total / seconds, total * LAMPS / seconds, kept ? "" : ": behind");
                if (!kept) {
                    break;
                }
                keptUp = open.size();
            }
        }
        System.out.println("rooms kept at 60 Hz on one node: " + keptUp);
    }

    private static List<Long> steps(Rooms<Lamps.Command> rooms, List<String> ids) throws Exception {
        List<Long> out = new ArrayList<>();
        for (String id : ids) {
            out.add(Node.get(rooms.status(id)).steps());
        }
        return out;
    }
}

package dev.enginestates.records;

import dev.enginestates.Machine;
import dev.enginestates.chart.Chart;
import dev.enginestates.declare.Event;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import java.util.concurrent.TimeUnit;

import static org.junit.jupiter.api.Assertions.assertEquals;

/**
 * A record's sends to itself, as a checkpoint can restore them by the hundred thousand: each
 * delivery (the first pending send taken) must cost the same however many wait behind it. Taking
 * the first used to move all the others down, so a step delivering its 10,000 sends from a queue
 * of a million restored from a 24 MB checkpoint took over a minute; the whole of this test's
 * queue, 400,000, would have moved 8 * 10^10 times, which the guard stops.
 */
class PendingSendsTest {
    static final Machine<Object> PINGED = Machine.define("pending-pinged", Object::new, m -> m
            .initial("a")
            .state("a", s -> s.on("PING", "a")));

    @Test
    @Timeout(value = 60, unit = TimeUnit.SECONDS, threadMode = Timeout.ThreadMode.SEPARATE_THREAD)
    void takingTheFirstPendingSendDoesNotMoveTheOthersAndOrderHolds() {
        Chart c = Access.chart(PINGED);
        MachineRecord r = new MachineRecord(c, null);
        Event ping = Event.of("PING");
        int n = 400_000;
        for (int i = 0; i < n; i++) {
            r.restoreSend(ping, i / 1000, "s" + i); // in delivery order, as a restore reads them
        }
        for (int i = 0; i < n; i++) {
            assertEquals("s" + i, r.sendId(0), "the first pending send");
            assertEquals(i / 1000, r.sendDue(0));
            r.removeSend(0);
            if (i % 100_000 == 0) {
                // new sends go in among the others by due time, after those due at the same time, while the front empties
                r.restoreSend(ping, 1e9, "late" + i);
            }
        }
        assertEquals(4, r.sendCount(), "the late ones are left");
        for (int k = 0; k < 4; k++) {
            assertEquals("late" + k * 100_000, r.sendId(k));
        }
    }

    /** Against a list as the model: the front taken, others taken, sends added among them, some cancelled by id. */
    @Test
    void sendsKeepTheirOrderAsTheQueueFillsEmptiesAndIsCancelled() {
        PendingSends r = new PendingSends();
        Event ping = Event.of("PING");
        java.util.List<String> model = new java.util.ArrayList<>();
        java.util.List<Double> dues = new java.util.ArrayList<>();
        java.util.SplittableRandom random = new java.util.SplittableRandom(7);
        for (int round = 0; round < 20_000; round++) {
            int what = random.nextInt(10);
            if (what < 5) {
                double due = random.nextInt(50);
                String id = "x" + random.nextInt(20);
                r.add(ping, 0, due, id); // by due time, after equal ones
                int at = 0;
                while (at < dues.size() && dues.get(at) <= due) {
                    at++;
                }
                dues.add(at, due);
                model.add(at, id);
            } else if (what < 9 && !model.isEmpty()) {
                int gone = random.nextInt(4) == 0 ? random.nextInt(model.size()) : 0; // mostly the first, as deliveries take it
                r.removeAt(gone);
                model.remove(gone);
                dues.remove(gone);
            } else if (what == 9) {
                String id = "x" + random.nextInt(20);
                r.cancel(id);
                for (int i = model.size() - 1; i >= 0; i--) {
                    if (model.get(i).equals(id)) {
                        model.remove(i);
                        dues.remove(i);
                    }
                }
            }
            assertEquals(model.size(), r.count, "round " + round);
            for (int i = 0; i < model.size(); i++) {
                assertEquals(model.get(i), r.id(i), "round " + round + ", send " + i);
                assertEquals(dues.get(i), r.due(i));
            }
        }
    }
}

package dev.enginestates.pekko;

import dev.enginestates.ecs.EntityKey;
import dev.enginestates.ecs.States;
import dev.enginestates.pekko.Lamps.Command;
import dev.enginestates.pekko.Lamps.Flip;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;

import static dev.enginestates.pekko.Node.get;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The game's code that throws in a room does not kill it. A command is in the journal before it is
 * applied, and steps before they run, so a throw that escaped would fail the room's actor, then
 * every recovery that replays it: the room would be gone for good. Instead a command whose
 * application throws counts as not taken, a machine that fails in a step leaves the step complete
 * for the others, the listener hears of each once, and a recovery replays the same throws silently
 * to the same world as a twin's.
 */
class GameCodeFailuresTest {
    private static final long T0 = 1_000_000_000L;

    /** A fuse: lit for 0.3 s, then it burns out, and its entry into "burnt" throws, every time. */
    static final class Fuse {
        public int burnt;
    }

    static final States<Fuse> FUSE = States.define("fuse", Fuse::new, m -> m
            .initial("lit")
            .state("lit", s -> s.waitFor(0.3, "burnt"))
            .state("burnt", s -> s.entry((fuse, e) -> {
                fuse.burnt++;
                throw new IllegalStateException("the fuse burnt out");
            }).waitFor(0.3, "lit")));

    private final AtomicLong clock = new AtomicLong(T0);
    private final java.util.logging.Logger roomLog = java.util.logging.Logger.getLogger(Room.class.getName());

    @BeforeEach
    void quiet() {
        roomLog.setUseParentHandlers(false); // the twin logs the failures it meets: expected here, not printed
    }

    @AfterEach
    void loud() {
        roomLog.setUseParentHandlers(true);
    }

    /** Hears failures and recoveries. */
    static final class Heard implements RoomListener {
        final List<String> failures = Collections.synchronizedList(new ArrayList<>());
        final List<Long> recoveries = Collections.synchronizedList(new ArrayList<>());
        volatile boolean throwOnFailure;

        @Override
        public void recovered(String roomId, String node, long steps, long lastSeq, long recoveryNanos, Room<?> room) {
            recoveries.add(steps);
        }

        @Override
        public void failed(String roomId, String node, String where, RuntimeException error) {
            failures.add(where + " -> " + error.getMessage());
            if (throwOnFailure) {
                throw new IllegalStateException("the game's metrics are down too");
            }
        }
    }

    private RoomKind<Command> kind() {
        return RoomKind.of("fuses", Command.class, FUSE)
                .opens(world -> {
                    world.spawn(EntityKey.of("fuse-0"), FUSE.trait());
                    world.spawn(EntityKey.of("fuse-1"), FUSE.trait());
                })
                .applies((world, command) -> {
                    Flip flip = (Flip) command;
                    if (flip.key().equals("bomb")) {
                        world.spawn(EntityKey.of("crater"), FUSE.trait()); // what it did before it threw stays, alike on replay
                        throw new IllegalStateException("no bomb in this game");
                    }
                    return world.entity(flip.key()) != null;
                })
                .stepSeconds(0.1).tickMillis(20).snapshotEvery(1000).clock(clock::get);
    }

    private void stepTo(Rooms<Command> rooms, long step) throws Exception {
        Node.stepTo(rooms, "r", clock, T0, step);
    }

    @Test
    @Timeout(value = 3, unit = TimeUnit.MINUTES)
    void aRoomWhoseGameCodeThrowsGoesOnTellsTheListenerOnceAndRecoversToItsTwinWithoutTellingAgain() throws Exception {
        RoomKind<Command> kind = kind();
        Heard heard = new Heard();
        List<Rooms.Ack> acks = new ArrayList<>();
        List<Command> sent = List.of(new Flip("bomb"), new Flip("fuse-0"));
        try (Journal db = Journal.h2()) {
            try (Node first = Node.start(db)) {
                Rooms<Command> rooms = Rooms.start(first.system, kind, heard);
                get(rooms.open("r"));
                stepTo(rooms, 2);
                heard.throwOnFailure = true; // a listener that throws on the first failures changes nothing
                acks.add(get(rooms.send("r", 1, sent.get(0))));
                assertEquals(new Rooms.Ack(1, 2, false), acks.get(0), "a command whose application threw is not taken");
                acks.add(get(rooms.send("r", 2, sent.get(1))));
                assertEquals(new Rooms.Ack(2, 2, true), acks.get(1), "the room takes the next command");
                stepTo(rooms, 10); // each fuse burns out at steps 3 and 9 (and the crater's at 5)
                heard.throwOnFailure = false;
                List<String> failures = List.copyOf(heard.failures);
                assertTrue(failures.get(0).startsWith("its command Flip[key=bomb] -> no bomb in this game"), failures.toString());
                assertEquals(6, failures.size(), "the command, then two fuses at step 3, the crater at 5 and two at 9: " + failures);
                assertTrue(failures.get(1).startsWith("step 3: machine 'fuse' on entity 'fuse-0', in 'burnt', event 'states.wait' -> "), failures.toString());
            }

            heard.failures.clear();
            try (Node second = Node.start(db); Room<Command> twin = Room.open(kind, "r")) {
                Rooms<Command> rooms = Rooms.start(second.system, kind, heard);
                Rooms.Dump back = get(rooms.dump("r"));
                assertEquals(10, back.steps(), "recovered with every step");
                assertEquals(List.of(), heard.failures, "a recovery replays the failures without telling them again");
                for (int i = 0; i < sent.size(); i++) {
                    twin.step((int) (acks.get(i).step() - twin.steps()));
                    assertEquals(acks.get(i).taken(), twin.apply(sent.get(i)), "command " + (i + 1));
                }
                twin.step((int) (10 - twin.steps()));
                assertEquals(twin.dump(), back.dump(), "the recovered room differs from its twin");

                stepTo(rooms, 16);
                assertEquals(3, heard.failures.size(), "the room goes on failing at step 15, told once each: " + heard.failures);
            }
        }
    }
}

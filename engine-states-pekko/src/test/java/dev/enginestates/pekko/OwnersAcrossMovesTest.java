package dev.enginestates.pekko;

import dev.enginestates.ecs.EntityKey;
import dev.enginestates.ecs.Owner;
import dev.enginestates.pekko.Lamps.Command;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import java.time.Duration;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;

import static dev.enginestates.pekko.Node.get;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * A room keeps its entities' owners across a move by itself: an {@link Owner} is a component,
 * which the engine's checkpoint does not carry, and without it a room restored on another node
 * streams nobody their {@code ownerOnly} machines. Before, only a game that kept the owners in its
 * snapshot part had them back.
 */
class OwnersAcrossMovesTest {
    private static final long T0 = 1_000_000_000L;
    private final AtomicLong clock = new AtomicLong(T0);

    private void stepTo(Rooms<Command> rooms, long step) throws Exception {
        Node.stepTo(rooms, "r", clock, T0, step);
    }

    @Test
    @Timeout(value = 2, unit = TimeUnit.MINUTES)
    void aRoomRestoredFromItsSnapshotOnAnotherNodeHasItsEntitiesOwnersBackWithoutTheGamesPart() throws Exception {
        // a game that keeps nothing of its own in the snapshots: no keeps(...)
        RoomKind<Command> kind = RoomKind.of("pockets", Command.class, Lamps.LAMP, Lamps.POCKET)
                .opens(world -> {
                    world.spawn(EntityKey.of("lamp-0"), Lamps.LAMP.trait());
                    world.spawn(EntityKey.of("pocket-alice"), new Owner("alice"), Lamps.POCKET.trait());
                })
                .applies(Lamps::apply)
                .stepSeconds(0.1).tickMillis(20).snapshotEvery(4).clock(clock::get);
        try (Journal db = Journal.h2()) {
            try (Node first = Node.start(db)) {
                Rooms<Command> rooms = Rooms.start(first.system, kind).withAskTimeout(Duration.ofSeconds(20));
                get(rooms.open("r"));
                stepTo(rooms, 8); // snapshots at 4 and 8: the recovery below starts from one
            }
            try (Node second = Node.start(db); Room<Command> twin = Room.open(kind, "r")) {
                Rooms<Command> rooms = Rooms.start(second.system, kind).withAskTimeout(Duration.ofSeconds(20));
                stepTo(rooms, 10);
                twin.step(10);
                String dump = get(rooms.dump("r")).dump();
                assertTrue(twin.dump().contains("\"owner\" : \"alice\""), "the twin's dump names the owner: " + twin.dump());
                assertEquals(twin.dump(), dump, "the restored room lost its owners");
            }
        }
    }
}

package dev.enginestates.ecs;

import dev.dominion.ecs.api.Entity;
import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.SplittableRandom;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * A rewind's snapshot brings back every record exactly, whichever style declared its machine:
 * the random worlds of {@code RewindPropertyTest} are XState-style charts, so here the polled
 * style (clock sums and carries, kept tagged as its guard is three levels deep, its previous
 * leaf and {@code after} marks) and the builder style (time in state, progress) are taken,
 * stepped on, restored, and taken again: the same bytes, record for record.
 */
class SnapshotOfEachStyleTest {
    static final double DT = 1 / 60.0;

    /** Snapshot, 300 steps that change every record, restore, snapshot: the bytes are the same. */
    private static void takeStepRestoreTake(StateWorld world, Runnable change) {
        WorldSnapshot.Contexts contexts = new WorldSnapshot.Contexts();
        for (States<?> m : world.machines()) {
            contexts.share(m); // the context is not written; the records are what is compared
        }
        WorldSnapshot first = new WorldSnapshot();
        first.take(world, contexts);
        byte[] before = Arrays.copyOf(first.bytes.array(), first.bytes.size());
        for (int i = 0; i < 300; i++) {
            change.run();
            world.step(DT);
        }
        WorldSnapshot moved = new WorldSnapshot();
        moved.take(world, contexts);
        assertTrue(!Arrays.equals(before, Arrays.copyOf(moved.bytes.array(), moved.bytes.size())), "the steps changed the records");
        world.listeners.mute();
        boolean began = world.underWay.begin("a rewind", null, null);
        try {
            first.restore(world, contexts, List.of(), old -> null);
        } finally {
            world.underWay.end(began);
            world.listeners.unmute(world.registry.bindings());
        }
        WorldSnapshot again = new WorldSnapshot();
        again.take(world, contexts);
        assertArrayEquals(before, Arrays.copyOf(again.bytes.array(), again.bytes.size()),
                "a restored snapshot, taken again, is the snapshot");
    }

    @Test
    void polledMachinesComeBackExactlyFromASnapshot() {
        try (StateWorld world = StateWorld.create()) {
            List<PolledOnEntityTest.Bot> bots = new ArrayList<>();
            List<Entity> entities = new ArrayList<>();
            for (int i = 0; i < 40; i++) {
                PolledOnEntityTest.Bot bot = new PolledOnEntityTest.Bot();
                bots.add(bot);
                entities.add(world.spawn(PolledOnEntityTest.GUARD.trait(bot)));
            }
            SplittableRandom r = new SplittableRandom(33);
            Runnable change = () -> {
                for (int i = 0; i < bots.size(); i++) {
                    PolledOnEntityTest.Bot b = bots.get(i);
                    b.target = r.nextInt(10) > 2;
                    b.visible = r.nextBoolean();
                    b.dist = r.nextInt(20);
                    b.lostFor = r.nextInt(7);
                    if (r.nextInt(50) == 0) {
                        PolledOnEntityTest.GUARD.send(entities.get(i), "hit");
                    }
                }
            };
            for (int i = 0; i < 200; i++) { // records spread over patrol, combat, search, flinch
                change.run();
                world.step(DT);
            }
            takeStepRestoreTake(world, change);
        }
    }

    @Test
    void builderMachinesComeBackExactlyFromASnapshot() {
        try (StateWorld world = StateWorld.create()) {
            List<BuilderOnEntityTest.Door> doors = new ArrayList<>();
            for (int i = 0; i < 40; i++) {
                BuilderOnEntityTest.Door door = new BuilderOnEntityTest.Door();
                doors.add(door);
                world.spawn(BuilderOnEntityTest.DOOR.trait(door));
            }
            SplittableRandom r = new SplittableRandom(33);
            Runnable change = () -> {
                for (BuilderOnEntityTest.Door d : doors) {
                    if (r.nextInt(40) == 0) {
                        d.open = !d.open;
                    }
                }
            };
            for (int i = 0; i < 200; i++) { // doors closed, opening, open, closing
                change.run();
                world.step(DT);
            }
            takeStepRestoreTake(world, change);
        }
    }
}

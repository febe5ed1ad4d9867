package dev.enginestates.bench;

import dev.dominion.ecs.api.Entity;
import dev.enginestates.dominion.IntEntity;
import dev.enginestates.ecs.StateWorld;

import java.util.ArrayList;
import java.util.List;

/**
 * Where the entities a staggered step moves sit in Dominion's chunks: runs case D's world
 * (tagged, staggered) for some steps, then one more, and reports, for the entities that step
 * moved, in the order the wheel ends their waits, how many sit in the same chunk as the one
 * before and within 16 slots of it (one cache line of a component column). Used to check whether
 * a tagged move reads rows scattered over the chunks (it does not: see bench/README.md, "Moves
 * that write no reference into the entity").
 *
 * <pre>
 * java -cp bench/target/benchmarks.jar dev.enginestates.bench.ChunkOrderProbe 100000 600
 * </pre>
 */
public final class ChunkOrderProbe {
    private ChunkOrderProbe() {
    }

    public static void main(String[] args) {
        int machines = args.length > 0 ? Integer.parseInt(args[0]) : 100_000;
        int steps = args.length > 1 ? Integer.parseInt(args[1]) : 600;
        var machine = Machines.CYCLE_1S;
        StateWorld world = Machines.world(machine, machines);
        Machines.stagger(world, machine, Cycle1sBench.PERIOD);
        for (int k = 0; k < steps; k++) {
            world.step(Machines.DT);
        }
        var records = world.records(machine);
        int[] ids = new int[machines];
        int[] chunks = new int[machines];
        for (int i = 0; i < machines; i++) {
            IntEntity e = (IntEntity) records.get(i).entity();
            ids[i] = e.getId();
            chunks[i] = e.chunkNumber();
        }
        world.step(Machines.DT);
        List<Integer> moved = new ArrayList<>(); // in spawn order, which is the order the staggered waits end
        for (int i = 0; i < machines; i++) {
            Entity e = records.get(i).entity();
            if (((IntEntity) e).chunkNumber() != chunks[i]) {
                moved.add(i);
            }
        }
        int sameChunk = 0;
        int near = 0;
        for (int j = 1; j < moved.size(); j++) {
            int p = moved.get(j - 1);
            int i = moved.get(j);
            if (chunks[p] == chunks[i]) {
                sameChunk++;
                if (Math.abs(slot(ids[i]) - slot(ids[p])) <= 16) {
                    near++;
                }
            }
        }
        System.out.printf("%d machines, step %d: %d moved; %d in the chunk of the one moved before, %d of them within 16 slots of it%n",
                machines, steps + 1, moved.size(), sameChunk, near);
        world.close();
    }

    /** The slot within the chunk: the id's low bits (Dominion's default chunks hold 4,096 entities). */
    private static int slot(int id) {
        return id & 0xfff;
    }
}

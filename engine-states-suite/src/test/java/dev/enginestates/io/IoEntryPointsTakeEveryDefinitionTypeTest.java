package dev.enginestates.io;

import dev.enginestates.ecs.EntityKey;
import dev.enginestates.ecs.StateWorld;
import dev.enginestates.ecs.States;
import org.junit.jupiter.api.Test;

import java.util.List;

import static dev.enginestates.io.PreRuntimeMachines.BOT;
import static dev.enginestates.io.PreRuntimeMachines.BOT_DEF;
import static dev.enginestates.io.PreRuntimeMachines.DOOR;
import static dev.enginestates.io.PreRuntimeMachines.DOOR_DEF;
import static dev.enginestates.io.PreRuntimeMachines.GUARD;
import static org.junit.jupiter.api.Assertions.assertEquals;

/** Saves, a room's stream and a replica take a machine of any style as the game declared it: a Machine, a StatesDef, a builder's definition. */
class IoEntryPointsTakeEveryDefinitionTypeTest {

    @Test
    void savesStreamsAndReplicasTakeMachinesStatesDefsAndBuilderDefinitionsAsTheirBindings() {
        check(Saves.of(GUARD.machine()), GUARD, "g1", w -> RoomStream.of(w, GUARD.machine()), w -> Replica.of(w, "p1", GUARD.machine()));
        check(Saves.of(BOT_DEF), BOT, "b1", w -> RoomStream.of(w, 2, BOT_DEF), w -> Replica.of(w, "p1", BOT_DEF));
        check(Saves.of(DOOR_DEF), DOOR, "d1", w -> RoomStream.of(w, DOOR_DEF), w -> Replica.of(w, "p1", DOOR_DEF));
    }

    private static void check(Saves saves, States<?> binding, String key, java.util.function.Function<StateWorld, RoomStream> stream,
            java.util.function.Function<StateWorld, Replica> replica) {
        assertEquals(List.of(binding.id()), saves.machineIds(), "the definition's binding, the one States.of gives");
        try (StateWorld w = StateWorld.create(); StateWorld copy = StateWorld.create(); StateWorld seen = StateWorld.create()) {
            w.spawn(EntityKey.of(key), binding.trait());
            PreRuntimeMachines.steps(w, 10);
            saves.restoreSpawningMissing(copy, saves.checkpoint(w));
            assertEquals(saves.checkpoint(w), saves.checkpoint(copy));
            RoomStream s = stream.apply(w);
            assertEquals(List.of(binding.id()), s.machineIds());
            s.join("p1");
            replica.apply(seen).apply(s.frame("p1"));
            assertEquals(saves.checkpoint(w), saves.checkpoint(seen), "the replica holds what the room streamed");
        }
    }
}

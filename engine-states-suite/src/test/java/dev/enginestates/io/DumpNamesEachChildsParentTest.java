package dev.enginestates.io;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.enginestates.Machine;
import dev.enginestates.ecs.EntityKey;
import dev.enginestates.ecs.StateWorld;
import dev.enginestates.ecs.States;
import org.junit.jupiter.api.Test;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;

/** A dump names each child machine's parent; a checkpoint holds no link (a restore derives it from the records). */
class DumpNamesEachChildsParentTest {
    private static final ObjectMapper JSON = new ObjectMapper();

    /** A context the machines below share. */
    public static final class Count {
        /** Kills so far. */
        public int kills;
    }

    static final Machine<Count> WAVE = Machine.define("wave", Count::new, m -> m
            .initial("fighting")
            .state("fighting", s -> s.on("KILL", "cleared"))
            .finalState("cleared"));

    static final Machine<Count> EYES = Machine.define("eyes", Count::new, m -> m
            .initial("open")
            .state("open", s -> s.on("BLINK", "open")));

    static final States<Count> SIEGES = States.define("siege", Count::new, m -> m
            .initial("calm")
            .state("calm", s -> s.on("ATTACK", "fight"))
            .state("fight", s -> s
                    .invoke("wave", WAVE, i -> i.onDone("calm"))
                    .invoke("watch", EYES, i -> i.onSameEntity())));

    @Test
    void aDumpNamesEachChildsParentEntityMachineAndId_andACheckpointHoldsNoLink() throws Exception {
        try (StateWorld world = StateWorld.create()) {
            world.spawn(EntityKey.of("siege-1"), SIEGES.trait());
            SIEGES.send(world.entity("siege-1"), "ATTACK");
            Saves saves = Saves.of(SIEGES); // the machines it invokes are saved with it

            JsonNode dump = JSON.readTree(saves.dump(world));

            JsonNode wave = dump.at("/entities/siege-1~1wave/machines/wave/parent");
            assertEquals("siege-1", wave.get("entity").asText(), dump.toString());
            assertEquals("siege", wave.get("machine").asText());
            assertEquals("wave", wave.get("id").asText());
            JsonNode eyes = dump.at("/entities/siege-1/machines/eyes/parent");
            assertEquals("siege-1", eyes.get("entity").asText(), "a child on its parent's entity: " + dump);
            assertEquals("siege", eyes.get("machine").asText());
            assertEquals("watch", eyes.get("id").asText());
            assertNull(dump.at("/entities/siege-1/machines/siege").get("parent"), "the parent is nobody's child");

            assertFalse(saves.checkpoint(world).contains("\"parent\""), "checkpoints stay as they are");
        }
    }
}

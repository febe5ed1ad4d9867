package dev.enginestates.io;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.dominion.ecs.api.Entity;
import dev.enginestates.Fixtures;
import dev.enginestates.ecs.EntityKey;
import dev.enginestates.ecs.StateWorld;
import dev.enginestates.ecs.States;
import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Rules of the 003 document ("States") on dumps and checkpoints that the other I/O tests left
 * unpinned. Each test quotes the sentence it holds the library to.
 */
class Document003IoRulesTest {
    static final ObjectMapper JSON = new ObjectMapper();

    public static final class Guard {
        public int bells;
    }

    static final States<Guard> GUARD = States.define("io-rules-guard", Guard::new, Fixtures.guard());
    static final Saves SAVES = Saves.of(GUARD);

    static JsonNode parse(String text) throws Exception {
        return JSON.readTree(text);
    }

    /** Every field name anywhere in the tree, and every text value. */
    static List<String> namesAndTexts(JsonNode node) {
        List<String> out = new ArrayList<>();
        collect(node, out);
        return out;
    }

    private static void collect(JsonNode node, List<String> out) {
        if (node.isObject()) {
            node.properties().forEach(f -> {
                out.add(f.getKey());
                collect(f.getValue(), out);
            });
        } else if (node.isArray()) {
            node.forEach(n -> collect(n, out));
        } else if (node.isTextual()) {
            out.add(node.asText());
        }
    }

    /**
     * "The dump names each tag &lt;id&gt;.&lt;state&gt;, such as "guard.patrol.watch": true."
     * [...] "A checkpoint keeps the record alone too, and a restore writes the tags from it."
     * The dump of a guard in patrol.watch shows his tags by those names; his checkpoint names no
     * tag at all, and a restore of it into a fresh world gives him the tags again.
     */
    @Test
    void aCheckpointKeepsTheRecordAloneAndARestoreWritesTheTagsFromIt() throws Exception {
        try (StateWorld room = StateWorld.create()) {
            Entity g = room.spawn(EntityKey.of("g1"), GUARD.trait());
            room.step(1.0);
            assertTrue(g.has(GUARD.is("patrol.watch")));

            JsonNode dump = parse(SAVES.dump(room)).path("entities").path("g1");
            assertTrue(dump.path("tags").path("io-rules-guard.patrol.watch").asBoolean(), dump.toString());
            assertTrue(dump.path("tags").path("io-rules-guard.patrol").asBoolean(), dump.toString());

            String checkpoint = SAVES.checkpoint(room);
            List<String> written = namesAndTexts(parse(checkpoint));
            assertFalse(written.contains("tags"), checkpoint);
            assertFalse(written.stream().anyMatch(w -> w.startsWith("io-rules-guard.")), "no tag is named: " + checkpoint);

            try (StateWorld copy = StateWorld.create()) {
                SAVES.restoreSpawningMissing(copy, checkpoint);
                Entity g2 = copy.entity("g1");
                assertTrue(g2.has(GUARD.is("patrol")));
                assertTrue(g2.has(GUARD.is("patrol.watch")));
                assertFalse(g2.has(GUARD.is("answer")));
                assertEquals(3.0, GUARD.read(g2).secondsLeft(), 1e-9, "the wait restored mid-way");
            }
        }
    }
}

package dev.enginestates.devtools;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.enginestates.declare.Migration;
import dev.enginestates.ecs.EntityKey;
import dev.enginestates.ecs.StateWorld;
import dev.enginestates.ecs.States;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The page's API names each machine's version and fingerprint, and after a swap it lists the
 * machine once, as the definition its records have now.
 */
@Timeout(60)
class DevtoolsVersionsHttpTest {
    private static final ObjectMapper JSON = new ObjectMapper();
    private final HttpClient http = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(5)).build();

    /** A lamp's context. */
    public static final class Lamp {
        /** Times switched on. */
        public int on;
    }

    static final States<Lamp> LAMP_1 = States.define("lamp", Lamp::new, m -> m
            .version(1)
            .initial("off")
            .state("off", s -> s.on("SWITCH", "on"))
            .state("on", s -> s.entry((l, e) -> l.on++).on("SWITCH", "off")));

    static final States<Lamp> LAMP_2 = States.define("lamp", Lamp::new, m -> m
            .version(2, Migration.from(1).rename("on", "lit.bright"))
            .initial("off")
            .state("off", s -> s.on("SWITCH", "lit"))
            .state("lit", s -> s
                    .initial("bright")
                    .state("bright", b -> b.on("DIM", "dim"))
                    .state("dim", b -> b.on("BRIGHTEN", "bright"))
                    .on("SWITCH", "off")));

    private JsonNode snapshot(Devtools d) throws Exception {
        HttpResponse<String> r = http.send(HttpRequest.newBuilder(d.address().resolve("/api/snapshot")).GET().build(),
                HttpResponse.BodyHandlers.ofString());
        assertEquals(200, r.statusCode());
        return JSON.readTree(r.body());
    }

    private static List<JsonNode> lamps(JsonNode snapshot) {
        List<JsonNode> out = new ArrayList<>();
        for (JsonNode m : snapshot.get("machines")) {
            if (m.get("id").asText().equals("lamp")) {
                out.add(m);
            }
        }
        return out;
    }

    @Test
    void theApiNamesEachMachinesVersionAndFingerprintBeforeAndAfterASwap() throws Exception {
        try (StateWorld world = StateWorld.create(); Devtools d = Devtools.serve(world, DevtoolsOptions.onPort(0).interval(Duration.ZERO))) {
            for (int i = 0; i < 3; i++) {
                world.spawn(EntityKey.of("lamp-" + i), LAMP_1.trait());
            }
            LAMP_1.send(world.entity("lamp-1"), "SWITCH");
            d.snapshot();

            List<JsonNode> before = lamps(snapshot(d));
            assertEquals(1, before.size(), before.toString());
            assertEquals(1, before.get(0).get("version").asInt());
            assertEquals(LAMP_1.machine().fingerprint(), before.get(0).get("fingerprint").asText());
            assertEquals(3, before.get(0).get("entities").size());

            assertEquals(3, world.swap(LAMP_1, LAMP_2));
            assertEquals(2, world.machines().size(), "the world knows both definitions");
            d.snapshot();

            JsonNode after = snapshot(d);
            List<JsonNode> now = lamps(after);
            assertEquals(1, now.size(), "the machine is listed once, as the definition holding the records: " + now);
            assertEquals(2, now.get(0).get("version").asInt());
            assertEquals(LAMP_2.machine().fingerprint(), now.get(0).get("fingerprint").asText());
            assertEquals(3, now.get(0).get("entities").size());
            assertEquals(1, now.get(0).get("counts").get("lit.bright").asInt(), "the lamp that was on is in the renamed state");
            assertTrue(!LAMP_1.machine().fingerprint().equals(LAMP_2.machine().fingerprint()));

            HttpResponse<String> page = http.send(HttpRequest.newBuilder(d.address().resolve("/")).GET().build(),
                    HttpResponse.BodyHandlers.ofString());
            assertTrue(page.body().contains("m.version") && page.body().contains("m.fingerprint"), "the page shows them");
        }
    }

    @Test
    void theTimelinesCheckpointsGoOnAfterASwapToADefinitionEditedAtTheSameVersion() {
        States<Lamp> edited = States.define("lamp", Lamp::new, m -> m
                .version(1)
                .initial("off")
                .state("off", s -> s.on("SWITCH", "on").on("BLINK", "on"))
                .state("on", s -> s.on("SWITCH", "off")));
        try (StateWorld world = StateWorld.create()) {
            world.spawn(EntityKey.of("lamp-0"), LAMP_1.trait());
            JsonCheckpoints source = new JsonCheckpoints();
            assertTrue(source.checkpoint(world).contains(LAMP_1.machine().fingerprint()));
            world.swap(LAMP_1, edited, Migration.from(1));

            String after = source.checkpoint(world);

            assertTrue(after.contains(edited.machine().fingerprint()), after);
        }
    }

    @Test
    void whenNoDefinitionOfAnIdHoldsRecordsThePageListsTheOneTheWorldLearnedLast() throws Exception {
        try (StateWorld world = StateWorld.create(); Devtools d = Devtools.serve(world, DevtoolsOptions.onPort(0).interval(Duration.ZERO))) {
            world.spawn(EntityKey.of("lamp-0"), LAMP_1.trait());
            world.swap(LAMP_1, LAMP_2);
            world.despawn(world.entity("lamp-0"));
            d.snapshot();

            List<JsonNode> now = lamps(snapshot(d));
            assertEquals(1, now.size(), now.toString());
            assertEquals(2, now.get(0).get("version").asInt());
            assertEquals(0, now.get(0).get("entities").size());
        }
    }
}

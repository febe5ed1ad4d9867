package dev.enginestates.devtools;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.enginestates.Machine;
import dev.enginestates.ecs.EntityKey;
import dev.enginestates.ecs.StateWorld;
import dev.enginestates.ecs.States;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The page's API shows child machines: each record names the record it is a child of
 * ({@code parent}) and the children it runs ({@code children}: id, entity, machine, state), so the
 * page draws them as a tree under their parent, down through grandchildren.
 */
@Timeout(60)
class DevtoolsChildrenHttpTest {
    private static final ObjectMapper JSON = new ObjectMapper();
    private final HttpClient http = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(5)).build();

    /** A context the machines below share. */
    public static final class Count {
        /** Kills so far. */
        public int kills;
    }

    static final Machine<Count> SCOUT = Machine.define("scout", Count::new, m -> m
            .initial("looking")
            .state("looking", s -> s.on("SEEN", "gone"))
            .finalState("gone"));

    static final Machine<Count> WAVE = Machine.define("wave", Count::new, m -> m
            .initial("forming")
            .state("forming", s -> s.on("FORM", "fighting"))
            .state("fighting", s -> s.invoke("scout", SCOUT).on("KILL", "cleared"))
            .finalState("cleared"));

    static final Machine<Count> EYES = Machine.define("eyes", Count::new, m -> m
            .initial("open")
            .state("open", s -> s.on("BLINK", "open")));

    static final States<Count> SIEGES = States.define("siege", Count::new, m -> m
            .initial("calm")
            .state("calm", s -> s.on("ATTACK", "fight"))
            .state("fight", s -> s
                    .invoke("wave", WAVE, i -> i.onDone("rest"))
                    .invoke("watch", EYES, i -> i.onSameEntity()))
            .state("rest", s -> s.on("ATTACK", "fight")));

    private JsonNode snapshot(Devtools d) throws Exception {
        d.snapshot();
        HttpResponse<String> r = http.send(HttpRequest.newBuilder(d.address().resolve("/api/snapshot")).GET().build(),
                HttpResponse.BodyHandlers.ofString());
        assertEquals(200, r.statusCode());
        return JSON.readTree(r.body());
    }

    private static JsonNode record(JsonNode snap, String entity, String machine) {
        for (JsonNode e : snap.get("entities")) {
            if (e.get("name").asText().equals(entity)) {
                for (JsonNode r : e.get("machines")) {
                    if (r.get("machine").asText().equals(machine)) {
                        return r;
                    }
                }
            }
        }
        throw new AssertionError(entity + " holds no " + machine + " in " + snap.get("entities"));
    }

    @Test
    void eachRecordListsTheChildrenItRuns_byIdWithEntityMachineAndState_andEachChildNamesItsParent() throws Exception {
        try (StateWorld world = StateWorld.create(); Devtools d = Devtools.serve(world, DevtoolsOptions.onPort(0).interval(Duration.ZERO))) {
            world.spawn(EntityKey.of("siege-1"), SIEGES.trait());
            SIEGES.send(world.entity("siege-1"), "ATTACK");
            States.of(WAVE).send(world.entity("siege-1/wave"), "FORM"); // the wave invokes a scout of its own

            JsonNode snap = snapshot(d);

            JsonNode siege = record(snap, "siege-1", "siege");
            assertTrue(siege.get("parent").isNull(), siege.toString());
            JsonNode kids = siege.get("children");
            assertEquals(2, kids.size(), kids.toString());
            assertEquals("wave", kids.get(0).get("id").asText());
            assertEquals("siege-1/wave", kids.get(0).get("entity").asText());
            assertEquals("wave", kids.get(0).get("machine").asText());
            assertEquals("fighting", kids.get(0).get("state").asText());
            assertEquals("wave: fighting", kids.get(0).get("fact").asText());
            assertEquals("watch", kids.get(1).get("id").asText());
            assertEquals("siege-1", kids.get(1).get("entity").asText(), "a child on the parent's entity names that entity");
            assertEquals("eyes", kids.get(1).get("machine").asText());

            JsonNode wave = record(snap, "siege-1/wave", "wave");
            assertEquals("siege-1", wave.get("parent").get("entity").asText(), wave.toString());
            assertEquals("siege", wave.get("parent").get("machine").asText());
            assertEquals("wave", wave.get("parent").get("id").asText());
            assertEquals(1, wave.get("children").size(), snap.get("entities").toString());
            assertEquals("siege-1/wave/scout", wave.get("children").get(0).get("entity").asText(), "grandchildren too");
            assertEquals("wave", record(snap, "siege-1/wave/scout", "scout").get("parent").get("machine").asText());

            JsonNode eyes = record(snap, "siege-1", "eyes");
            assertEquals("siege", eyes.get("parent").get("machine").asText(), eyes.toString());
            assertEquals("watch", eyes.get("parent").get("id").asText());
            assertEquals(0, eyes.get("children").size());
        }
    }

    @Test
    void aChildThatEnds_leavesItsParentsChildren_andThePageNamesNoParentForWhatIsLeft() throws Exception {
        try (StateWorld world = StateWorld.create(); Devtools d = Devtools.serve(world, DevtoolsOptions.onPort(0).interval(Duration.ZERO))) {
            world.spawn(EntityKey.of("siege-1"), SIEGES.trait());
            SIEGES.send(world.entity("siege-1"), "ATTACK");
            States.of(WAVE).send(world.entity("siege-1/wave"), "FORM");
            States.of(WAVE).send(world.entity("siege-1/wave"), "KILL"); // the wave is done: the siege rests, its children stop

            JsonNode snap = snapshot(d);

            JsonNode siege = record(snap, "siege-1", "siege");
            assertEquals("rest", siege.get("state").asText(), siege.toString());
            assertEquals(0, siege.get("children").size(), siege.toString());
            for (JsonNode e : snap.get("entities")) {
                assertTrue(!e.get("name").asText().startsWith("siege-1/"), "the children's entities are gone: " + snap.get("entities"));
            }
        }
    }

    @Test
    void thePageDrawsChildrenAsAnIndentedTree_showingAtMostAFewPerParentAndLevel() throws Exception {
        try (StateWorld world = StateWorld.create(); Devtools d = Devtools.serve(world, DevtoolsOptions.onPort(0))) {
            HttpResponse<String> page = http.send(HttpRequest.newBuilder(d.address().resolve("/")).GET().build(),
                    HttpResponse.BodyHandlers.ofString());
            String html = page.body();
            assertTrue(html.contains("r.children") && html.contains("r.parent"), "the page reads both fields");
            assertTrue(html.contains("CHILDREN_SHOWN") && html.contains("CHILD_TREE_SHOWN"), "and caps what it draws of them");
        }
    }
}

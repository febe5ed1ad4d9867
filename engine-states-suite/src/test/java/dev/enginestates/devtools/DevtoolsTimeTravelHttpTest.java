package dev.enginestates.devtools;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.enginestates.ecs.StateWorld;
import dev.enginestates.io.InputLog;
import dev.enginestates.io.Saves;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The page's time travel over HTTP: the timeline, the kept ticks (their snapshots, a record's
 * diff, their checkpoints), the loop's pause, step and resume, and events sent from the page;
 * with the refusals of each route.
 */
@Timeout(60)
class DevtoolsTimeTravelHttpTest {
    private static final ObjectMapper JSON = new ObjectMapper();
    private final HttpClient http = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(5)).build();

    private HttpResponse<String> get(Devtools d, String path) throws Exception {
        return http.send(HttpRequest.newBuilder(d.address().resolve(path)).GET().build(), HttpResponse.BodyHandlers.ofString());
    }

    private CompletableFuture<HttpResponse<String>> post(Devtools d, String path, String body) {
        return http.sendAsync(HttpRequest.newBuilder(d.address().resolve(path)).header("Content-Type", "application/json")
                .POST(HttpRequest.BodyPublishers.ofString(body)).build(), HttpResponse.BodyHandlers.ofString());
    }

    /** The game's loop, on this (the world's) thread, until the page's request is answered. */
    private static <T> T publishUntil(Devtools d, CompletableFuture<T> answer) throws Exception {
        while (!answer.isDone()) {
            d.publish();
            Thread.sleep(2);
        }
        return answer.get();
    }

    private static String error(HttpResponse<String> r) throws Exception {
        return JSON.readTree(r.body()).get("error").asText();
    }

    private static List<String> describe(JsonNode timeline) {
        List<String> out = new ArrayList<>();
        for (JsonNode e : timeline.get("entries")) {
            out.add(e.get("tick").asLong() + " " + e.get("kind").asText() + " " + e.get("entity").asText() + " "
                    + (e.get("machine").isNull() ? "-" : e.get("machine").asText()) + " "
                    + switch (e.get("kind").asText()) {
                        case "transition" -> e.get("from").asText() + " -> " + e.get("to").asText() + " on " + e.get("event").asText();
                        case "refused" -> e.get("event").asText();
                        case "wait-ended" -> e.get("state").asText() + " " + e.get("how").asText();
                        case "hold-on", "hold-off" -> e.get("component").asText();
                        default -> "";
                    });
        }
        return out;
    }

    @Test
    void theTimelineRecordsTransitionsRefusalsWaitsHoldsSpawnsAndDespawnsWithTheirTickFilteredByEntityAndMachine() throws Exception {
        try (Room room = new Room(); Devtools d = Devtools.serve(room.world, 0)) {
            watched(d);
            room.world.step(Room.DT); // the first step finds guard-3's hold as it starts
            Room.GUARD.send(room.guard1, "BELL");
            Room.SIEGE.send(room.world, "WAVE_HELD"); // refused while the siege waits
            room.run(4); // guard-2's watch runs out at 4 s
            room.guard3.removeType(Room.Stunned.class);
            room.world.step(Room.DT);
            room.world.despawn(room.bot);

            List<String> guard2 = describe(JSON.readTree(get(d, "/api/timeline?entity=guard-2").body()));
            assertEquals(List.of("240 wait-ended guard-2 guard patrol.watch elapsed",
                    "240 transition guard-2 guard patrol.watch -> patrol.rest on states.wait"), guard2);

            List<String> guard1 = describe(JSON.readTree(get(d, "/api/timeline?entity=guard-1&machine=guard").body()));
            assertEquals("1 wait-ended guard-1 guard patrol.watch left", guard1.get(0));
            assertEquals("1 transition guard-1 guard patrol.watch -> answer on BELL", guard1.get(1));

            List<String> world = describe(JSON.readTree(get(d, "/api/timeline?entity=world").body()));
            assertEquals(List.of("1 refused world siege WAVE_HELD"), world);

            List<String> guard3 = describe(JSON.readTree(get(d, "/api/timeline?entity=guard-3").body()));
            assertEquals("0 hold-on guard-3 - Stunned", guard3.get(0), "found at the start of the first step");
            assertTrue(guard3.contains("241 hold-off guard-3 - Stunned"), guard3.toString());

            List<String> bot = describe(JSON.readTree(get(d, "/api/timeline?entity=bot-1&machine=").body()));
            assertEquals("242 despawn bot-1 - ", bot.get(bot.size() - 1));

            JsonNode none = JSON.readTree(get(d, "/api/timeline?machine=weapon&entity=guard-1").body());
            assertEquals(0, none.get("entries").size(), "the filters are both applied");
            assertEquals(Timeline.CAPACITY, none.get("capacity").asInt());

            assertEquals(400, get(d, "/api/timeline?limit=0").statusCode());
            assertTrue(error(get(d, "/api/timeline?after=soon")).startsWith("after=soon: expected the number ('n') of the last entry"));
            assertEquals(405, http.send(HttpRequest.newBuilder(d.address().resolve("/api/timeline"))
                    .POST(HttpRequest.BodyPublishers.ofString("{}")).build(), HttpResponse.BodyHandlers.ofString()).statusCode());
        }
    }

    @Test
    void theTimelineKeepsItsLast10000EntriesAndSaysHowManyItDropped() throws Exception {
        try (Room room = new Room(); Devtools d = Devtools.serve(room.world, 0)) {
            watched(d);
            for (int i = 0; i < 6_000; i++) {
                Room.GUARD.send(room.guard1, "BELL");   // answer
                Room.GUARD.send(room.guard1, "RESUME"); // back to the patrol: two transitions, a wait ended
            }
            JsonNode t = JSON.readTree(get(d, "/api/timeline?limit=2000").body());
            long recorded = t.get("next").asLong() + 1;
            assertTrue(recorded > Timeline.CAPACITY, "more were recorded than are kept: " + recorded);
            assertEquals(recorded - Timeline.CAPACITY, t.get("dropped").asLong());
            assertEquals(2000, t.get("entries").size(), "an answer carries the newest that match, at most 2000");
            assertEquals(recorded - 1, t.get("entries").get(1999).get("n").asLong());
        }
    }

    @Test
    void devtoolsWatchesTheInputsBesideTheGamesInputLogAndNeverTakesItsPlace() throws Exception {
        String alone;
        try (Room room = new Room()) {
            InputLog log = InputLog.start(Saves.of(Room.GUARD, Room.SIEGE, Room.BOT), without(room));
            script(room);
            alone = log.text();
        }
        try (Room room = new Room()) {
            without(room);
            InputLog before = InputLog.start(Saves.of(Room.GUARD, Room.SIEGE, Room.BOT), room.world);
            try (Devtools d = Devtools.serve(room.world, 0)) {
                watched(d);
                assertSame(before, room.world.inputRecorder(), "the game's recorder is still the world's recorder");
                script(room);
                assertEquals(alone, before.text(), "the game's log is the same with the page watching");
                before.stop();
                assertNull(room.world.inputRecorder(), "and the log stops as it would without the page");
                InputLog after = InputLog.start(Saves.of(Room.GUARD, Room.SIEGE, Room.BOT), room.world);
                assertSame(after, room.world.inputRecorder());
                room.guard3.add(new Room.Stunned());
                room.world.step(Room.DT);
                room.guard3.removeType(Room.Stunned.class);
                room.world.step(Room.DT);
                assertTrue(after.text().contains("\"hold\""), "a log started after the page hears the inputs: " + after.text());
                List<String> guard3 = describe(JSON.readTree(get(d, "/api/timeline?entity=guard-3").body()));
                assertTrue(guard3.get(guard3.size() - 1).endsWith("hold-off guard-3 - Stunned"), "and so does the page: " + guard3);
            }
        }
    }

    /** A page looks, and the game publishes: from then on the timeline records (a world no page looked at pays nothing for it). */
    private void watched(Devtools d) throws Exception {
        get(d, "/api/snapshot");
        d.publish();
    }

    @Test
    void theTimelineRecordsNothingAndTheWorldHasNoListenerUntilAPageLooks() throws Exception {
        try (Room room = new Room(); Devtools d = Devtools.serve(room.world, 0)) {
            Room.GUARD.send(room.guard1, "BELL");
            d.publish();
            assertTrue(describe(JSON.readTree(get(d, "/api/timeline").body())).isEmpty(), "nothing before a page looked");
            watched(d);
            Room.GUARD.send(room.guard1, "RESUME");
            List<String> guard1 = describe(JSON.readTree(get(d, "/api/timeline?entity=guard-1").body()));
            assertEquals("0 transition guard-1 guard answer -> patrol.watch on RESUME", guard1.get(guard1.size() - 1), guard1.toString());
        }
    }

    /** The room without its unkeyed weapon, whose entity a checkpoint cannot name. */
    private static StateWorld without(Room room) {
        room.world.despawn(room.weapon);
        return room.world;
    }

    private static void script(Room room) {
        Room.GUARD.send(room.guard1, "BELL");
        room.run(1);
        room.guard3.removeType(Room.Stunned.class);
        room.run(1);
    }

    @Test
    void aKeptTickServesItsSnapshotItsRecordsDiffAndItsCheckpointAndAnUnknownTickIsRefusedNamingTheKeptOnes() throws Exception {
        try (Room room = new Room(); Devtools d = Devtools.serve(without(room), DevtoolsOptions.onPort(0).interval(Duration.ZERO))) {
            get(d, "/api/snapshot"); // a page is watching: every publish keeps its tick
            room.run(1);
            d.publish();
            Room.GUARD.send(room.guard1, "BELL");
            room.run(1);
            d.publish();

            JsonNode h = JSON.readTree(get(d, "/api/history").body());
            List<Long> ticks = new ArrayList<>();
            h.get("ticks").forEach(t -> ticks.add(t.get("tick").asLong()));
            assertEquals(List.of(0L, 60L, 120L), ticks);
            assertEquals(DevtoolsOptions.DEFAULT_HISTORY_TICKS, h.get("limit").asInt());

            JsonNode at60 = JSON.readTree(get(d, "/api/history/snapshot?tick=60").body());
            assertEquals(60, at60.get("steps").asLong(), "the room as it was at tick 60");
            assertEquals("guard: patrol.watch, 3 s left", RecordDiff.record(at60, "guard-1", "guard").get("fact").asText());

            JsonNode diff = JSON.readTree(get(d, "/api/diff?entity=guard-1&machine=guard&from=60&to=120").body());
            List<String> fields = new ArrayList<>();
            diff.get("changes").forEach(c -> fields.add(c.get("field").asText() + ": " + c.get("before") + " -> " + c.get("after")));
            assertTrue(fields.contains("state: \"patrol.watch\" -> \"answer\""), fields.toString());
            assertTrue(fields.contains("context.bells: 0 -> 1"), fields.toString());
            assertTrue(fields.contains("waiting: \"patrol.watch\" -> null"), fields.toString());

            HttpResponse<String> cp = get(d, "/api/checkpoint?tick=60");
            assertEquals(200, cp.statusCode());
            assertEquals("attachment; filename=\"checkpoint-tick-60.json\"", cp.headers().firstValue("Content-Disposition").orElse(""));
            try (StateWorld fresh = StateWorld.create("fresh")) {
                Saves.of(Room.SIEGE, Room.GUARD, Room.BOT).restoreSpawningMissing(fresh, cp.body());
                assertEquals(60, fresh.steps());
                assertEquals("patrol.watch", Room.GUARD.read(fresh.entity("guard-1")).state(), "the room as it was at tick 60");
            }

            HttpResponse<String> unknown = get(d, "/api/history/snapshot?tick=61");
            assertEquals(404, unknown.statusCode());
            assertEquals("tick 61 is not kept; kept ticks are 0 to 120 (3 of them) (the page keeps the last 300 ticks it showed)", error(unknown));
            assertEquals(404, get(d, "/api/checkpoint?tick=7").statusCode());
            assertEquals(404, get(d, "/api/diff?entity=guard-1&machine=guard&from=60&to=61").statusCode());
            assertEquals(400, get(d, "/api/checkpoint?tick=sixty").statusCode());
            assertEquals(400, get(d, "/api/checkpoint").statusCode());
            assertEquals(400, get(d, "/api/diff?from=60&to=120").statusCode(), "a diff names its record");
            assertEquals(400, get(d, "/api/history/snapshot?tick=60&tick=120").statusCode(), "a parameter given twice is ambiguous");
            HttpResponse<String> nobody = get(d, "/api/diff?entity=guard-9&machine=guard&from=60&to=120");
            assertEquals(404, nobody.statusCode());
            assertEquals("entity 'guard-9' held no 'guard' machine at tick 60 nor at tick 120; expected an entity and machine the page"
                    + " listed at one of them", error(nobody));
        }
    }

    @Test
    void aTickWhoseWorldCannotBeCheckpointedIsKeptAndItsDownloadSaysWhy() throws Exception {
        try (Room room = new Room(); Devtools d = Devtools.serve(room.world, 0)) {
            JsonNode h = JSON.readTree(get(d, "/api/history").body());
            assertFalse(h.get("ticks").get(0).get("checkpoint").asBoolean());
            HttpResponse<String> cp = get(d, "/api/checkpoint?tick=0");
            assertEquals(409, cp.statusCode());
            assertTrue(error(cp).startsWith("tick 0 was kept without a checkpoint: "), error(cp));
            assertEquals(200, get(d, "/api/history/snapshot?tick=0").statusCode(), "the page still shows it");
        }
    }

    @Test
    void theHistoryKeepsAtMostItsTicksAndItsBytes() throws Exception {
        try (Room room = new Room();
             Devtools d = Devtools.serve(without(room), DevtoolsOptions.onPort(0).interval(Duration.ZERO).history(5, 1L << 30))) {
            get(d, "/api/snapshot");
            for (int i = 0; i < 20; i++) {
                room.world.step(Room.DT);
                d.publish();
            }
            assertEquals(5, d.history().size());
            assertEquals(16, d.history().all().get(0).tick(), "the oldest go first");
        }
        try (Room room = new Room()) {
            Devtools d = Devtools.serve(without(room), DevtoolsOptions.onPort(0).interval(Duration.ZERO));
            long one = d.history().heldBytes();
            d.close(); // the first page goes before the small one serves the same world
            try (Devtools small = Devtools.serve(room.world, DevtoolsOptions.onPort(0).interval(Duration.ZERO).history(300, one * 3 + one / 2))) {
                get(small, "/api/snapshot");
                for (int i = 0; i < 20; i++) {
                    room.world.step(Room.DT);
                    small.publish();
                }
                assertEquals(3, small.history().size(), "three ticks fit the budget of three and a half");
                assertTrue(small.history().heldBytes() <= one * 3 + one / 2);
            }
        }
    }

    @Test
    void aReadOnlyPageRefusesPauseStepResumeAndEventsAndChangesNothing() throws Exception {
        try (Room room = new Room(); Devtools d = Devtools.serve(room.world, 0)) {
            for (String action : List.of("pause", "step", "resume")) {
                HttpResponse<String> r = post(d, "/api/control", "{\"action\":\"" + action + "\"}").get();
                assertEquals(403, r.statusCode());
                assertEquals("this devtools page is read-only, so the game's loop was not told to " + action + "; serve it with"
                        + " DevtoolsOptions.onPort(port).writable(true) to pause and step the game from the page", error(r));
            }
            assertFalse(d.isPaused());
            assertTrue(d.step(Room.DT), "the loop runs on");

            HttpResponse<String> e = post(d, "/api/event", "{\"entity\":\"guard-1\",\"machine\":\"guard\",\"event\":\"BELL\"}").get();
            assertEquals(403, e.statusCode());
            assertEquals("this devtools page is read-only, so 'BELL' was not sent to 'guard' on 'guard-1'; serve it with"
                    + " DevtoolsOptions.onPort(port).writable(true) to send events", error(e));
            d.publish();
            assertEquals("patrol.watch", Room.GUARD.read(room.guard1).state());
        }
    }

    @Test
    void theLoopStepsUnlessPausedAndOncePerStepAskedWhilePaused() throws Exception {
        try (Room room = new Room(); Devtools d = Devtools.serve(room.world, DevtoolsOptions.onPort(0).writable(true))) {
            assertTrue(d.step(Room.DT));
            assertEquals(1, room.world.steps());
            JsonNode paused = JSON.readTree(post(d, "/api/control", "{\"action\":\"pause\"}").get().body());
            assertTrue(paused.get("paused").asBoolean());
            assertTrue(paused.get("loop").asBoolean(), "the game's loop goes through Devtools.step");
            for (int i = 0; i < 10; i++) {
                assertFalse(d.step(Room.DT));
            }
            assertEquals(1, room.world.steps(), "paused: the loop does not step the world");

            post(d, "/api/control", "{\"action\":\"step\"}").get();
            post(d, "/api/control", "{\"action\":\"step\"}").get();
            for (int i = 0; i < 10; i++) {
                d.step(Room.DT);
            }
            assertEquals(3, room.world.steps(), "one step per step asked");
            assertTrue(d.history().at(3) != null, "a tick stepped from the page is kept");
            assertTrue(JSON.readTree(get(d, "/api/snapshot").body()).get("paused").asBoolean());

            for (int i = 0; i < Devtools.MAX_STEPS_ASKED; i++) {
                assertEquals(200, post(d, "/api/control", "{\"action\":\"step\"}").get().statusCode());
            }
            HttpResponse<String> more = post(d, "/api/control", "{\"action\":\"step\"}").get();
            assertEquals(503, more.statusCode(), "the steps asked ahead of the loop are bounded");

            post(d, "/api/control", "{\"action\":\"resume\"}").get();
            assertTrue(d.step(Room.DT));
            assertEquals(4, room.world.steps(), "resumed: the steps asked and not taken are dropped");
            assertFalse(d.isPaused());

            assertEquals(400, post(d, "/api/control", "{\"action\":\"rewind\"}").get().statusCode());
            assertEquals(400, post(d, "/api/control", "{\"action\":\"pause\"").get().statusCode(), "bad JSON");
            assertEquals(415, http.send(HttpRequest.newBuilder(d.address().resolve("/api/control")).header("Content-Type", "text/plain")
                    .POST(HttpRequest.BodyPublishers.ofString("{\"action\":\"pause\"}")).build(), HttpResponse.BodyHandlers.ofString()).statusCode());
            assertEquals(405, get(d, "/api/control").statusCode());
            assertFalse(d.isPaused(), "nothing refused changed the loop");
        }
    }

    @Test
    void anEventSentFromThePageMovesTheMachineAndAnUnknownEntityMachineOrEventIsRefusedNamingWhatWasExpected() throws Exception {
        try (Room room = new Room(); Devtools d = Devtools.serve(room.world, DevtoolsOptions.onPort(0).writable(true))) {
            HttpResponse<String> ok = publishUntil(d, post(d, "/api/event", "{\"entity\":\"guard-1\",\"machine\":\"guard\",\"event\":\"BELL\"}"));
            assertEquals(200, ok.statusCode(), ok.body());
            JsonNode a = JSON.readTree(ok.body());
            assertTrue(a.get("taken").asBoolean());
            assertEquals("guard: answer", a.get("record").get("fact").asText());
            assertEquals("answer", Room.GUARD.read(room.guard1).state());
            assertEquals(1, Room.GUARD.read(room.guard1).context().bells, "its actions ran");

            HttpResponse<String> event = publishUntil(d, post(d, "/api/event", "{\"entity\":\"guard-2\",\"machine\":\"guard\",\"event\":\"FIRE\"}"));
            assertEquals(422, event.statusCode());
            assertTrue(error(event).startsWith("machine 'guard' on 'guard-2' takes no event 'FIRE'; expected one of [BELL"), error(event));
            HttpResponse<String> entity = publishUntil(d, post(d, "/api/event", "{\"entity\":\"guard-9\",\"machine\":\"guard\",\"event\":\"BELL\"}"));
            assertEquals(404, entity.statusCode());
            assertTrue(error(entity).startsWith("no live entity of " + room.world + " is named 'guard-9', so 'BELL' was not sent"), error(entity));
            HttpResponse<String> machine = publishUntil(d, post(d, "/api/event", "{\"entity\":\"guard-2\",\"machine\":\"tower\",\"event\":\"BELL\"}"));
            assertEquals(404, machine.statusCode());
            assertTrue(error(machine).startsWith("no machine of " + room.world + " has id 'tower'; expected one of [siege, guard"), error(machine));
            assertEquals(400, post(d, "/api/event", "{\"entity\":\"guard-2\",\"machine\":\"guard\"}").get().statusCode());
            assertEquals(400, post(d, "/api/event", "{\"entity\":\"guard-2\",\"entity\":\"guard-1\",\"machine\":\"guard\",\"event\":\"BELL\"}")
                    .get().statusCode(), "a duplicate key is ambiguous");
            d.publish();
            assertEquals("patrol.watch", Room.GUARD.read(room.guard2).state(), "nothing refused changed the room");

            List<String> guard1 = describe(JSON.readTree(get(d, "/api/timeline?entity=guard-1").body()));
            assertEquals("0 transition guard-1 guard patrol.watch -> answer on BELL", guard1.get(guard1.size() - 1), "the timeline hears it");
        }
    }

    @Test
    void everyTimeTravelRouteRefusesAForeignHostAndAWriteFromAForeignOriginChangesNothing() throws Exception {
        try (Room room = new Room(); Devtools d = Devtools.serve(without(room), DevtoolsOptions.onPort(0).writable(true))) {
            int port = d.address().getPort();
            for (String path : List.of("/api/timeline", "/api/history", "/api/history/snapshot?tick=0", "/api/checkpoint?tick=0",
                    "/api/diff?entity=guard-1&machine=guard&from=0&to=0")) {
                assertEquals("HTTP/1.1 200 OK", RawHttp.status(port, RawHttp.get(path, "127.0.0.1:" + port)), path);
                assertTrue(RawHttp.status(port, RawHttp.get(path, "evil.example:" + port)).startsWith("HTTP/1.1 403 "), path);
            }
            for (String[] write : List.of(new String[] {"/api/event", "{\"entity\":\"guard-1\",\"machine\":\"guard\",\"event\":\"BELL\"}"},
                    new String[] {"/api/control", "{\"action\":\"pause\"}"})) {
                String request = "POST " + write[0] + " HTTP/1.1\r\nHost: 127.0.0.1:" + port + "\r\nOrigin: http://evil.example\r\n"
                        + "Content-Type: application/json\r\nContent-Length: " + write[1].length() + "\r\nConnection: close\r\n\r\n" + write[1];
                assertTrue(RawHttp.status(port, request).startsWith("HTTP/1.1 403 "), write[0]);
            }
            d.publish();
            d.step(Room.DT);
            assertFalse(d.isPaused(), "a foreign page cannot pause the loop");
            assertEquals("patrol.watch", Room.GUARD.read(room.guard1).state(), "nor send an event");
            String big = "{\"action\":\"" + "x".repeat(Limits.MAX_BODY_BYTES) + "\"}";
            String request = "POST /api/control HTTP/1.1\r\nHost: 127.0.0.1:" + port + "\r\nContent-Type: application/json\r\n"
                    + "Content-Length: " + big.length() + "\r\nConnection: close\r\n\r\n";
            assertTrue(RawHttp.status(port, request).startsWith("HTTP/1.1 413 "), "the body limit holds for the new writes");
        }
    }
}

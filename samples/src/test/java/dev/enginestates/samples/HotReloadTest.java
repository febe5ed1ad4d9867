package dev.enginestates.samples;

import dev.dominion.ecs.api.Entity;
import dev.enginestates.declare.Migration;
import dev.enginestates.declare.UnknownEvents;
import dev.enginestates.ecs.EntityKey;
import dev.enginestates.ecs.StateRecord;
import dev.enginestates.ecs.StateWorld;
import dev.enginestates.ecs.States;
import dev.enginestates.io.Saves;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.time.Duration;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertNotSame;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertTimeoutPreemptively;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The room's guards reloaded from their XState JSON file while the world runs: an edit swaps the
 * running world's records to the edited definition between steps, keeping states and waits; an
 * edit the world cannot take is reported and changes nothing; the watcher notices a write.
 */
class HotReloadTest {
    static final double DT = 1.0 / 60;

    @TempDir
    Path dir;
    Path file;
    StateWorld world;
    HotReload<Guard> reload;

    /** samples/guard.json, from the module's folder (Maven's) or the repository's. */
    static Path shipped() {
        Path inModule = Path.of("guard.json");
        return Files.exists(inModule) ? inModule : Path.of("samples", "guard.json");
    }

    @BeforeEach
    void start() throws IOException {
        file = dir.resolve("guard.json");
        Files.copy(shipped(), file);
        world = StateWorld.create("reload");
        reload = HotReload.start(world, file, Guard.fromJson());
    }

    @AfterEach
    void stop() {
        reload.close();
        world.close();
    }

    private Entity spawn(String key) {
        return world.spawn(EntityKey.of(key), reload.current().trait());
    }

    private void seconds(double s) {
        for (int i = 0, n = (int) Math.round(s / DT); i < n; i++) {
            world.step(DT);
        }
    }

    private StateRecord<Guard> read(Entity e) {
        return reload.current().read(e);
    }

    /** The shipped file with {@code from} replaced by {@code to}, written over the watched file. */
    private void edit(String from, String to) throws IOException {
        String text = Files.readString(shipped());
        assertTrue(text.contains(from), "the shipped file holds " + from);
        Files.writeString(file, text.replace(from, to));
    }

    private String checkpoint() {
        return Saves.of(reload.current()).checkpoint(world);
    }

    @Test
    void theShippedFileIsTheRoomsGuardWrittenAsJson() throws IOException {
        // the same chart as the typed Guard.MACHINE; the typed one refuses unknown events, which an import accepts by default
        assertEquals(Guard.MACHINE.fingerprint(),
                Guard.fromJson().unknownEvents(UnknownEvents.REJECT).read(shipped()).fingerprint());
    }

    @Test
    void anEditedWaitCountsFromTheSameStartForAWaitUnderWayAndWholeForAStateEnteredAfterTheReload() throws IOException {
        States<Guard> before = reload.current();
        Entity resting = spawn("resting");
        seconds(2.5);
        Entity late = spawn("late");
        seconds(2);                                     // resting watched 4 s and rests; late has watched 2 s
        Entity watching = spawn("watching");
        Entity answering = spawn("answering");
        reload.current().send(answering, "BELL");
        seconds(1);                                     // watching has watched 1 s, late 3 s
        assertEquals("PATROL.REST", read(resting).state());
        assertEquals(3.0, read(watching).secondsLeft(), 1e-9);
        Guard context = read(answering).context();

        edit("\"seconds\": 4,", "\"seconds\": 2,");
        HotReload.Outcome outcome = reload.reload();

        assertEquals(HotReload.Kind.RELOADED, outcome.kind(), outcome.message());
        assertTrue(outcome.message().contains("4 records of 'guard'"), outcome.message());
        assertNotSame(before, reload.current());
        assertTrue(world.records(before).isEmpty(), "no record of the definition before the edit is left");
        assertEquals(4, world.records(reload.current()).size(), "every record runs the edited definition");
        assertEquals("PATROL.REST", read(resting).state(), "states are kept");
        assertEquals("PATROL.WATCH", read(watching).state());
        assertEquals("PATROL.WATCH", read(late).state());
        assertEquals("ANSWER", read(answering).state());
        assertSame(context, read(answering).context(), "the context is kept");
        assertEquals(1, context.bells, "no entry action ran again");
        assertEquals(1.0, read(watching).secondsLeft(), 1e-9, "a wait under way keeps its start and runs to the edited 2 s");
        assertTrue(watching.has(reload.current().is("PATROL.WATCH")), "the tags are the edited definition's");

        world.step(DT);
        assertEquals("PATROL.REST", read(late).state(), "a watch longer than the edited 2 s already ends at the next step");
        assertEquals("PATROL.WATCH", read(watching).state());
        seconds(1);
        assertEquals("PATROL.REST", read(watching).state());
        seconds(8.5);                                   // resting's 10 s rest ended at 14 s, a second ago
        assertEquals("PATROL.WATCH", read(resting).state());
        assertEquals(1.0, read(resting).secondsLeft(), 2 * DT, "a watch entered after the edit waits the edited 2 s, not 4 s");
    }

    @Test
    void anAddedStateCanBeEnteredAfterTheReloadAndTheOthersKeepTheirs() throws IOException {
        Entity a = spawn("a");
        Entity b = spawn("b");
        reload.current().send(b, "BELL");
        seconds(2);
        edit("\"RESTART\": \"PATROL\"", "\"RESTART\": \"PATROL\",\n        \"HIDE\": \"HIDE\"");
        String text = Files.readString(file);
        Files.writeString(file, text.replace("    \"ANSWER\": {", "    \"HIDE\": {\n      \"on\": {\"SEEN\": \"ANSWER\"}\n    },\n"
                + "    \"ANSWER\": {"));

        assertEquals(HotReload.Kind.RELOADED, reload.reload().kind());

        assertEquals("PATROL.WATCH", read(a).state());
        assertEquals(2.0, read(a).secondsLeft(), 1e-9);
        assertTrue(reload.current().send(b, "HIDE"), "the answering guard takes the new event");
        assertEquals("HIDE", read(b).state(), "and enters the new state");
        assertTrue(b.has(reload.current().is("HIDE")));
        reload.current().send(b, "SEEN");
        assertEquals("ANSWER", read(b).state());
    }

    @Test
    void aFileThatDoesNotParseChangesNothingAndTheImportSaysWhere() throws IOException {
        Entity a = spawn("a");
        seconds(1.5);
        States<Guard> running = reload.current();
        String before = checkpoint();

        Files.writeString(file, "{ \"id\": \"guard\", \"initial\": ");
        HotReload.Outcome broken = reload.reload();

        assertEquals(HotReload.Kind.REFUSED, broken.kind());
        assertTrue(broken.message().contains("not valid JSON") && broken.message().contains("line 1"), broken.message());
        assertTrue(broken.message().contains("keeps running the definition it had"), broken.message());
        assertSame(running, reload.current());
        assertEquals(before, checkpoint(), "the world is unchanged");

        edit("\"then\": \"REST\"", "\"then\": \"NAP\"");
        HotReload.Outcome invalid = reload.reload();

        assertEquals(HotReload.Kind.REFUSED, invalid.kind());
        assertTrue(invalid.message().contains("NAP"), "the compiler names the target that is missing: " + invalid.message());
        assertEquals(before, checkpoint(), "the world is unchanged");
        seconds(3);
        assertEquals("PATROL.REST", read(a).state(), "and runs on in the definition it had");
    }

    @Test
    void anEditThatRenamesAStateAGuardIsInIsRefusedUntilTheGuardHasLeftIt() throws IOException {
        Entity watcher = spawn("watcher");
        Entity answering = spawn("answering");
        reload.current().send(answering, "BELL");
        seconds(1);
        States<Guard> running = reload.current();
        String before = checkpoint();
        String renamed = Files.readString(shipped()).replace("\"ANSWER\"", "\"RESPOND\"");
        Files.writeString(file, renamed);

        HotReload.Outcome refused = reload.reload();

        assertEquals(HotReload.Kind.REFUSED, refused.kind());
        assertTrue(refused.message().contains("'ANSWER'") && refused.message().contains("answering"),
                "the state and the entity are named: " + refused.message());
        assertTrue(refused.message().contains("nothing was changed"), refused.message());
        assertSame(running, reload.current());
        assertEquals(before, checkpoint(), "the world is unchanged");
        assertEquals(HotReload.Kind.UNCHANGED, reload.reload().kind(), "the same text is not tried twice");

        running.send(answering, "RESUME");
        Files.writeString(file, renamed + "\n");          // saved again, once no guard answers
        HotReload.Outcome taken = reload.reload();

        assertEquals(HotReload.Kind.RELOADED, taken.kind(), taken.message());
        assertEquals("PATROL.WATCH", read(watcher).state());
        reload.current().send(watcher, "BELL");
        assertEquals("RESPOND", read(watcher).state());
    }

    @Test
    void anEditThatRenamesAStateAGuardIsInIsTakenWithAMappingThatSaysWhereItWent() throws IOException {
        Entity resting = spawn("resting");
        seconds(5);                                      // rests with 9 s left
        String before = checkpoint();
        edit("\"REST\"", "\"NAP\"");
        assertEquals(HotReload.Kind.REFUSED, reload.reload().kind(), "a plain reload cannot place the resting guard");
        assertEquals(before, checkpoint());

        HotReload.Outcome taken = reload.reload(Migration.from(0).rename("PATROL.REST", "PATROL.NAP"));

        assertEquals(HotReload.Kind.RELOADED, taken.kind(), taken.message());
        assertEquals("PATROL.NAP", read(resting).state());
        assertEquals(9.0, read(resting).secondsLeft(), 1e-9, "a renamed state keeps its wait");
    }

    @Test
    void theWatcherNoticesAWriteAndAnEditorsSaveThatReplacesTheFile() {
        // the world is made and used on the thread the timeout runs the test on: a world belongs to one thread
        assertTimeoutPreemptively(Duration.ofSeconds(60), () -> {
            Path own = dir.resolve("watched").resolve("guard.json");
            Files.createDirectories(own.getParent());
            Files.copy(shipped(), own);
            try (StateWorld w = StateWorld.create("watched"); HotReload<Guard> r = HotReload.start(w, own, Guard.fromJson())) {
                Entity g = w.spawn(EntityKey.of("g"), r.current().trait());
                assertEquals(HotReload.Kind.UNCHANGED, r.reloadIfChanged().kind(), "nothing written yet");

                Files.writeString(own, Files.readString(shipped()).replace("\"seconds\": 10,", "\"seconds\": 12,"));
                assertEquals(HotReload.Kind.RELOADED, untilSomething(r).kind());
                assertEquals(1, w.records(r.current()).size());
                String first = r.current().machine().fingerprint();

                Path saved = own.resolveSibling("guard.json.tmp");
                Files.writeString(saved, Files.readString(shipped()).replace("\"seconds\": 10,", "\"seconds\": 14,"));
                Files.move(saved, own, StandardCopyOption.REPLACE_EXISTING, StandardCopyOption.ATOMIC_MOVE);
                assertEquals(HotReload.Kind.RELOADED, untilSomething(r).kind());
                assertNotEquals(first, r.current().machine().fingerprint(), "the 14 s rest is the one running");
                assertEquals("PATROL.WATCH", r.current().read(g).state());
            }
        });
    }

    @Test
    void theRoomReadingTheShippedFileMovesAsTheRoomWithTheTypedGuardAndSaysItWatchesTheFile() {
        List<String> typed = table(() -> Main.room(null, false, new ByteArrayInputStream(new byte[0])), false);
        List<String> fromFile = table(() -> Main.room(null, file, false, new ByteArrayInputStream(new byte[0])), true);
        assertEquals(60, typed.size(), String.join("\n", typed));
        assertEquals(typed, fromFile, "the same counts in every game second");
    }

    /** What a room prints: the hot reload's lines, and of each game second's line its counts (not its timings). */
    private static List<String> table(Runnable room, boolean watching) {
        PrintStream before = System.out;
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        System.setOut(new PrintStream(out, true, StandardCharsets.UTF_8));
        try {
            room.run();
        } finally {
            System.setOut(before);
        }
        List<String> lines = out.toString(StandardCharsets.UTF_8).lines().toList();
        List<String> reloads = lines.stream().filter(l -> l.startsWith("hot reload: ")).toList();
        assertEquals(watching ? 1 : 0, reloads.size(), "the line saying the file is watched, and no reload without an edit: "
                + reloads);
        if (watching) {
            assertTrue(reloads.get(0).contains("guard.json; save an edit to it"), reloads.get(0));
        }
        return lines.stream().filter(l -> l.endsWith(" µs") && !l.contains("step mean"))
                .map(l -> l.replaceAll(" +[0-9.]+ µs", "")).toList();
    }

    /** Polls as a game loop would, between steps, until the watcher reports the file changed. */
    private static HotReload.Outcome untilSomething(HotReload<Guard> r) throws InterruptedException {
        while (true) {
            HotReload.Outcome o = r.reloadIfChanged();
            if (o.kind() != HotReload.Kind.UNCHANGED) {
                return o;
            }
            Thread.sleep(20);
        }
    }
}

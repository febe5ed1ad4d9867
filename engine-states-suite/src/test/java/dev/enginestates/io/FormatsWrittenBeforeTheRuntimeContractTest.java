package dev.enginestates.io;

import dev.enginestates.ecs.StateRecord;
import dev.enginestates.ecs.StateWorld;
import dev.enginestates.ecs.States;
import org.junit.jupiter.api.Test;

import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;

import static dev.enginestates.io.PreRuntimeMachines.BOT;
import static dev.enginestates.io.PreRuntimeMachines.DOOR;
import static dev.enginestates.io.PreRuntimeMachines.GUARD;
import static dev.enginestates.io.PreRuntimeMachines.steps;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Checkpoints, dumps, input logs and stream frames written by the code from before the runtime
 * contract (the files under {@code fixtures/pre-runtime/}, made by {@link PreRuntimeFixturesWriter}
 * on commit 4320203 with the machines and play of {@link PreRuntimeMachines}) restore, replay and
 * apply today into the same records: the same states, clocks and contexts, and the same text
 * when written again.
 */
class FormatsWrittenBeforeTheRuntimeContractTest {

    private static String fixture(String name) {
        try (InputStream in = FormatsWrittenBeforeTheRuntimeContractTest.class.getResourceAsStream("/fixtures/pre-runtime/" + name)) {
            assertTrue(in != null, "fixture " + name);
            return new String(in.readAllBytes(), StandardCharsets.UTF_8);
        } catch (IOException e) {
            throw new AssertionError(e);
        }
    }

    /** A checkpoint without the machines' versions, which checkpoints written before versions existed lack. */
    private static String withoutVersions(String checkpoint) {
        return checkpoint.replaceFirst("(?s)\n  \"machines\" : \\{.*?\n  \\},", "");
    }

    /** The fixture's checkpoint restored, its log replayed and its frames applied: each writes the fixture's checkpoint again. */
    private static void eachFormatGivesTheSameWorld(String style, States<?> machine, java.util.function.Consumer<StateWorld> check)
            throws IOException {
        Saves saves = Saves.of(machine);
        String checkpoint = fixture(style + "-checkpoint.json");
        try (StateWorld restored = StateWorld.create(); StateWorld replayed = StateWorld.create(); StateWorld replica = StateWorld.create()) {
            saves.restoreSpawningMissing(restored, checkpoint);
            String written = saves.checkpoint(restored);
            com.fasterxml.jackson.databind.JsonNode named = Json.mapper().readTree(written).path("machines").path(machine.id());
            assertEquals(0, named.path("version").asInt(-1), style + ": written again, it names the machine's version: " + written);
            assertEquals(machine.machine().fingerprint(), named.path("fingerprint").asText(), style + ": and its fingerprint");
            assertEquals(checkpoint, withoutVersions(written), style + ": the checkpoint restores and writes back byte for byte,"
                    + " but for the versions it now names");
            assertEquals(fixture(style + "-dump.json"), saves.dump(restored), style + ": the restored world dumps as the old code dumped it");
            check.accept(restored);

            InputLog.replay(saves, replayed, fixture(style + "-inputs.json"));
            assertEquals(checkpoint, withoutVersions(saves.checkpoint(replayed)), style + ": the input log replays to the same records");
            check.accept(replayed);

            Replica r = Replica.of(replica, "p1", machine);
            r.apply(fixture(style + "-stream-whole.json"));
            r.apply(fixture(style + "-stream-changes.json"));
            assertEquals(checkpoint, withoutVersions(saves.checkpoint(replica)), style + ": the whole frame and the frame of changes give the"
                    + " same records");
            check.accept(replica);
        }
    }

    @Test
    void xstateStyleCheckpointsDumpsLogsAndFramesFromBeforeTheContractReadTheSame() throws IOException {
        eachFormatGivesTheSameWorld("xstate", GUARD, w -> {
            StateRecord<PreRuntimeMachines.Guard> g1 = GUARD.read(w.entity("g1"));
            StateRecord<PreRuntimeMachines.Guard> g2 = GUARD.read(w.entity("g2"));
            assertEquals("alert.search", g1.state(), "g1 came back through alert's history");
            assertEquals(1, g1.context().bells);
            assertEquals("tired", g1.context().mood);
            assertEquals(2.0, g1.timeIn("alert.search"), 1e-9, "entered 2 s before the end");
            assertEquals("alert.look", g2.state());
            assertEquals(2.0, g2.waited(), 1e-9);
            assertEquals(3.0, g2.secondsLeft(), 1e-9);
        });
        // and the wait goes on where it was: three seconds more end it
        Saves saves = Saves.of(GUARD);
        try (StateWorld w = StateWorld.create()) {
            saves.restoreSpawningMissing(w, fixture("xstate-checkpoint.json"));
            steps(w, 179);
            assertEquals("alert.look", GUARD.read(w.entity("g2")).state());
            steps(w, 1);
            assertEquals("alert.search", GUARD.read(w.entity("g2")).state());
        }
    }

    @Test
    void polledCheckpointsDumpsLogsAndFramesFromBeforeTheContractReadTheSame() throws IOException {
        eachFormatGivesTheSameWorld("polled", BOT, w -> {
            StateRecord<PreRuntimeMachines.Bot> b1 = BOT.read(w.entity("b1"));
            StateRecord<PreRuntimeMachines.Bot> b2 = BOT.read(w.entity("b2"));
            StateRecord<PreRuntimeMachines.Bot> b3 = BOT.read(w.entity("b3"));
            assertEquals("combat.aim", b1.state());
            assertEquals(1, b1.context().aims);
            assertEquals(1.5166666666666662, b1.timeIn("combat"), 1e-12, "the clock of combat, as written");
            assertEquals(0.0, b1.secondsLeft(), "combat's after is spent");
            assertEquals("flinch", b2.state());
            assertEquals(3, b2.context().hits, "the argument of the logged send");
            assertEquals(0.2 - 7 * PreRuntimeMachines.DT, b2.secondsLeft(), 1e-9);
            assertEquals("combat.watch", b3.state(), "the logged go");
            assertTrue(b3.context().target, "the send logged with a bare name");
        });
        Saves saves = Saves.of(BOT);
        try (StateWorld w = StateWorld.create()) {
            saves.restoreSpawningMissing(w, fixture("polled-checkpoint.json"));
            steps(w, 120);
            assertEquals(1, BOT.read(w.entity("b1")).context().aims, "the spent after does not fire again");
            assertEquals("patrol", BOT.read(w.entity("b2")).state(), "$back to the previous leaf");
            assertEquals("combat.aim", BOT.read(w.entity("b3")).state(), "combat's after fired on its clock");
        }
    }

    @Test
    void builderStyleCheckpointsDumpsLogsAndFramesFromBeforeTheContractReadTheSame() throws IOException {
        eachFormatGivesTheSameWorld("builder", DOOR, w -> {
            StateRecord<PreRuntimeMachines.Door> d1 = DOOR.read(w.entity("d1"));
            StateRecord<PreRuntimeMachines.Door> d2 = DOOR.read(w.entity("d2"));
            assertEquals("Opening", d1.state());
            assertEquals(0.699999988079071f, d1.context().timeInState(), "the float clock, as written");
            assertEquals(0.9111111164093018f, d1.context().previousProgress());
            assertEquals("Closing", d2.state(), "the logged transitionTo");
            assertEquals(0.10000000149011612f, d2.context().timeInState());
        });
        Saves saves = Saves.of(DOOR);
        try (StateWorld w = StateWorld.create()) {
            saves.restoreSpawningMissing(w, fixture("builder-checkpoint.json"));
            steps(w, 5);
            assertEquals("Open", DOOR.read(w.entity("d1")).state());
            assertEquals(1, DOOR.read(w.entity("d1")).context().opened);
        }
    }
}

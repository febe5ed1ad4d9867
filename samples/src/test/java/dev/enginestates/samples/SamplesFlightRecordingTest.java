package dev.enginestates.samples;

import dev.enginestates.ecs.EntityKey;
import dev.enginestates.ecs.StateWorld;
import dev.enginestates.ecs.States;
import dev.enginestates.io.RoomStream;
import dev.enginestates.io.Saves;
import jdk.jfr.Recording;
import jdk.jfr.consumer.RecordedEvent;
import jdk.jfr.consumer.RecordingFile;
import org.junit.jupiter.api.Test;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.stream.Collectors;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTimeoutPreemptively;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * A flight recording of the samples' main job shows engine-states' events: its room's steps, each
 * machine's share, state changes, slow game code (threshold 0 here, so every call is one); a small
 * room beside it checkpoints, restores, streams and fails a machine, which the main does not.
 */
class SamplesFlightRecordingTest {

    @Test
    void aFlightRecordingOfTheSamplesMainShowsEveryEngineStatesEvent() throws Exception {
        Path file = Files.createTempFile("samples", ".jfr");
        try (Recording recording = new Recording()) {
            for (String name : List.of("Step", "MachineStep", "Transition", "Failure", "Checkpoint", "Restore", "StreamFrame")) {
                recording.enable("dev.enginestates." + name);
            }
            recording.enable("dev.enginestates.SlowCode").withThreshold(Duration.ZERO);
            recording.start();
            PrintStream out = System.out;
            System.setOut(new PrintStream(new ByteArrayOutputStream(), true, StandardCharsets.UTF_8));
            try {
                assertTimeoutPreemptively(Duration.ofMinutes(5), () -> Main.main(new String[0]));
            } finally {
                System.setOut(out);
            }
            saveStreamAndFail();
            recording.stop();
            recording.dump(file);
            Map<String, List<RecordedEvent>> events = RecordingFile.readAllEvents(file).stream()
                    .filter(e -> e.getEventType().getName().startsWith("dev.enginestates."))
                    .collect(Collectors.groupingBy(e -> e.getEventType().getName().substring("dev.enginestates.".length())));
            assertEquals(Set.of("Step", "MachineStep", "Transition", "SlowCode", "Failure", "Checkpoint", "Restore", "StreamFrame"),
                    events.keySet(), "every event type is in the recording");

            List<RecordedEvent> roomSteps = events.get("Step").stream().filter(e -> "room".equals(e.getString("world"))).toList();
            assertEquals(3_600, roomSteps.size(), "the room's minute at 60 Hz");
            assertTrue(roomSteps.stream().mapToLong(e -> e.getLong("step")).max().orElse(0) == 3_600);
            assertTrue(roomSteps.stream().mapToInt(e -> e.getInt("transitions")).sum() > 1_000, "guards moved");
            assertTrue(roomSteps.stream().allMatch(e -> e.getDouble("dt") > 0 && e.getInt("machines") == 2));
            Set<String> machines = events.get("MachineStep").stream().map(e -> e.getString("machine")).collect(Collectors.toSet());
            assertTrue(machines.containsAll(Set.of("guard", "siege")), "the samples' machines: " + machines);
            assertTrue(events.get("Transition").stream().anyMatch(e -> "guard".equals(e.getString("machine"))
                    && !e.getString("from").isEmpty() && !e.getString("to").isEmpty()), "the guards' state changes");
            assertTrue(events.get("SlowCode").stream().anyMatch(e -> "guard".equals(e.getString("machine"))
                    && !e.getString("code").isEmpty()), "the guards' code, every call at threshold 0");
            RecordedEvent checkpoint = events.get("Checkpoint").get(0);
            assertTrue(checkpoint.getLong("bytes") > 0 && checkpoint.getInt("records") == 4, "checkpoint: " + checkpoint);
            assertTrue(events.get("Restore").get(0).getLong("bytes") == checkpoint.getLong("bytes"));
            assertTrue(events.get("StreamFrame").stream().anyMatch(e -> e.getBoolean("whole") && e.getLong("bytes") > 0));
            RecordedEvent failure = events.get("Failure").get(0);
            assertEquals("jammed", failure.getString("machine"));
            assertEquals("the cannon jammed", failure.getString("message"));
        } finally {
            Files.deleteIfExists(file);
        }
    }

    @Test
    void theMetricsPagesStreamHandsEachMachinesShareOfAStepToTheGamesTimer() throws Exception {
        java.util.concurrent.ConcurrentHashMap<String, Integer> seen = new java.util.concurrent.ConcurrentHashMap<>();
        java.util.concurrent.CountDownLatch guards = new java.util.concurrent.CountDownLatch(60);
        var stream = dev.enginestates.samples.docs.Metrics.machineTimes((machine, took) -> {
            seen.merge(machine, 1, Integer::sum);
            if (machine.equals("guard")) {
                guards.countDown();
            }
        });
        try {
            assertTimeoutPreemptively(Duration.ofSeconds(60), () -> {
                try (StateWorld world = StateWorld.create("metrics")) { // made on the thread that steps it
                    world.spawn(EntityKey.of("ada"), GuardSample.GUARD.trait());
                    while (guards.getCount() > 0) { // the stream reads the recording a chunk at a time: step until it has heard 60
                        world.step(1 / 60.0);
                        Thread.sleep(1);
                    }
                }
            });
        } finally {
            stream.close(); // the recording stream stops with the test
        }
        assertTrue(seen.getOrDefault("guard", 0) >= 60, "the guard's share of each step reached the timer: " + seen);
    }

    /** What the main does not: a checkpoint and its restore, a stream's frames, a machine whose action throws. */
    private static void saveStreamAndFail() {
        States<Guard> guards = GuardSample.GUARD;
        States<Object> jammed = States.define("jammed", Object::new, m -> m
                .initial("loaded")
                .state("loaded", s -> s.waitFor(0.1, t -> t.target("fired").action((c, e) -> {
                    throw new IllegalStateException("the cannon jammed");
                })))
                .state("fired"));
        Saves saves = Saves.of(guards, jammed);
        try (StateWorld world = StateWorld.create("keep"); StateWorld again = StateWorld.create("keep-again")) {
            for (String name : List.of("ada", "bo", "cy")) {
                world.spawn(EntityKey.of(name), guards.trait());
            }
            world.spawn(EntityKey.of("cannon"), jammed.trait());
            world.onFailure(f -> { });
            for (int i = 0; i < 30; i++) {
                world.step(1 / 60.0);
            }
            RoomStream stream = RoomStream.of(world, guards);
            stream.join("alice");
            stream.frames();
            saves.restoreSpawningMissing(again, saves.checkpoint(world));
        }
    }
}

package dev.enginestates.ecs;

import dev.enginestates.Allocations;
import dev.enginestates.Flights;
import dev.dominion.ecs.api.Entity;
import jdk.jfr.consumer.RecordedEvent;
import org.junit.jupiter.api.Test;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;

import static dev.enginestates.Flights.named;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * A world tells JDK Flight Recorder what its steps cost: each step, each machine's share, state
 * changes (off unless enabled), failures and game code slower than a threshold. With a recording
 * of the events enabled by default, the step still allocates nothing (with none,
 * {@code StepAllocationTest} says so).
 */
class FlightRecorderEventsTest {
    static final class Ctx {
        int moves;
        boolean slow;
    }

    static final States<Ctx> CYCLE = States.define("flightCycle", Ctx::new, m -> m
            .tags(false)
            .initial("on")
            .state("on", s -> s.waitFor(1, t -> t.target("off").action((c, e) -> c.moves++)))
            .state("off", s -> s.waitFor(1, t -> t.target("on").action((c, e) -> c.moves++))));

    static final States<Ctx> IDLE = States.define("flightIdle", Ctx::new, m -> m
            .initial("a")
            .state("a", s -> s.on("GO", t -> t.target("b").guard((c, e) -> !c.slow || sleep())))
            .state("b"));

    private static boolean sleep() {
        try {
            Thread.sleep(5);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
        return true;
    }

    @Test
    void eachStepIsRecordedWithItsNumberSecondsAndEachMachinesShare() {
        try (StateWorld world = StateWorld.create("flight-room")) {
            for (int i = 0; i < 10; i++) {
                world.spawn(CYCLE.trait());
            }
            world.spawn(IDLE.trait());
            List<RecordedEvent> events = Flights.record(r -> {
                r.enable("dev.enginestates.Step");
                r.enable("dev.enginestates.MachineStep");
            }, () -> {
                for (int i = 0; i < 90; i++) {
                    world.step(1 / 60.0);
                }
            });
            List<RecordedEvent> steps = new ArrayList<>(named(events, "Step"));
            steps.sort(java.util.Comparator.comparingLong(e -> e.getLong("step"))); // a recording's file is not in time order
            assertEquals(90, steps.size(), "one event per step");
            assertEquals("flight-room", steps.get(0).getString("world"));
            assertEquals("step", steps.get(0).getString("call"));
            assertEquals(1, steps.get(0).getLong("step"));
            assertEquals(90, steps.get(89).getLong("step"));
            assertEquals(1 / 60.0, steps.get(0).getDouble("dt"), 1e-12);
            assertEquals(2, steps.get(0).getInt("machines"));
            assertEquals(10, steps.stream().mapToInt(e -> e.getInt("transitions")).sum(), "the ten waits ended once, at 1 s");
            List<RecordedEvent> shares = named(events, "MachineStep");
            assertEquals(180, shares.size(), "each machine type's share of each step");
            assertEquals(10, shares.stream().filter(e -> e.getString("machine").equals("flightCycle"))
                    .mapToInt(e -> e.getInt("records")).sum(), "records stepped: the ten waits that ended");
            assertEquals(0, shares.stream().filter(e -> e.getString("machine").equals("flightIdle"))
                    .mapToInt(e -> e.getInt("records")).sum(), "an idle machine is stepped by nobody");
        }
    }

    @Test
    void stateChangesAreRecordedOnlyWhenTheTransitionEventIsEnabled() {
        try (StateWorld world = StateWorld.create()) {
            Entity e = world.spawn(EntityKey.of("cannon-1"), CYCLE.trait());
            List<RecordedEvent> defaults = Flights.record(r -> r.enable("dev.enginestates.Step"), () -> {
                for (int i = 0; i < 70; i++) {
                    world.step(1 / 60.0);
                }
            });
            assertEquals(0, named(defaults, "Transition").size(), "off unless enabled: a busy room has thousands a second");
            List<RecordedEvent> on = Flights.record(r -> r.enable("dev.enginestates.Transition"), () -> {
                for (int i = 0; i < 70; i++) {
                    world.step(1 / 60.0);
                }
            });
            List<RecordedEvent> moves = named(on, "Transition");
            assertEquals(1, moves.size(), "one wait ended in those 70 steps: " + moves);
            RecordedEvent t = moves.get(0);
            assertEquals("flightCycle", t.getString("machine"));
            assertTrue(t.getString("entity").contains("cannon-1"), t.getString("entity"));
            assertEquals("off", t.getString("from"));
            assertEquals("on", t.getString("to"));
            assertEquals("states.wait", t.getString("event"));
            assertTrue(CYCLE.read(e).context().moves >= 2);
            world.step(1 / 60.0);
            assertTrue(!world.listeners.any(), "the first step after the recording takes its listener off: moves spell out no states");
        }
    }

    @Test
    void gameCodeSlowerThanTheThresholdIsRecordedWithItsMachineStateAndEvent() {
        try (StateWorld world = StateWorld.create()) {
            Entity fast = world.spawn(EntityKey.of("fast"), IDLE.trait());
            Entity slow = world.spawn(EntityKey.of("slow"), IDLE.trait());
            IDLE.read(slow).context().slow = true;
            List<RecordedEvent> events = Flights.record(r -> r.enable("dev.enginestates.SlowCode").withThreshold(Duration.ofMillis(1)),
                    () -> {
                        IDLE.send(fast, "GO");
                        IDLE.send(slow, "GO");
                    });
            List<RecordedEvent> slowCode = named(events, "SlowCode");
            assertEquals(1, slowCode.size(), "only the guard that slept 5 ms is over 1 ms: " + slowCode);
            RecordedEvent s = slowCode.get(0);
            assertEquals("flightIdle", s.getString("machine"));
            assertTrue(s.getString("entity").contains("slow"), s.getString("entity"));
            assertEquals("a", s.getString("state"));
            assertEquals("GO", s.getString("event"));
            assertTrue(s.getString("code").startsWith("guard"), s.getString("code"));
            assertTrue(s.getDuration().toMillis() >= 1, "its duration is the call's: " + s.getDuration());

            Entity other = world.spawn(IDLE.trait());
            List<RecordedEvent> all = Flights.record(r -> r.enable("dev.enginestates.SlowCode").withThreshold(Duration.ZERO),
                    () -> IDLE.send(other, "GO"));
            assertEquals(1, named(all, "SlowCode").size(), "threshold 0: every call of the game's code, here the one guard");
        }
    }

    @Test
    void aFailureIsRecordedWithItsMachineEntityStateEventAndException() {
        try (StateWorld world = StateWorld.create()) {
            States<Ctx> failing = States.define("flightFailing", Ctx::new, m -> m
                    .initial("loaded")
                    .state("loaded", s -> s.waitFor(0.5, t -> t.target("fired").action((c, e) -> {
                        throw new IllegalStateException("the cannon jammed");
                    })))
                    .state("fired"));
            world.spawn(EntityKey.of("cannon-9"), failing.trait());
            List<MachineFailure> handed = new ArrayList<>();
            world.onFailure(handed::add);
            List<RecordedEvent> events = Flights.record(r -> r.enable("dev.enginestates.Failure"), () -> {
                for (int i = 0; i < 60; i++) {
                    world.step(1 / 60.0);
                }
            });
            List<RecordedEvent> failures = named(events, "Failure");
            assertEquals(1, handed.size());
            assertEquals(1, failures.size(), "what the handler got: " + failures);
            RecordedEvent f = failures.get(0);
            assertEquals("flightFailing", f.getString("machine"));
            assertTrue(f.getString("entity").contains("cannon-9"), f.getString("entity"));
            assertEquals(handed.get(0).statePath(), f.getString("state"));
            assertEquals("states.wait", f.getString("event"));
            assertEquals(IllegalStateException.class.getName(), f.getString("exception"));
            assertEquals("the cannon jammed", f.getString("message"));
            assertEquals(30, f.getLong("step"));
        }
    }

    @Test
    void aRecordingOfTheDefaultEventsAllocatesNothingOnTheStep() {
        try (StateWorld world = StateWorld.create()) {
            for (int i = 0; i < 1_000; i++) {
                world.spawn(CYCLE.trait());
            }
            long[] bytes = new long[1];
            List<RecordedEvent> events = Flights.record(r -> {
                r.enable("dev.enginestates.Step");
                r.enable("dev.enginestates.MachineStep");
                r.enable("dev.enginestates.Failure");
                r.enable("dev.enginestates.SlowCode"); // each action timed: its timer is reused
            }, () -> bytes[0] = Allocations.warmThenMeasure(Allocations.steps(world)));
            assertTrue(named(events, "Step").size() > 600, "the steps were recorded");
            assertTrue(bytes[0] <= Allocations.MEASUREMENT_MARGIN,
                    "600 steps of 1,000 machines moving once a second, recorded, allocated " + bytes[0] + " B");
        }
    }
}

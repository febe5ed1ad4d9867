package dev.enginestates.ecs;

import dev.dominion.ecs.api.Entity;
import dev.enginestates.Fixtures;
import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** A tool watches a world's inputs beside its one recorder, and never takes the recorder's place. */
class InputWatchersTest {
    /** The guard's context. */
    public static final class Patrol {
    }

    static final States<Patrol> GUARD = States.define("guard", Patrol::new, Fixtures.<Patrol>guard());

    /** Writes what it hears as lines. */
    static final class Heard implements WorldInputs {
        final List<String> lines = new ArrayList<>();

        @Override
        public void spawned(Entity entity, StateRecord<?>[] records) {
            lines.add("spawned " + StateWorld.nameOf(entity));
        }

        @Override
        public void sent(StateRecord<?> record, String event, Object[] args) {
            lines.add("sent " + event);
        }

        @Override
        public void sent(StateRecord<?> record, dev.enginestates.declare.Event event) {
            lines.add("sent " + event.type());
        }

        @Override
        public void holdChanged(Entity entity, Class<?> component, boolean on) {
            lines.add("hold " + component.getSimpleName() + " " + on);
        }

        @Override
        public void stepped(double dt) {
            lines.add("stepped");
        }
    }

    @Test
    void aWatcherHearsEveryInputAfterTheRecorderWhichStaysTheWorldsRecorder() {
        try (StateWorld world = StateWorld.create("watched")) {
            Heard recorder = new Heard();
            Heard watcher = new Heard();
            world.recordInputs(recorder);
            world.watchInputs(watcher);
            assertSame(recorder, world.inputRecorder(), "the watcher never takes the recorder's place");

            Entity g = world.spawn(EntityKey.of("guard-1"), GUARD.trait(), MachinePaused.INSTANCE);
            GUARD.send(g, "BELL");
            world.step(1 / 60.0);
            assertEquals(List.of("spawned guard-1", "sent BELL", "hold MachinePaused true", "stepped"), recorder.lines);
            assertEquals(recorder.lines, watcher.lines);

            world.recordInputs(null);
            assertNull(world.inputRecorder());
            world.step(1 / 60.0);
            assertEquals(4, recorder.lines.size(), "a recorder taken away hears nothing more");
            assertEquals("stepped", watcher.lines.get(watcher.lines.size() - 1), "the watcher still hears");

            assertTrue(world.unwatchInputs(watcher));
            assertFalse(world.unwatchInputs(watcher));
            int heard = watcher.lines.size();
            world.step(1 / 60.0);
            assertEquals(heard, watcher.lines.size(), "an unwatched watcher hears nothing more");
        }
    }

    @Test
    void aWatcherAddedBesideARecorderDoesNotMakeTheRecorderHearTheHoldsAgain() {
        try (StateWorld world = StateWorld.create("watched")) {
            Heard recorder = new Heard();
            world.recordInputs(recorder);
            world.spawn(EntityKey.of("guard-1"), GUARD.trait(), MachinePaused.INSTANCE);
            world.step(1 / 60.0);
            world.watchInputs(new Heard());
            world.step(1 / 60.0);
            assertEquals(List.of("spawned guard-1", "hold MachinePaused true", "stepped", "stepped"), recorder.lines);
        }
    }

    @Test
    void aWatcherAddedWhileNothingHeardTheInputsHearsTheHoldsInForce() {
        try (StateWorld world = StateWorld.create("watched")) {
            world.spawn(EntityKey.of("guard-1"), GUARD.trait(), MachinePaused.INSTANCE);
            world.step(1 / 60.0);
            Heard watcher = new Heard();
            world.watchInputs(watcher);
            world.step(1 / 60.0);
            assertEquals(List.of("hold MachinePaused true", "stepped"), watcher.lines);
        }
    }
}

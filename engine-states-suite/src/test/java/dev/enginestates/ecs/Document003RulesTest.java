package dev.enginestates.ecs;

import dev.dominion.ecs.api.Dominion;
import dev.dominion.ecs.api.Entity;
import dev.enginestates.Fixtures;
import dev.enginestates.declare.InvalidMachineException;
import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Rules of the 003 document ("States") that {@link Document003ExamplesTest} and the other ECS
 * tests left unpinned, found by reading the document sentence by sentence. Each test quotes the
 * sentence it holds the library to.
 */
class Document003RulesTest {
    static final double DT = 1.0 / 60;

    static final class Seen {
        final List<String> lines = new ArrayList<>();
    }

    static final class Siren {
    }

    /** Each action writes down the state its own record holds while it runs. */
    static final States<Seen> WRITTEN = States.define("written", Seen::new, m -> m
            .initial("a")
            .state("a", s -> s
                    .exit((c, e, self) -> c.lines.add("exit a sees " + valueOf(self.machine())))
                    .on("GO", t -> t.target("b").action((c, e, self) -> c.lines.add("action sees " + valueOf(self.machine())))))
            .state("b", s -> s
                    .entry((c, e, self) -> c.lines.add("entry b sees " + valueOf(self.machine())))
                    .waitFor(1, t -> t.target("c").action((c, e, self) -> c.lines.add("wait's action sees " + valueOf(self.machine())))))
            .state("c", s -> s
                    .entry((c, e, self) -> c.lines.add("entry c sees " + valueOf(self.machine())))));

    static Object valueOf(Object record) {
        return ((StateRecord<?>) record).value();
    }

    /** A world-level machine whose when test writes down the entity and the world it is handed. */
    static final Object[] HANDED = new Object[2];

    static final States<Seen> PHASES = States.define("phases", Seen::new, m -> m
            .initial("calm")
            .state("calm", s -> s.when(EntityCondition.of((c, entity, world) -> {
                HANDED[0] = entity;
                HANDED[1] = world;
                return entity.has(Siren.class);
            }), "alarm"))
            .state("alarm"));

    static final States<Seen> GUARD = States.define("rules-guard", Seen::new, Fixtures.guard());

    /**
     * "An action on a transition, an entry or an exit runs once the new state is written." The
     * exit of the state left, the transition's action and the entry of the state entered each
     * read the record, and each sees the state the move goes to, on a send and on a wait alike.
     */
    @Test
    void anActionOnATransitionAnEntryOrAnExitRunsOnceTheNewStateIsWritten() {
        try (StateWorld world = StateWorld.create()) {
            Entity e = world.spawn(WRITTEN.trait());
            assertTrue(WRITTEN.send(e, "GO"));
            assertEquals(List.of("exit a sees b", "action sees b", "entry b sees b"), WRITTEN.read(e).context().lines);
            WRITTEN.read(e).context().lines.clear();
            for (int i = 0; i < 60; i++) {
                world.step(DT);
            }
            assertEquals(List.of("wait's action sees c", "entry c sees c"), WRITTEN.read(e).context().lines);
        }
    }

    /**
     * "A test takes the entity, the world's own for the world's machine, and the world." A when
     * test of a world-level machine is handed the world's own entity and the world, and reads a
     * component on that entity.
     */
    @Test
    void aWhenTestTakesTheWorldsOwnEntityForTheWorldsMachineAndTheWorld() {
        try (StateWorld world = StateWorld.create()) {
            world.add(PHASES);
            world.step(DT);
            assertSame(world.entity(), HANDED[0]);
            assertSame(world, HANDED[1]);
            assertEquals("calm", PHASES.read(world).value());
            world.entity().add(new Siren());
            world.step(DT);
            assertEquals("alarm", PHASES.read(world).value(), "the test read the Siren on the world's own entity");
            assertTrue(world.entity().has(PHASES.is("alarm")));
        }
    }

    /**
     * "A wait sits on a state with no states of its own, and a machine counts one wait at a
     * time." Two waits that parallel regions could hold at once are refused when the machine is
     * declared, naming both states; waits in states that are never active together are fine.
     */
    @Test
    void aMachineCountsOneWaitAtATime_waitsInTwoParallelRegionsAreRefused() {
        InvalidMachineException e = assertThrows(InvalidMachineException.class, () -> States.define("two-waits", Seen::new, m -> m
                .parallel()
                .state("left", r -> r.initial("x").state("x", s -> s.waitFor(1, "y")).state("y"))
                .state("right", r -> r.initial("p").state("p", s -> s.waitFor(2, "q")).state("q"))));
        assertEquals("two-waits", e.machineId());
        assertEquals(1, e.problems().size(), e::getMessage);
        assertTrue(e.problems().get(0).contains("'left.x'") && e.problems().get(0).contains("'right.p'")
                && e.problems().get(0).contains("one wait at a time"), e::getMessage);

        // two waits in one region are never active together: one at a time
        assertNotNull(States.define("one-region", Seen::new, m -> m
                .parallel()
                .state("left", r -> r.initial("x").state("x", s -> s.waitFor(1, "y")).state("y", s -> s.waitFor(1, "x")))
                .state("right", r -> r.initial("p").state("p"))));
    }

    /**
     * "A world made with koota's own createWorld holds the record and writes no tag, so a test
     * there reads every is as false." In Java, a world that is not the engine's is a bare
     * Dominion: it holds the record component, and no tag.
     */
    @Test
    void aWorldThatIsNotTheEnginesHoldsTheRecordAndWritesNoTag() {
        Dominion bare = Dominion.create("not-the-engines");
        try {
            Entity g = bare.createEntity(GUARD.trait());
            assertTrue(g.has(GUARD.recordType()), "the record is held");
            for (String state : List.of("patrol", "patrol.watch", "patrol.rest", "answer")) {
                assertFalse(g.has(GUARD.is(state)), state + " reads false: no tag was written");
            }
        } finally {
            bare.close();
        }
    }

    /**
     * "The fixed step counts the seconds, so a wait holds while the game pauses, and runs the
     * same in a headless test." Wall-clock time that passes without a step counts nothing.
     */
    @Test
    void theFixedStepCountsTheSecondsNotTheWallClock() throws InterruptedException {
        try (StateWorld world = StateWorld.create()) {
            Entity g = world.spawn(GUARD.trait());
            world.step(1.0);
            Thread.sleep(50);
            assertEquals(1.0, GUARD.read(g).waited(), 1e-12);
            assertEquals(3.0, GUARD.read(g).secondsLeft(), 1e-12);
            world.step(0.5);
            assertEquals(2.5, GUARD.read(g).secondsLeft(), 1e-12);
        }
    }

    /**
     * "A wait keeps its seconds on the trait [...]. A state left before its wait ends keeps the
     * seconds it waited, and a history state that brings the state back resumes the wait from
     * there." Left a second time, the watch keeps every second it has waited, the ones before
     * the first bell included, and the second resume goes on from that sum.
     */
    @Test
    void aWaitLeftTwiceKeepsEverySecondItWaitedAndResumesFromTheSum() {
        try (StateWorld world = StateWorld.create()) {
            Entity g = world.spawn(GUARD.trait());
            world.step(2.0);
            assertTrue(GUARD.send(g, "BELL"));
            assertEquals(2.0, GUARD.read(g).paused("patrol.watch"), 1e-9);
            world.step(5.0); // answering counts nothing toward the watch
            assertTrue(GUARD.send(g, "RESUME"));
            assertEquals(2.0, GUARD.read(g).secondsLeft(), 1e-9);
            world.step(1.0);
            assertTrue(GUARD.send(g, "BELL"));
            assertEquals(3.0, GUARD.read(g).paused("patrol.watch"), 1e-9, "2 s before the first bell and 1 s after");
            assertTrue(GUARD.send(g, "RESUME"));
            assertTrue(GUARD.read(g).matches("patrol.watch"));
            assertEquals(1.0, GUARD.read(g).secondsLeft(), 1e-9);
            world.step(1.0);
            assertTrue(GUARD.read(g).matches("patrol.rest"), GUARD.read(g).toString());
        }
    }
}

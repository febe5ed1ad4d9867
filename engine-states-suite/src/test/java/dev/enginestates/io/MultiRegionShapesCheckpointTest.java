package dev.enginestates.io;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.enginestates.declare.HistoryDepth;
import dev.enginestates.ecs.EntityKey;
import dev.enginestates.ecs.StateWorld;
import dev.enginestates.ecs.States;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

import java.util.function.Consumer;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The shapes XState leaves after transitions taken together in several regions of a parallel
 * state (a compound state with two active children, a state active under one that was left, a
 * parallel state missing a region, a history remembering such a configuration) are accepted by
 * a restore only in the part of the machine such transitions can change: the subtree of their
 * domains. In {@link #SCOPE} that is {@code duo} (its only cross-region transition goes from
 * {@code duo.left.zone.y} to {@code duo.right.r2}); {@code far} and the root are outside, so the
 * same shapes there are refused, naming the machine, the entity and the state.
 */
class MultiRegionShapesCheckpointTest {
    static final ObjectMapper JSON = new ObjectMapper();

    public static final class Ctx {
        public int n;
    }

    static final States<Ctx> SCOPE = States.define("scope", Ctx::new, m -> m
            .initial("far")
            .history("all", HistoryDepth.DEEP)
            .state("far", f -> f.initial("x")
                    .state("x", x -> x.initial("x1").state("x1", s -> s.on("NEXT", "x2")).state("x2"))
                    .state("y")
                    .state("pair", p -> p.parallel()
                            .state("p", r -> r.initial("p1").state("p1"))
                            .state("q", r -> r.initial("q1").state("q1")))
                    .history("back")
                    .history("deep", HistoryDepth.DEEP)
                    .on("GO", "duo"))
            .state("duo", d -> d.parallel()
                    .state("left", l -> l.initial("zone")
                            .state("zone", z -> z.initial("x")
                                    .state("x", x -> x.initial("x1").state("x1").state("x2"))
                                    .state("y", s -> s.on("CROSS", "#scope.duo.right.r2"))
                                    .history("back")
                                    .history("deep", HistoryDepth.DEEP)))
                    .state("right", r -> r.initial("r1").state("r1").state("r2"))
                    .on("LEAVE", "far")));

    /** A machine whose root is the domain of a transition in a region: its whole tree can hold the shapes. */
    static final States<Ctx> TOP = States.define("scope-top", Ctx::new, m -> m
            .initial("duo")
            .state("duo", d -> d.parallel()
                    .state("left", l -> l.initial("a").state("a", s -> s.on("OUT", "#scope-top.solo")))
                    .state("right", r -> r.initial("b").state("b")))
            .state("solo"));

    static final Saves SAVES = Saves.of(SCOPE, TOP);

    StateWorld world;
    String text;

    @BeforeEach
    void setUp() {
        world = StateWorld.create();
        world.spawn(EntityKey.of("g"), SCOPE.trait(), TOP.trait());
        world.step(1 / 60.0);
        text = SAVES.checkpoint(world);
    }

    @AfterEach
    void tearDown() {
        world.close();
    }

    // ------------------------------------------------------------------ outside: refused

    @Test
    void twoActiveChildrenOfACompoundNoMultiRegionTransitionReachesAreRefused() {
        assertRefused(scope(s -> active(s, paths("far", "far.x", "far.x.x1", "far.x.x2"))),
                "compound state 'far.x' has 2 active children");
    }

    @Test
    void aLeafWithoutItsParentWhereNoMultiRegionTransitionReachesIsRefused() {
        assertRefused(scope(s -> active(s, paths("far", "far.x.x1"))),
                "'far.x.x1' is active but its parent 'far.x' is not");
    }

    @Test
    void twoTopLevelSiblingsAreRefusedWhenTheRootIsNoMultiRegionDomain() {
        assertRefused(scope(s -> active(s, paths("far", "far.y", "duo", "duo.left", "duo.left.zone", "duo.left.zone.x",
                "duo.left.zone.x.x1", "duo.right", "duo.right.r1"))), "the machine's root has 2 active children");
    }

    @Test
    void aShallowHistoryRememberingTwoChildrenOrNoneOfACompoundNoMultiRegionTransitionReachesIsRefused() {
        assertRefused(scope(s -> ((ObjectNode) s.path("history")).set("far.back", paths("far.x", "far.y"))),
                "history 'far.back' (shallow) remembers 2 states of compound state 'far'");
        assertRefused(scope(s -> ((ObjectNode) s.path("history")).set("far.back", paths())),
                "history 'far.back' (shallow) remembers no state of compound state 'far'");
    }

    @Test
    void aParallelStateMissingARegionWhereNoMultiRegionTransitionReachesIsRefused() {
        assertRefused(scope(s -> active(s, paths("far", "far.pair", "far.pair.p", "far.pair.p.p1", "far.pair.q.q1"))),
                "parallel state 'far.pair' has its region 'far.pair.q' inactive though 'far.pair.q.q1' below it is active");
    }

    @Test
    void aDeepHistoryRememberingTwoLeavesOfOneCompoundNoMultiRegionTransitionReachesIsRefused() {
        assertRefused(scope(s -> ((ObjectNode) s.path("history")).set("far.deep", paths("far.x.x1", "far.x.x2"))),
                "history 'far.deep' (deep) remembers 'far.x.x1' and 'far.x.x2', which lie below different children of compound state 'far.x'");
        // a deep history above the region: what it remembers outside the region is refused all the same
        assertRefused(scope(s -> ((ObjectNode) s.path("history")).set("all", paths("far.x.x1", "far.y"))),
                "history 'all' (deep) remembers 'far.x.x1' and 'far.y'", "compound state 'far'");
    }

    // ------------------------------------------------------------------ inside: accepted

    @Test
    void twoActiveChildrenOfACompoundInsideAMultiRegionDomainRestore() {
        assertRestores(scope(s -> active(s, paths("duo", "duo.left", "duo.left.zone", "duo.left.zone.x",
                "duo.left.zone.x.x1", "duo.left.zone.x.x2", "duo.right", "duo.right.r1"))));
    }

    @Test
    void aLeafWithoutItsParentInsideAMultiRegionDomainRestores() {
        assertRestores(scope(s -> active(s, paths("duo", "duo.left", "duo.left.zone", "duo.left.zone.x.x1",
                "duo.right", "duo.right.r1"))));
    }

    @Test
    void twoTopLevelSiblingsRestoreWhenTheRootIsAMultiRegionDomain() {
        assertRestores(edited(r -> active(top(r), paths("duo", "duo.left", "duo.left.a", "duo.right", "duo.right.b", "solo"))));
    }

    @Test
    void aShallowHistoryRememberingTwoChildrenOrNoneOfACompoundInsideAMultiRegionDomainRestores() {
        assertRestores(scope(s -> ((ObjectNode) s.path("history")).set("duo.left.zone.back",
                paths("duo.left.zone.x", "duo.left.zone.y"))));
        assertRestores(scope(s -> ((ObjectNode) s.path("history")).set("duo.left.zone.back", paths())));
    }

    @Test
    void aParallelStateMissingARegionInsideAMultiRegionDomainRestores() {
        assertRestores(scope(s -> active(s, paths("duo", "duo.left.zone", "duo.left.zone.y", "duo.right", "duo.right.r2"))));
    }

    @Test
    void aDeepHistoryRememberingTwoLeavesOfOneCompoundInsideAMultiRegionDomainRestores() {
        assertRestores(scope(s -> ((ObjectNode) s.path("history")).set("duo.left.zone.deep",
                paths("duo.left.zone.x.x1", "duo.left.zone.x.x2"))));
        // a deep history whose parent (the root) is above the region remembers the odd leaves inside it
        assertRestores(scope(s -> ((ObjectNode) s.path("history")).set("all",
                paths("duo.left.zone.x.x1", "duo.left.zone.y", "duo.right.r1"))));
    }

    // ------------------------------------------------------------------ helpers

    private String edited(Consumer<ObjectNode> edit) {
        try {
            ObjectNode root = (ObjectNode) JSON.readTree(text);
            edit.accept(root);
            return JSON.writerWithDefaultPrettyPrinter().writeValueAsString(root);
        } catch (Exception e) {
            throw new AssertionError(e);
        }
    }

    private String scope(Consumer<ObjectNode> edit) {
        return edited(r -> edit.accept((ObjectNode) r.path("entities").path("g").path("scope")));
    }

    private static ObjectNode top(ObjectNode root) {
        return (ObjectNode) root.path("entities").path("g").path("scope-top");
    }

    /** Sets the active states; their entry times are left out (a checkpoint without them restores with times from 0). */
    private static void active(ObjectNode machine, ArrayNode paths) {
        machine.set("active", paths);
        machine.remove("entered");
    }

    private static ArrayNode paths(String... paths) {
        ArrayNode a = JsonNodeFactory.instance.arrayNode();
        for (String p : paths) {
            a.add(p);
        }
        return a;
    }

    /** A refusal naming the machine, the entity, the state and the fragments, with the world unchanged. */
    private void assertRefused(String bad, String... fragments) {
        String before = SAVES.checkpoint(world);
        CheckpointException e = assertThrows(CheckpointException.class, () -> SAVES.restore(world, bad));
        String message = e.getMessage();
        assertTrue(message.contains("$.entities.g.scope"), "the message names the entity and machine:\n" + message);
        assertTrue(message.contains("machine 'scope'"), "the message names the machine:\n" + message);
        assertTrue(message.contains("outside every part of the machine that transitions taken together in several regions"),
                "the message says why the shape is refused there:\n" + message);
        for (String f : fragments) {
            assertTrue(message.contains(f), "the message names " + f + ":\n" + message);
        }
        assertEquals(before, SAVES.checkpoint(world), "the world is unchanged");
    }

    /** Restores into a fresh world, whose checkpoint restores again to the same text. */
    private static void assertRestores(String good) {
        String again;
        try (StateWorld copy = StateWorld.create()) {
            SAVES.restoreSpawningMissing(copy, good);
            again = SAVES.checkpoint(copy);
        }
        try (StateWorld copy = StateWorld.create()) {
            SAVES.restoreSpawningMissing(copy, again);
            assertEquals(again, SAVES.checkpoint(copy));
        }
    }
}

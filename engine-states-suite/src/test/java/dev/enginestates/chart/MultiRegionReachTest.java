package dev.enginestates.chart;

import dev.enginestates.Machine;
import dev.enginestates.declare.HistoryDepth;
import dev.enginestates.records.Access;
import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;

/**
 * Where a chart lets a configuration hold the shapes of a microstep of several transitions
 * ({@link Chart#multiRegionReach}): the subtrees of the domains of transitions that can be taken
 * together with another, each domain the lowest state containing the parents of the source and
 * of every state a target can stand for.
 */
class MultiRegionReachTest {
    /** The paths of the states in the region, in document order. */
    private static List<String> reach(Machine<Object> m) {
        Chart c = Access.chart(m);
        List<String> out = new ArrayList<>();
        for (int s = 0; s < c.size; s++) {
            if (c.multiRegionReach[s]) {
                out.add(c.describe(s));
            }
        }
        return out;
    }

    @Test
    void aChartWithoutParallelStatesHasNoRegion() {
        assertEquals(List.of(), reach(Machine.define("flat", Object::new, m -> m
                .initial("a")
                .state("a", s -> s.initial("a1").state("a1", x -> x.on("GO", "#flat.b")))
                .state("b", s -> s.on("BACK", "a")))));
    }

    @Test
    void aTransitionWithinOneRegionReachesThatRegionOnly() {
        assertEquals(List.of("p.l", "p.l.a", "p.l.b"), reach(Machine.define("local", Object::new, m -> m
                .initial("p")
                .state("p", p -> p.parallel()
                        .state("l", l -> l.initial("a").state("a", s -> s.on("GO", "b")).state("b"))
                        .state("r", r -> r.initial("c").state("c")))
                .state("out"))));
    }

    @Test
    void aTransitionAcrossRegionsReachesTheParallelStateAndNothingAbove() {
        assertEquals(List.of("p", "p.l", "p.l.a", "p.r", "p.r.c", "p.r.d"), reach(Machine.define("across", Object::new, m -> m
                .initial("p")
                .state("p", p -> p.parallel()
                        .state("l", l -> l.initial("a").state("a", s -> s.on("GO", "#across.p.r.d")))
                        .state("r", r -> r.initial("c").state("c").state("d"))
                        .on("LEAVE", "out")) // the parallel state's own transition is never taken with another
                .state("out"))));
    }

    @Test
    void aTargetAboveTheSourcesParentMakesTheDomainItsParent() {
        // XState's domain is a proper ancestor of every target: going to its own region leaves and enters the region
        assertEquals(List.of("p", "p.l", "p.l.a", "p.r", "p.r.c"), reach(Machine.define("up", Object::new, m -> m
                .initial("p")
                .state("p", p -> p.parallel()
                        .state("l", l -> l.initial("a").state("a", s -> s.on("GO", "#up.p.l")))
                        .state("r", r -> r.initial("c").state("c")))
                .state("out"))));
    }

    @Test
    void aParallelStatesHistoryWithoutADefaultStandsForTheParallelStateItself() {
        // XState's default for it targets the parallel state, so the domain is the parallel state's parent (seen in its traces)
        assertEquals(List.of("(root)", "p", "p.h", "p.l", "p.l.a", "p.r", "p.r.c", "out"), reach(Machine.define("hist", Object::new, m -> m
                .initial("p")
                .state("p", p -> p.parallel()
                        .history("h")
                        .state("l", l -> l.initial("a").state("a", s -> s.on("GO", "#hist.p.h")))
                        .state("r", r -> r.initial("c").state("c")))
                .state("out"))));
    }

    @Test
    void aCompoundStatesHistoryStandsForStatesInsideItsParent() {
        assertEquals(List.of("p.l", "p.l.h", "p.l.a", "p.l.b"), reach(Machine.define("inside", Object::new, m -> m
                .initial("p")
                .state("p", p -> p.parallel()
                        .state("l", l -> l.initial("a").history("h", HistoryDepth.DEEP)
                                .state("a", s -> s.on("GO", "#inside.p.l.h")).state("b"))
                        .state("r", r -> r.initial("c").state("c")))
                .state("out"))));
    }

    @Test
    void aTransitionWithoutAParallelStateAboveItAddsNothingThoughItsSourceIsInTheRegion() {
        // taken together with another, its domain lies below the state keeping both branches active (else their exit
        // sets meet and XState takes one of them): in.x's own domain 'w.in' is already inside the region
        assertEquals(List.of("w", "w.p", "w.p.l", "w.p.l.a", "w.p.r", "w.p.r.c", "w.in", "w.in.x", "w.in.y"),
                reach(Machine.define("below", Object::new, m -> m
                        .initial("w")
                        .state("w", w -> w.initial("p")
                                .state("p", p -> p.parallel()
                                        .state("l", l -> l.initial("a").state("a", s -> s.on("GO", "#below.w.in")))
                                        .state("r", r -> r.initial("c").state("c")))
                                .state("in", s -> s.initial("x").state("x", x -> x.on("GO", "#below.out")).state("y")))
                        .state("out"))));
    }
}

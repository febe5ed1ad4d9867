package dev.enginestates.scxml;

import dev.enginestates.Machine;
import dev.enginestates.declare.HistoryDepth;
import dev.enginestates.plain.StateMachine;
import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;

/**
 * {@code initial} may name a history state (XState allows it; SCXML's {@code <initial>} with a
 * transition to a history state means the same): entering the parent enters what the history
 * remembers, or its default target while it remembers nothing.
 */
class InitialHistoryTest {
    static Machine<List<String>> machine(HistoryDepth depth) {
        return Machine.define("ih", ArrayList::new, m -> m
                .state("p", p -> p.initial("h").history("h", depth, "b")
                        .state("a", s -> s.on("NEXT", "b"))
                        .state("b", b -> b.initial("b1").state("b1", s -> s.on("NEXT", "b2")).state("b2", s -> s.on("NEXT", "#ih.p.a")))
                        .on("OUT", "q"))
                .state("q", s -> s.on("IN", "p")));
    }

    @Test
    void anEmptyInitialHistory_entersItsDefaultTarget() {
        StateMachine<List<String>> sm = new StateMachine<>(machine(HistoryDepth.SHALLOW));
        assertEquals("p.b.b1", sm.state());
    }

    @Test
    void aShallowInitialHistory_entersTheChildItRemembers_withThatChildsInitialState() {
        StateMachine<List<String>> sm = new StateMachine<>(machine(HistoryDepth.SHALLOW));
        sm.send("NEXT");
        assertEquals("p.b.b2", sm.state());
        sm.send("OUT");
        sm.send("IN");
        assertEquals("p.b.b1", sm.state());
    }

    @Test
    void aDeepInitialHistory_entersTheLeavesItRemembers() {
        StateMachine<List<String>> sm = new StateMachine<>(machine(HistoryDepth.DEEP));
        sm.send("NEXT");
        sm.send("OUT");
        sm.send("IN");
        assertEquals("p.b.b2", sm.state());
        sm.send("NEXT");
        assertEquals("p.a", sm.state());
        sm.send("OUT");
        sm.send("IN");
        assertEquals("p.a", sm.state());
    }
}

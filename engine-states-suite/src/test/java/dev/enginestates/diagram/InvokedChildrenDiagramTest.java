package dev.enginestates.diagram;

import dev.enginestates.Machine;
import org.junit.jupiter.api.Test;

import static org.junit.jupiter.api.Assertions.assertTrue;

/** A state that invokes a child machine shows it, and the parent's done transition on that child draws as any other. */
class InvokedChildrenDiagramTest {
    /** A context the machines below share. */
    public static final class Count {
        public int left = 3;
    }

    static final Machine<Count> WAVE = Machine.define("wave", Count::new, m -> m
            .initial("fighting")
            .state("fighting", s -> s.on("KILL", "cleared"))
            .finalState("cleared"));

    static final Machine<Count> SCOUT = Machine.define("scout", Count::new, m -> m
            .initial("looking")
            .state("looking", s -> s.on("SEEN", "gone"))
            .finalState("gone"));

    /** {@code fight} (atomic) invokes a wave and leaves on its done event; {@code watch} (compound) invokes a scout on its own entity. */
    static final Machine<Count> SIEGE = Machine.define("siege", Count::new, m -> m
            .initial("calm")
            .state("calm", s -> s.on("ATTACK", "fight").on("LOOK", "watch"))
            .state("fight", s -> s
                    .invoke("wave", WAVE, i -> i.onDone("rest"))
                    .on("RETREAT", "calm"))
            .state("watch", s -> s
                    .invoke("eyes", SCOUT, i -> i.onSameEntity())
                    .initial("near")
                    .state("near", n -> n.on("FAR", "far"))
                    .state("far", n -> n.on("NEAR", "near")))
            .state("rest", s -> s.waitFor(5, "calm")));

    @Test
    void anInvokingState_showsItsChildsIdAndMachine_andTheDoneTransitionIsAnEdgeLikeAnyOther_inMermaid() {
        String mermaid = Diagrams.mermaid(SIEGE);
        assertTrue(mermaid.contains("        fight : invoke wave\u2236 wave\n"), "the atomic state's line names the child:\n" + mermaid);
        assertTrue(mermaid.contains("        fight --> rest : xstate.done.actor.wave\n"), "the done transition:\n" + mermaid);
        assertTrue(mermaid.contains("        state watch {\n            state \"near\" as watch_near\n"), mermaid);
        assertTrue(mermaid.contains("            state \"invoke eyes\u2236 scout (same entity)\" as watch_invoke\n"),
                "a composite state, which takes no description, shows the child as a node in its block:\n" + mermaid);
        assertTrue(mermaid.contains("    class watch_invoke invoke\n"), "drawn dashed:\n" + mermaid);
        DiagramChecks.mermaid(mermaid, 7 + 1, mermaid); // the machine, its six states and the composite state's child
    }

    @Test
    void anInvokingState_showsItsChildsIdAndMachine_andTheDoneTransitionIsAnEdgeLikeAnyOther_inDot() {
        String dot = Diagrams.dot(SIEGE);
        assertTrue(dot.contains("\"fight\" [label=\"fight\\ninvoke wave: wave\"];"), dot);
        assertTrue(dot.contains("label=\"watch\\ninvoke eyes: scout (same entity)\";"), dot);
        assertTrue(dot.contains("\"fight\" -> \"rest\" [label=\" xstate.done.actor.wave \"];"), dot);
        DiagramChecks.dot(dot, 5 + 4, dot); // five atomic states, the root's and watch's initial dots and anchors
    }
}

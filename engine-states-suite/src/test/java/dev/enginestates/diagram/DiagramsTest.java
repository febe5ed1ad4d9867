package dev.enginestates.diagram;

import dev.enginestates.Machine;
import dev.enginestates.StatesDef;
import dev.enginestates.declare.HistoryDepth;
import dev.enginestates.declare.MachineException;
import dev.enginestates.declare.Named;
import dev.enginestates.ecs.States;
import dev.enginestates.fsm.StateMachineBuilder;
import dev.enginestates.fsm.StateMachineDefinition;
import dev.enginestates.RandomStatecharts;
import org.junit.jupiter.api.Test;

import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Issue 13, part 4: "Export any machine (all declaration styles) as Mermaid stateDiagram-v2
 * and Graphviz DOT (nested states as clusters, history, final, parallel regions, waits and
 * when rules labelled)"; a builder-style machine shows its states, not the transitions its
 * handlers choose at run time; active states can be highlighted.
 */
class DiagramsTest {
    static final class Guard {
        int bells;
        double speed;
    }

    static final Machine<Guard> GUARD = Machine.define("guard", Guard::new, m -> m
            .initial("patrol")
            .state("patrol", p -> p
                    .initial("watch")
                    .state("watch", s -> s.waitFor(4, "rest"))
                    .state("rest", s -> s.waitFor(10, "watch"))
                    .history("resumed", HistoryDepth.DEEP)
                    .on("BELL", "answer"))
            .state("answer", s -> s
                    .entry(Named.action("countBell", (g, e) -> g.bells++))
                    .on("RESUME", "patrol.resumed")
                    .on("RESTART", "patrol")));

    static final Machine<Guard> RIDER = Machine.define("rider", Guard::new, m -> m
            .parallel()
            .state("motion", s -> s
                    .initial("sliding")
                    .state("sliding", x -> x.when(Named.condition("isSlow", g -> g.speed < 2), "stalling"))
                    .state("stalling", x -> x
                            .when(g -> g.speed >= 2, "sliding")
                            .waitFor(Named.seconds("stallSeconds", g -> 3.0), "stalled"))
                    .finalState("stalled"))
            .state("horn", s -> s
                    .state("quiet", q -> q
                            .on("HONK", t -> t.target("loud").guard(Named.guard("canHonk", (g, e) -> true)))
                            .on("HUSH", t -> t.action((g, e) -> g.bells = 0)))
                    .state("loud", l -> l.always(t -> t.target("quiet").reenter()))
                    .history("last", HistoryDepth.SHALLOW, "quiet")));

    @Test
    void aCompoundStateIsABlock_aWaitAndAnEventLabelTheirEdges_aDeepHistoryIsHStar() {
        assertEquals(String.join("\n",
                "stateDiagram-v2",
                "    %% machine 'guard', XState-style",
                "    state guard {",
                "        state patrol {",
                "            state \"watch\" as patrol_watch",
                "            state \"rest\" as patrol_rest",
                "            state \"H*\" as patrol_resumed",
                "            [*] --> patrol_watch",
                "            patrol_watch --> patrol_rest : wait 4 s",
                "            patrol_rest --> patrol_watch : wait 10 s",
                "        }",
                "        state \"answer\" as answer",
                "        answer : entry / countBell",
                "        [*] --> patrol",
                "        patrol --> answer : BELL",
                "        answer --> patrol_resumed : RESUME",
                "        answer --> patrol : RESTART",
                "    }",
                "    classDef history fill:#ffffff,stroke:#666666,stroke-dasharray:3 3",
                "    class patrol_resumed history",
                ""), Diagrams.mermaid(GUARD));
    }

    @Test
    void inDot_compoundStatesAreClusters_andEdgesToThemStopAtTheirBorder() {
        String dot = Diagrams.dot(GUARD);
        assertTrue(dot.contains("    subgraph \"cluster #root\" {\n        label=\"guard\";\n"), dot);
        assertTrue(dot.contains("        subgraph \"cluster patrol\" {\n            label=\"patrol\";\n"), dot);
        assertTrue(dot.contains("\"patrol.resumed\" [shape=circle, style=dashed, label=\"H*\"];"), dot);
        assertTrue(dot.contains("\"answer\" [label=\"answer\\nentry / countBell\"];"), dot);
        assertTrue(dot.contains("\"#anchor:patrol\" -> \"answer\" [label=\" BELL \", ltail=\"cluster patrol\"];"), dot);
        assertTrue(dot.contains("\"answer\" -> \"#anchor:patrol\" [label=\" RESTART \", lhead=\"cluster patrol\"];"), dot);
        assertTrue(dot.contains("\"patrol.watch\" -> \"patrol.rest\" [label=\" wait 4 s \"];"), dot);
        assertTrue(dot.contains("\"#init:patrol\" -> \"patrol.watch\";"), dot);
    }

    @Test
    void parallelRegions_areSeparated_andWhenRulesWaitsGuardsFinalsAndTargetlessLoopsAreLabelled() {
        String mermaid = Diagrams.mermaid(RIDER);
        assertTrue(mermaid.contains("        }\n        --\n        state horn {\n"), "regions separated by --:\n" + mermaid);
        assertTrue(mermaid.contains("motion_sliding --> motion_stalling : when isSlow\n"), mermaid);
        assertTrue(mermaid.contains("motion_stalling --> motion_sliding : when test\n"), "an unnamed test:\n" + mermaid);
        assertTrue(mermaid.contains("motion_stalling --> motion_stalled : wait stallSeconds\n"), mermaid);
        assertTrue(mermaid.contains("motion_stalled --> [*]\n"), "a final state ends its region:\n" + mermaid);
        assertTrue(mermaid.contains("horn_quiet --> horn_loud : HONK [canHonk]\n"), mermaid);
        assertTrue(mermaid.contains("horn_quiet --> horn_quiet : HUSH (targetless)\n"), mermaid);
        assertTrue(mermaid.contains("horn_loud --> horn_quiet : always (reenter)\n"), mermaid);
        assertTrue(mermaid.contains("state \"H\" as horn_last\n"), "a shallow history is H:\n" + mermaid);
        assertTrue(mermaid.contains("horn_last --> horn_quiet : default\n"), mermaid);
        assertFalse(mermaid.contains("state rider {\n        [*]"), "a parallel state has no initial arrow:\n" + mermaid);

        String dot = Diagrams.dot(RIDER);
        assertTrue(dot.contains("label=\"rider (parallel)\";"), dot);
        assertTrue(dot.contains("subgraph \"cluster motion\" {\n            label=\"motion\";\n            style=dashed;"),
                "a region is a dashed cluster:\n" + dot);
        assertTrue(dot.contains("\"motion.stalled\" [label=\"stalled\", peripheries=2];"), "a final state has a double border:\n" + dot);
        assertTrue(dot.contains("\"horn.last\" -> \"horn.quiet\" [label=\" default \", style=dashed];"), dot);
    }

    @Test
    void aPolledTable_drawsItsToGuardsInPriorityOrder_itsAfter_itsEvents_andBackAsANode() {
        StatesDef<Object> bot = StatesDef.define("bot", d -> d
                .initial("patrol")
                .on("hit", "flinch")
                .to("dead", new RandomStatecharts.NamedTo("noHp"))
                .state("patrol", s -> s.to("combat", (b, t) -> t > 1).on("bell", (b, args) -> null))
                .state("combat", s -> s.update((b, dt, t) -> null).after(6, "patrol"))
                .state("flinch", s -> s.after(0.2, "$back"))
                .state("dead"));
        String mermaid = Diagrams.mermaid(bot);
        assertTrue(mermaid.contains("    %% machine 'bot', polled (StatesDef)\n"), mermaid);
        assertTrue(mermaid.contains("    bot --> dead : to noHp (1)\n"), "the root's rules leave the machine's box:\n" + mermaid);
        assertTrue(mermaid.contains("    bot --> flinch : hit\n"), mermaid);
        assertTrue(mermaid.contains("        patrol --> combat : to (1)\n"), mermaid);
        assertTrue(mermaid.contains("        patrol : on bell / handler\n"), "a handler's target is known at run time only:\n" + mermaid);
        assertTrue(mermaid.contains("        combat : update\n"), mermaid);
        assertTrue(mermaid.contains("        combat --> patrol : after 6 s\n"), mermaid);
        assertTrue(mermaid.contains("    state \"$back\" as back\n"), mermaid);
        assertTrue(mermaid.contains("    flinch --> back : after 0.2 s\n"), mermaid);
        String dot = Diagrams.dot(bot);
        assertTrue(dot.contains("\"#back\" [shape=circle, style=dashed, label=\"$back\"];"), dot);
        assertTrue(dot.contains("\"flinch\" -> \"#back\" [label=\" after 0.2 s \"];"), dot);
    }

    @Test
    void aBuilderMachine_showsItsStatesDurationsTagsAndWindows_butNoTransition() {
        StateMachineDefinition<RandomStatecharts.Actor> combo = new StateMachineBuilder<RandomStatecharts.Actor>("combo")
                .configureState("Idle").asInitial().handler((f, dt) -> "Jab")
                .configureState("Jab").duration(0.4f).tag("attack").window("hit", 0.25f, 0.5f).delay(0.1f).handler((f, dt) -> "Idle")
                .configureState("Stunned")
                .build();
        assertEquals(String.join("\n",
                "stateDiagram-v2",
                "    %% machine 'combo', builder (StateMachineBuilder)",
                "    %% each state's handler returns the next state's name at run time: no transition can be drawn",
                "    state combo {",
                "        Idle",
                "        state \"Jab\" as Jab",
                "        Jab : duration 0.4 s",
                "        Jab : delay 0.1 s",
                "        Jab : tag attack",
                "        Jab : window hit 0.25-0.5",
                "        state \"Stunned\" as Stunned",
                "        Stunned : no handler",
                "        [*] --> Idle",
                "    }",
                ""), Diagrams.mermaid(combo));
        String dot = Diagrams.dot(combo);
        assertTrue(dot.contains("\"Jab\" [label=\"Jab\\nduration 0.4 s\\ndelay 0.1 s\\ntag attack\\nwindow hit 0.25-0.5\"];"), dot);
        assertTrue(dot.contains("// each state's handler returns the next state's name at run time"), dot);
        assertEquals(1, dot.split(" -> ").length - 1, "the initial arrow alone:\n" + dot);
    }

    @Test
    void activeStates_areHighlighted_withTheirAncestors() {
        String mermaid = Diagrams.mermaid(GUARD, List.of("patrol.watch"));
        assertTrue(mermaid.endsWith("    classDef active fill:#ffe082,stroke:#f57f17,stroke-width:2px\n"
                + "    class patrol,patrol_watch active\n"), mermaid);
        String dot = Diagrams.dot(GUARD, List.of("patrol.watch"));
        assertTrue(dot.contains("\"patrol.watch\" [label=\"watch\", style=\"rounded,filled\", fillcolor=\"#ffe082\", penwidth=2];"), dot);
        assertTrue(dot.contains("label=\"patrol\";\n            style=\"rounded,filled\";\n            fillcolor=\"#fff8e1\";"), dot);
        assertFalse(dot.contains("\"answer\" [label=\"answer\\nentry / countBell\", style"), dot);
        assertEquals(Diagrams.mermaid(GUARD), Diagrams.mermaid(GUARD, List.of()), "nothing active, nothing highlighted");
    }

    @Test
    void anActivePathThatNamesNoState_isRefused_withADidYouMean() {
        MachineException e = assertThrows(MachineException.class, () -> Diagrams.mermaid(GUARD, List.of("patrol.wacth")));
        assertEquals("machine 'guard' has no state 'patrol.wacth' to highlight; expected a dotted path from the root such as"
                + " 'answer'; did you mean 'patrol.watch'?", e.getMessage());
        assertThrows(MachineException.class, () -> Diagrams.dot(GUARD, List.of("nowhere")));
        assertThrows(NullPointerException.class, () -> Diagrams.dot((Machine<?>) null));
    }

    @Test
    void everyStyleHasItsOverloads_andTheyDrawTheirMachine() {
        StatesDef<Object> polled = RandomStatecharts.polled(3);
        StateMachineDefinition<RandomStatecharts.Actor> built = RandomStatecharts.builder(3);
        assertEquals(Diagrams.mermaid(polled.machine()), Diagrams.mermaid(polled));
        assertEquals(Diagrams.dot(polled.machine()), Diagrams.dot(polled));
        assertEquals(Diagrams.mermaid(built.machine()), Diagrams.mermaid(built));
        assertEquals(Diagrams.dot(built.machine()), Diagrams.dot(built));
        String first = built.states().get(0);
        assertEquals(Diagrams.mermaid(built.machine(), List.of(first)), Diagrams.mermaid(built, List.of(first)));
        assertEquals(Diagrams.dot(built.machine(), List.of(first)), Diagrams.dot(built, List.of(first)));
        String path = polled.statePaths().get(0);
        assertEquals(Diagrams.dot(polled.machine(), List.of(path)), Diagrams.dot(polled, List.of(path)));
        assertEquals(Diagrams.mermaid(polled.machine(), List.of(path)), Diagrams.mermaid(polled, List.of(path)));
    }

    @Test
    void anEcsBindingOfAnyStyle_drawsAsTheMachineItWasMadeFrom() {
        States<Guard> guards = States.of(GUARD);
        assertEquals(Diagrams.mermaid(GUARD), Diagrams.mermaid(guards));
        assertEquals(Diagrams.dot(GUARD), Diagrams.dot(guards));
        List<String> watch = List.of("patrol.watch");
        assertEquals(Diagrams.mermaid(GUARD, watch), Diagrams.mermaid(guards, watch));
        assertEquals(Diagrams.dot(GUARD, watch), Diagrams.dot(guards, watch));
        StatesDef<Object> polled = RandomStatecharts.polled(5);
        assertEquals(Diagrams.mermaid(polled), Diagrams.mermaid(States.of(polled)));
        assertEquals(Diagrams.dot(polled), Diagrams.dot(States.of(polled)));
        StateMachineDefinition<RandomStatecharts.Actor> built = RandomStatecharts.builder(5);
        assertEquals(Diagrams.mermaid(built), Diagrams.mermaid(States.of(built)));
        assertEquals(Diagrams.dot(built), Diagrams.dot(States.of(built)));
        assertThrows(NullPointerException.class, () -> Diagrams.mermaid((States<?>) null));
        assertThrows(NullPointerException.class, () -> Diagrams.dot(guards, null));
    }
}

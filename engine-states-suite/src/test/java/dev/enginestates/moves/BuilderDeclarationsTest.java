package dev.enginestates.moves;

import dev.enginestates.declare.InvalidMachineException;
import dev.enginestates.declare.MachineException;
import dev.enginestates.diagram.Diagrams;
import dev.enginestates.fsm.AIContext;
import dev.enginestates.fsm.State;
import dev.enginestates.fsm.StateBehavior;
import dev.enginestates.fsm.StateMachine;
import dev.enginestates.fsm.StateMachineBuilder;
import dev.enginestates.fsm.StateMachineDefinition;
import org.junit.jupiter.api.Test;

import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The builder style's declared next states ({@code transitionsTo}, {@code @State(to)}): a name no
 * state has is refused at build, naming the state and the name; the machine still moves wherever
 * a handler says (doc 002: the returned name decides); diagrams draw the declared edges.
 */
class BuilderDeclarationsTest {
    static final class Npc extends AIContext {
        String next;
    }

    private static StateMachineBuilder<Npc> idleWalkRun() {
        StateMachineBuilder<Npc> b = new StateMachineBuilder<>("npc");
        b.configureState("Walk").handler((c, dt) -> c.next);
        b.configureState("Run").handler((c, dt) -> c.next);
        return b;
    }

    @Test
    void anUnknownNameInTransitionsToIsRefusedAtBuildNamingTheStateAndTheNameWithASuggestion() {
        StateMachineBuilder<Npc> b = idleWalkRun();
        b.configureState("Idle").asInitial().transitionsTo("Walk", "Rnu").handler((c, dt) -> c.next);
        MachineException e = assertThrows(MachineException.class, b::build);
        String m = e.getMessage();
        assertTrue(m.contains("npc"), "names the machine: " + m);
        assertTrue(m.contains("Idle"), "names the state: " + m);
        assertTrue(m.contains("'Rnu'"), "names the name: " + m);
        assertTrue(m.contains("did you mean 'Run'"), "suggests the near name: " + m);
        assertTrue(!m.contains("'Walk'") || m.contains("expected one of"), "the known name is not blamed: " + m);
    }

    @Test
    void aBlankOrNullNameInTransitionsToIsRefusedAtBuildNamingTheState() {
        for (String blank : new String[]{"", "  ", null}) {
            StateMachineBuilder<Npc> b = idleWalkRun();
            b.configureState("Idle").asInitial().transitionsTo("Walk", blank).handler((c, dt) -> c.next);
            MachineException e = assertThrows(MachineException.class, b::build, "'" + blank + "'");
            String m = e.getMessage();
            assertTrue(m.contains("Idle") && m.contains("blank"), m);
        }
    }

    @StateBehavior("door")
    static final class Door {
        @State(value = "Closed", initial = true, to = {"Opening"})
        String closed(Npc c, float dt) {
            return c.next;
        }

        @State(value = "Opening", to = {"Opne"})
        String opening(Npc c, float dt) {
            return c.next;
        }

        @State("Open")
        String open(Npc c, float dt) {
            return c.next;
        }
    }

    @StateBehavior("door")
    static final class BlankDoor {
        @State(value = "Closed", initial = true, to = {" "})
        String closed(Npc c, float dt) {
            return c.next;
        }
    }

    @Test
    void anUnknownNameInStateToIsRefusedAtBuildNamingTheStateAndTheNameWithASuggestion() {
        MachineException e = assertThrows(MachineException.class,
                () -> new StateMachineBuilder<Npc>().registerHandlers(Door.class).build());
        String m = e.getMessage();
        assertTrue(m.contains("Opening") && m.contains("'Opne'") && m.contains("did you mean 'Open'"), m);
        assertTrue(m.contains("door"), "names the machine: " + m);
    }

    @Test
    void aBlankNameInStateToIsRefusedAtBuildNamingTheState() {
        MachineException e = assertThrows(MachineException.class,
                () -> new StateMachineBuilder<Npc>().registerHandlers(BlankDoor.class).build());
        assertTrue(e.getMessage().contains("Closed") && e.getMessage().contains("blank"), e.getMessage());
    }

    @Test
    void aRefusedDeclarationIsAnInvalidMachineListingEveryProblem() {
        StateMachineBuilder<Npc> b = idleWalkRun();
        b.configureState("Idle").asInitial().transitionsTo("Wlak", "").handler((c, dt) -> c.next);
        InvalidMachineException e = assertThrows(InvalidMachineException.class, b::build);
        assertTrue(e.getMessage().contains("'Wlak'") && e.getMessage().contains("blank"), e.getMessage());
    }

    @Test
    void theMachineStillMovesToAStateItsHandlerWasNotDeclaredToReturn() {
        StateMachineBuilder<Npc> b = idleWalkRun();
        b.configureState("Idle").asInitial().transitionsTo("Walk").handler((c, dt) -> c.next);
        StateMachineDefinition<Npc> def = b.build();
        Npc c = new Npc();
        StateMachine<Npc> m = new StateMachine<>(def);
        m.initialize(c);
        c.next = "Run";
        m.update(c, 0.1f);
        assertEquals("Run", m.state(), "the handler's returned name decides, declared or not");
    }

    @Test
    void declaringTheSameNameTwiceDeclaresOneMove() {
        StateMachineBuilder<Npc> b = idleWalkRun();
        b.configureState("Idle").asInitial().transitionsTo("Walk", "Walk").transitionsTo("Walk").handler((c, dt) -> c.next);
        assertEquals(1, dev.enginestates.records.Access.chart(b.build().machine()).moves().count);
    }

    @Test
    void aDiagramDrawsTheDeclaredTransitionsWithTheirCaveat() {
        StateMachineBuilder<Npc> b = idleWalkRun();
        b.configureState("Idle").asInitial().transitionsTo("Walk", "Run").handler((c, dt) -> c.next);
        b.configureState("Walk").transitionsTo("Idle");
        StateMachineDefinition<Npc> def = b.build();
        String mermaid = Diagrams.mermaid(def);
        assertTrue(mermaid.contains("Idle --> Walk : handler"), mermaid);
        assertTrue(mermaid.contains("Idle --> Run : handler"), mermaid);
        assertTrue(mermaid.contains("Walk --> Idle : handler"), mermaid);
        assertTrue(mermaid.contains("%% the transitions drawn are those the handlers are declared to return (transitionsTo);"
                + " a handler may return others"), mermaid);
        String dot = Diagrams.dot(def);
        assertTrue(dot.contains("\"Idle\" -> \"Walk\""), dot);
        assertTrue(dot.contains("\"Walk\" -> \"Idle\""), dot);
        assertTrue(dot.contains("// the transitions drawn are those the handlers are declared to return"), dot);
        assertEquals(4, dot.split(" -> ").length - 1, "three declared moves and the initial arrow:\n" + dot);
    }

    @Test
    void aBuilderMachineWithoutDeclarationsKeepsItsOldCaveatAndNoTransition() {
        StateMachineBuilder<Npc> b = idleWalkRun();
        b.configureState("Idle").asInitial().handler((c, dt) -> c.next);
        String mermaid = Diagrams.mermaid(b.build());
        assertTrue(mermaid.contains("no transition can be drawn"), mermaid);
        assertTrue(!mermaid.contains(": handler"), mermaid);
    }
}

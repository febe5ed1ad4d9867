package dev.enginestates.fsm;

import dev.enginestates.MachineView;
import dev.enginestates.declare.MachineException;
import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Every face gives one read-only view of a machine (DESIGN, "Faces": reads, dumps and the test
 * kit share one view): a builder-style machine answers the reads an entity's record and a plain
 * machine answer, by its own document's clock (time in the current state only).
 */
class BuilderSharedReadsTest {
    static final class Door extends AIContext {
        boolean open;
    }

    static final StateMachineDefinition<Door> DOOR = new StateMachineBuilder<Door>("shared-reads-door", Door::new)
            .configureState("Closed").asInitial().handler((c, dt) -> c.open ? "Open" : null)
            .configureState("Open").duration(2f).handler((c, dt) -> null)
            .build();

    @Test
    void aBuilderMachineAnswersTheReadsEveryFaceShares() {
        StateMachine<Door> m = new StateMachine<>(DOOR);
        Door d = new Door();
        m.initialize(d);
        MachineView<Door> view = m;
        assertTrue(view.is("Closed"));
        assertFalse(view.is("Open"));
        m.update(d, 0.5f);
        assertEquals(0.5, view.timeIn("Closed"), 1e-6, "002: time in the current state");
        d.open = true;
        m.update(d, 0.25f);
        assertTrue(view.is("Open"));
        assertEquals(0.0, view.timeIn("Closed"), "a state no longer active has no time");
        MachineException e = assertThrows(MachineException.class, () -> view.is("Ajar"));
        assertTrue(e.getMessage().contains("shared-reads-door") && e.getMessage().contains("Ajar"), e.getMessage());
    }

    @Test
    void aListenerAddedAfterQuietUpdatesHearsTheNextMove() {
        StateMachine<Door> m = new StateMachine<>(DOOR);
        Door d = new Door();
        m.initialize(d);
        m.update(d, 0.1f); // nobody listens: the update is the runtime's alone
        List<String> heard = new ArrayList<>();
        m.addListener(new dev.enginestates.MachineListener<StateMachine<Door>>() {
            @Override
            public void stateChanged(StateMachine<Door> machine, String from, String to, String event) {
                heard.add(from + ">" + to);
            }
        });
        d.open = true;
        m.update(d, 0.1f);
        assertEquals(List.of("Closed>Open"), heard);
        assertEquals("Closed", m.previous());
    }
}

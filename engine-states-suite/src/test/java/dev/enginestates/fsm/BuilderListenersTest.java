package dev.enginestates.fsm;

import dev.enginestates.MachineListener;
import dev.enginestates.declare.UserCodeException;
import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** Issue "The room's outside", part 1, on a builder-style machine on a plain object: the same listener hears its state change. */
class BuilderListenersTest {
    static final class Door extends AIContext {
        boolean open;
    }

    static final StateMachineDefinition<Door> DOOR = new StateMachineBuilder<Door>("listened-builder-door", Door::new)
            .configureState("Closed").asInitial().handler((d, dt) -> d.open ? "Opening" : null)
            .configureState("Opening").duration(0.5f).handler((d, dt) -> d.timeInState() >= 0.5f ? "Open" : null)
            .configureState("Open").handler((d, dt) -> null)
            .build();

    @Test
    void aBuilderMachineIsHeardOnInitializeUpdateAndTransitionTo() {
        List<String> heard = new ArrayList<>();
        StateMachine<Door> m = new StateMachine<>(DOOR);
        m.addListener(new MachineListener<StateMachine<Door>>() {
            @Override
            public void stateChanged(StateMachine<Door> machine, String from, String to, String event) {
                heard.add(from + ">" + to + " " + event);
            }
        });
        Door d = new Door();
        m.initialize(d);
        m.update(d, 0.1f);          // stays Closed: not told
        d.open = true;
        m.update(d, 0.1f);
        for (int i = 0; i < 10; i++) {
            m.update(d, 0.1f);
        }
        m.transitionTo(d, "Closed");
        m.transitionTo(d, "Closed"); // a re-entry is no change of state
        assertEquals(List.of(">Closed initialize", "Closed>Opening update", "Opening>Open update", "Open>Closed go"), heard);
        assertEquals("Closed", m.topState());
    }

    @Test
    void aListenerThatThrowsIsAUserCodeExceptionOnceTheMachineMoved() {
        StateMachine<Door> m = new StateMachine<>(DOOR);
        Door d = new Door();
        m.initialize(d);
        MachineListener<StateMachine<Door>> crashing = MachineListener.onTopState((StateMachine<Door> sm, String from, String to) -> {
            throw new IllegalStateException("the HUD crashed");
        });
        m.addListener(crashing);
        UserCodeException x = assertThrows(UserCodeException.class, () -> m.transitionTo(d, "Open"));
        assertTrue(x.getMessage().contains("a listener"), x.getMessage());
        assertEquals("Open", m.state(), "the machine moved before it was told");
        assertTrue(m.removeListener(crashing));
        m.transitionTo(d, "Closed");
        assertEquals("Closed", m.state(), "a removed listener is not called");
    }

    @Test
    void aListenerThatThrowsLeavesTheOtherListenersToldAndItsFailureIsThrownOnceAllWereTold() {
        StateMachine<Door> m = new StateMachine<>(DOOR);
        Door d = new Door();
        m.initialize(d);
        List<String> heard = new ArrayList<>();
        IllegalStateException hud = new IllegalStateException("the HUD crashed");
        IllegalStateException sound = new IllegalStateException("the sound crashed");
        m.addListener(new MachineListener<StateMachine<Door>>() {
            @Override
            public void stateChanged(StateMachine<Door> machine, String from, String to, String event) {
                throw hud;
            }
        });
        m.addListener(new MachineListener<StateMachine<Door>>() {
            @Override
            public void stateChanged(StateMachine<Door> machine, String from, String to, String event) {
                heard.add(from + ">" + to + " " + event);
                throw sound;
            }
        });
        UserCodeException x = assertThrows(UserCodeException.class, () -> m.transitionTo(d, "Open"));
        assertEquals(List.of("Closed>Open go"), heard, "the second listener is told although the first threw");
        assertSame(hud, x.getCause(), "the first failure is thrown");
        assertEquals(1, x.getSuppressed().length, "the later one rides along");
        assertSame(sound, x.getSuppressed()[0].getCause());
        assertEquals("Open", m.state());
    }

    @Test
    void aListenerHearsAMoveWhoseEnterHookThrewAsThePlainMachinesDo() {
        StateMachineDefinition<Door> door = new StateMachineBuilder<Door>("listened-hook-door", Door::new)
                .configureState("Closed").asInitial().handler((dd, dt) -> dd.open ? "Open" : null)
                .configureState("Open").enter(dd -> {
                    throw new IllegalStateException("the hinge broke");
                }).handler((dd, dt) -> null)
                .build();
        StateMachine<Door> m = new StateMachine<>(door);
        Door d = new Door();
        m.initialize(d);
        List<String> heard = new ArrayList<>();
        m.addListener(new MachineListener<StateMachine<Door>>() {
            @Override
            public void stateChanged(StateMachine<Door> machine, String from, String to, String event) {
                heard.add(from + ">" + to + " " + event);
            }
        });
        d.open = true;
        UserCodeException x = assertThrows(UserCodeException.class, () -> m.update(d, 0.1f));
        assertTrue(x.getMessage().contains("the hinge broke") || String.valueOf(x.getCause()).contains("the hinge broke"), x.toString());
        assertEquals("Open", m.state(), "the record keeps the state it entered");
        assertEquals(List.of("Closed>Open update"), heard, "the listener follows the record, as on a plain machine of the other styles");
    }

    @Test
    void aBuilderMachineIsReadWithStateAndCurrentIsDeprecatedForRemoval() throws Exception {
        Deprecated d = StateMachine.class.getMethod("current").getAnnotation(Deprecated.class);
        assertTrue(d != null && d.forRemoval(), "current() is deprecated for removal in favour of state()");
        StateMachine<Door> m = new StateMachine<>(DOOR);
        assertEquals("", m.state(), "before initialize");
        m.initialize(new Door());
        assertEquals("Closed", m.state());
    }
}

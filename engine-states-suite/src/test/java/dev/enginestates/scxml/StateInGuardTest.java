package dev.enginestates.scxml;

import dev.enginestates.Machine;
import dev.enginestates.declare.Guard;
import dev.enginestates.declare.InvalidMachineException;
import dev.enginestates.plain.StateMachine;
import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** SCXML's {@code In(id)} predicate, XState's {@code stateIn} guard: {@link Guard#stateIn} and {@code Self.isIn}. */
class StateInGuardTest {
    static Machine<List<String>> regions(String inName) {
        return Machine.define("in", ArrayList::new, m -> m
                .state("p", p -> p.parallel()
                        .state("light", l -> l.initial("off").state("off", s -> s.on("FLIP", "on")).state("on", s -> s.on("FLIP", "off")))
                        .state("door", d -> d.initial("shut")
                                .state("shut", s -> s.on("OPEN", t -> t.target("open").guard(Guard.stateIn(inName))))
                                .state("open", s -> s.id("door-open")))));
    }

    @Test
    void stateIn_holdsWhileTheNamedStateIsActive_byPathFromTheRoot() {
        StateMachine<List<String>> sm = new StateMachine<>(regions("p.light.on"));
        assertFalse(sm.send("OPEN"));
        assertTrue(sm.matches("p.door.shut"));
        sm.send("FLIP");
        assertTrue(sm.send("OPEN"));
        assertTrue(sm.matches("p.door.open"));
    }

    @Test
    void stateIn_takesAnId() {
        Machine<List<String>> m = Machine.define("in2", ArrayList::new, b -> b
                .state("a", s -> s.id("first").on("GO", t -> t.target("b").guard(Guard.stateIn("#first"))))
                .state("b"));
        StateMachine<List<String>> sm = new StateMachine<>(m);
        assertTrue(sm.send("GO"));
        assertEquals("b", sm.state());
    }

    @Test
    void stateIn_namingNoState_makesTheMachineInvalid_likeABadTarget() {
        InvalidMachineException e = assertThrows(InvalidMachineException.class, () -> regions("p.light.dim"));
        assertTrue(e.getMessage().contains("stateIn('p.light.dim')") && e.getMessage().contains("state 'p.door.shut'"), e.getMessage());
    }

    @Test
    void selfIsIn_readsTheConfiguration_andRefusesAnUnknownNameNamingTheClosest() {
        List<Boolean> seen = new ArrayList<>();
        Machine<List<String>> m = Machine.define("in3", ArrayList::new, b -> b
                .state("a", s -> s.id("alpha").on("ASK", t -> t.action((l, e, self) -> {
                    seen.add(self.isIn("a"));
                    seen.add(self.isIn("#alpha"));
                    seen.add(self.isIn("b"));
                    self.isIn("bb");
                })))
                .state("b"));
        StateMachine<List<String>> sm = new StateMachine<>(m);
        Throwable t = assertThrows(RuntimeException.class, () -> sm.send("ASK")).getCause();
        assertEquals(List.of(true, true, false), seen);
        assertTrue(t instanceof IllegalArgumentException && t.getMessage().contains("machine 'in3'") && t.getMessage().contains("'b'"),
                t.getMessage());
    }
}

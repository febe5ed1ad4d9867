package dev.enginestates;

import dev.enginestates.declare.InvalidMachineException;
import dev.enginestates.declare.Named;
import dev.enginestates.declare.SelfAction;
import dev.enginestates.declare.SelfGuard;
import dev.enginestates.declare.SelfSeconds;
import dev.enginestates.plain.StateMachine;
import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * {@link Named}: a name for a guard, test, action or seconds function, as XState names its
 * implementations. A named piece of code runs exactly as the code it wraps.
 */
class NamedTest {
    static final class Rider {
        double speed;
        final List<String> log = new ArrayList<>();
    }

    /** A guard class of the game's own that carries its name. */
    static final class IsFast implements dev.enginestates.declare.Guard<Rider>, Named {
        @Override
        public boolean test(Rider r, dev.enginestates.declare.Event e) {
            return r.speed > 5;
        }

        @Override
        public String name() {
            return "isFast";
        }
    }

    @Test
    void namedCode_runsAsTheCodeItWraps() {
        Machine<Rider> m = Machine.define("rider", Rider::new, d -> d
                .initial("sliding")
                .state("sliding", s -> s
                        .entry(Named.action("logEnter", (r, e) -> r.log.add("enter " + e.type())))
                        .when(Named.condition("isSlow", r -> r.speed < 2), "stalling")
                        .on("GO", t -> t.target("fast").guard(new IsFast())))
                .state("stalling", s -> s.waitFor(Named.seconds("stallSeconds", r -> 1.5), "stalled"))
                .state("fast")
                .state("stalled"));
        StateMachine<Rider> rider = new StateMachine<>(m);
        assertEquals(List.of("enter xstate.init"), rider.context().log, "the named entry action ran");
        rider.context().speed = 1;
        rider.step(0.1);
        assertEquals("stalling", rider.value(), "the named when test held");
        assertEquals(1.4, rider.secondsLeft(), 1e-9, "the named seconds gave the wait (1.5 s, this step's 0.1 s counted)");
        StateMachine<Rider> fast = new StateMachine<>(m);
        assertTrue(!fast.send("GO"), "the guard class refuses at speed 0");
        fast.context().speed = 9;
        assertTrue(fast.send("GO"), "and takes the event at speed 9");
        assertEquals("fast", fast.value());
    }

    @Test
    void nameOf_andUnwrap_readTheNameAndTheCode() {
        SelfGuard<Rider> g = (r, e, self) -> true;
        SelfGuard<Rider> named = Named.guard("always", g);
        assertEquals("always", Named.nameOf(named));
        assertSame(g, Named.unwrap(named));
        assertSame(g, Named.unwrap(Named.guard("again", named)), "a name over a name unwraps to the code");
        assertEquals("again", Named.nameOf(Named.guard("again", named)), "the outer name is the name");
        assertNull(Named.nameOf(g));
        assertSame(g, Named.unwrap(g));
        IsFast own = new IsFast();
        assertEquals("isFast", Named.nameOf(own), "a class of the game's own names itself");
        assertSame(own, Named.unwrap(own));
        SelfAction<Rider> a = Named.action("log", (r, e) -> r.log.add("x"));
        SelfSeconds<Rider> s = Named.seconds("three", r -> 3);
        assertEquals("log", Named.nameOf(a));
        assertEquals("three", Named.nameOf(s));
        assertEquals(3.0, s.of(new Rider(), null, null));
        assertEquals("action log", a.toString());
    }

    @Test
    void namedCode_allocatesNothingOnceWarm_inADeclaredAndInAnImportedMachine() {
        Machine<Rider> declared = Machine.define("door", Rider::new, d -> d
                .initial("shut")
                .state("shut", s -> s.on("OPEN", t -> t.target("open").guard(Named.guard("always", (r, e) -> true))
                        .action(Named.action("count", (r, e) -> r.speed++))))
                .state("open", s -> s
                        .when(Named.condition("fast", r -> r.speed > 1e12), "shut")
                        .waitFor(Named.seconds("swing", r -> 0.5), "shut")));
        Machine<Rider> imported = dev.enginestates.xstate.XStateImport.withContext(Rider::new)
                .implementations(dev.enginestates.xstate.XStateExport.of(declared))
                .parse(dev.enginestates.xstate.XStateExport.toJson(declared));
        for (Machine<Rider> m : List.of(declared, imported)) {
            StateMachine<Rider> door = new StateMachine<>(m);
            int[] runs = {0};
            long bytes = Allocations.warmThenMeasure(() -> {
                runs[0]++;
                for (int i = 0; i < 1_000; i++) {
                    door.send("OPEN");
                    door.step(0.25);
                    door.step(0.25);
                }
            });
            assertEquals(0, bytes, m + ": 1,000 transitions through named guards, actions, tests and seconds, once warm");
            assertEquals(runs[0] * 1_000.0, door.context().speed, "every OPEN was taken, and every wait ended");
        }
    }

    @Test
    void anEmptyName_isRefusedWithTheMachinesOtherProblems_aMissingOneAtOnce() {
        // ValidationTest has every place; this is the factory's side: no exception of its own
        SelfAction<Rider> unnamed = Named.action("", (Rider r, dev.enginestates.declare.Event ev) -> { });
        InvalidMachineException e = assertThrows(InvalidMachineException.class,
                () -> Machine.define("m", Rider::new, m -> m.state("a", a -> a.entry(unnamed))));
        assertTrue(e.problems().get(0).contains("entry action [0] named ''"), e::getMessage);
        assertThrows(NullPointerException.class, () -> Named.guard(null, (Rider r, dev.enginestates.declare.Event ev) -> true));
        assertThrows(NullPointerException.class, () -> Named.seconds("s", (dev.enginestates.declare.Seconds<Rider>) null));
    }
}

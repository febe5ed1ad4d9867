package dev.enginestates.plain;

import dev.enginestates.Machine;
import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;

/** A plain machine's random numbers: seeded from its id, or from the seed given to its constructor. */
class PlainMachineDrawsTest {
    /** Each wait drawn, from the initial state's on. */
    public static final class Waits {
        public List<Double> drawn = new ArrayList<>();
    }

    static final Machine<Waits> PACER = Machine.define("pacer", Waits::new, m -> m
            .initial("a")
            .state("a", s -> s.waitFor((w, e, self) -> {
                double secs = self.random().between(0.1, 0.9);
                w.drawn.add(secs);
                return secs;
            }, "b"))
            .state("b", s -> s.waitFor((w, e, self) -> {
                double secs = self.random().between(0.1, 0.9);
                w.drawn.add(secs);
                return secs;
            }, "a")));

    static List<Double> run(StateMachine<Waits> m) {
        for (int i = 0; i < 600; i++) {
            m.step(1.0 / 60);
        }
        return m.context().drawn;
    }

    @Test
    void plainMachinesOfOneId_drawTheSameNumbers_andAGivenSeedGivesAnotherStream_fromTheInitialStatesWaitOn() {
        List<Double> byId = run(new StateMachine<>(PACER));
        assertEquals(byId, run(new StateMachine<>(PACER, new Waits())), "no seed: the stream of the machine's id");
        List<Double> seven = run(new StateMachine<>(PACER, new Waits(), 7));
        assertEquals(seven, run(new StateMachine<>(PACER, new Waits(), 7)));
        assertNotEquals(byId.get(0), seven.get(0), "the seed is the record's before the initial state's wait draws");
        assertNotEquals(seven, run(new StateMachine<>(PACER, new Waits(), 8)));
    }
}

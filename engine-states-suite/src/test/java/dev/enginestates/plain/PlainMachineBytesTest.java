package dev.enginestates.plain;

import dev.enginestates.Footprints;
import dev.enginestates.StatesDef;
import org.junit.jupiter.api.Test;

import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * A plain machine's step reads its face, cell, record, clocks and context; the fewer bytes a
 * machine owns besides them, the more machines a step finds in the processor's caches. A polled
 * machine nobody listens to, stepped and moved, owns what it runs on and no more: no copies of
 * configurations (made when a listener or previous() needs them) and no detached Self (made when
 * its code first asks). Two machines are walked side by side: what they share (the chart, the
 * definition) is left out; each one's context is counted.
 */
class PlainMachineBytesTest {
    /** 552 B measured on JDK 17 with compressed references; a field or an array more per machine shows. */
    static final long AT_MOST = 560;

    static final class Bot {
        boolean flag;
    }

    static final StatesDef<Bot> CYCLE = StatesDef.define("bytes-cycle", d -> d
            .initial("off")
            .state("off", s -> s.after(1.0, "on"))
            .state("on", s -> s.after(1.0, "off").to("off", (b, t) -> b.flag)));

    @Test
    void a_polled_machine_nobody_listens_to_owns_only_what_its_step_runs_on() throws Exception {
        StateMachine<Bot> a = new StateMachine<>(CYCLE, new Bot());
        StateMachine<Bot> b = new StateMachine<>(CYCLE, new Bot());
        for (int i = 0; i < 130; i++) { // two moves each
            a.step(1 / 60.0);
            b.step(1 / 60.0);
        }
        long owned = Footprints.owned(a, b);
        assertTrue(owned <= AT_MOST, () -> "a plain polled machine owns " + owned + " B; expected at most " + AT_MOST + " B");
    }
}

package dev.enginestates.testing;

import dev.enginestates.Machine;
import dev.enginestates.declare.Event;
import org.junit.jupiter.api.Test;

import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;

/** An event the search never sent is reported as never sent, with what to give it, not as sent and beaten. */
class MachinePathsUnsentEventTest {
    public static final class Turret {
    }

    static final Machine<Turret> TURRET = Machine.define("kit-turret", Turret::new, m -> m
            .initial("idle")
            .state("idle", s -> s.on("sensor.*", "aiming"))
            .state("aiming", s -> s.on("LOST", "idle")));

    @Test
    void aWildcardEventNoInputMatchedIsReportedAsNeverSent() {
        assertEquals(new Unreached("idle \u2013sensor.*\u2192 aiming", "'idle' was reached but no event matching sensor.* was sent:"
                        + " the generator sends each event the machine names, bare, but no wildcard and no xstate.* or done.* event;"
                        + " give it one with event(Event.of(...))"),
                MachinePaths.of(TURRET).unreached().get(1));
    }

    @Test
    void aWildcardEventGivenToTheGeneratorIsSentAndMatches() {
        assertEquals(List.of(), MachinePaths.of(TURRET).event(Event.of("sensor.sight")).unreached());
    }
}

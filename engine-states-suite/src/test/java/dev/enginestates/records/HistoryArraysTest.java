package dev.enginestates.records;

import dev.enginestates.Machine;
import dev.enginestates.chart.Chart;
import org.junit.jupiter.api.Test;

import static org.junit.jupiter.api.Assertions.assertEquals;

/**
 * Issue "Performance at scale", memory per machine: a machine with no history state keeps no
 * history arrays of its own, and reads as one whose history nodes remember nothing.
 */
class HistoryArraysTest {
    static final Machine<Object> FLAT = Machine.define("flat-no-history", Object::new, m -> m
            .initial("a")
            .state("a", s -> s.on("GO", "b"))
            .state("b", s -> s.on("GO", "c"))
            .state("c", s -> s.on("GO", "a")));

    @Test
    void aMachineWithoutHistoryRemembersNothingAndCopiesWhole() {
        Chart c = Access.chart(FLAT);
        MachineRecord r = new MachineRecord(c, null);
        MachineRecord other = new MachineRecord(c, null);
        for (int s = 0; s < c.size + 2; s++) {
            assertEquals(-1, r.historySize(s), "state " + s);
        }
        other.enter(0);
        other.enter(c.stateAt("b"));
        r.copyFrom(other);
        assertEquals(StateValue.leaves(other), StateValue.leaves(r));
        assertEquals(0, r.history.length, "no history arrays of its own");
    }
}

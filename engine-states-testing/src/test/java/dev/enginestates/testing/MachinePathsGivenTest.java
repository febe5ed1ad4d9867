package dev.enginestates.testing;

import dev.enginestates.Machine;
import org.junit.jupiter.api.Test;

import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;

/** A named context change is an input of the paths like an event, even when it moves nothing by itself. */
class MachinePathsGivenTest {
    public static final class Door {
        public boolean locked = true;
    }

    static final Machine<Door> DOOR = Machine.define("kit-locked-door", Door::new, m -> m
            .initial("shut")
            .state("shut", s -> s.on("OPEN", t -> t.guard((door, e) -> !door.locked).target("open")))
            .state("open", s -> s.on("CLOSE", "shut")));

    @Test
    void aChangeThatLeavesTheMachineWhereItIsIsFollowedByTheEventsItsGuardsWaitFor() {
        MachinePaths<Door> paths = MachinePaths.of(DOOR).given("the door is unlocked", door -> door.locked = false);
        assertEquals(List.of(), paths.unreached());
        assertEquals("shut \u2013[the door is unlocked]\u2192 shut \u2013OPEN\u2192 open", paths.toStates().get("open").name());
    }

    @Test
    void eachChangeIsFollowedOnceFromAState() {
        // two changes that move nothing: the search stays bounded (each state once per change) and reaches the rest
        MachinePaths<Door> paths = MachinePaths.of(DOOR)
                .given("the door is unlocked", door -> door.locked = false)
                .given("the door is locked", door -> door.locked = true)
                .maxStates(10);
        assertEquals(List.of(), paths.unreached());
        assertEquals(2, paths.toStates().size());
    }
}

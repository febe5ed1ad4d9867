package dev.enginestates.samples.docs;

import dev.dominion.ecs.api.Entity;
import dev.enginestates.io.Saves;
import dev.enginestates.testing.WorldFixture;

import java.nio.file.Path;

import static dev.enginestates.samples.docs.DevtoolsTimeTravel.DOOR;

/** The code of docs/devtools.md's "start a test here", compiled: a test kit's world from a downloaded checkpoint. */
final class DevtoolsTestStart {
    private DevtoolsTestStart() {
    }

    /** A test that starts where the page's "Download checkpoint" left the room: the door open, 2 s in. */
    static String startATestHere(Path downloaded) {
        try (WorldFixture world = WorldFixture.fixedStep(1 / 60.0)) {
            world.open();
            world.restore(Saves.of(DOOR), downloaded);   // the tick's entities, records and clock
            Entity door = world.world().entity("door-1");
            world.advance(3.0);
            return DOOR.read(door).state();   // "shut": its 5 s ran out
        }
    }
}

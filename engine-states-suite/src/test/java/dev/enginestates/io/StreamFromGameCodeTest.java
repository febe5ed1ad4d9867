package dev.enginestates.io;

import dev.dominion.ecs.api.Entity;
import dev.enginestates.Fixtures;
import dev.enginestates.MachineListener;
import dev.enginestates.ecs.EntityKey;
import dev.enginestates.ecs.StateRecord;
import dev.enginestates.ecs.StateWorld;
import dev.enginestates.ecs.States;
import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * README, "Streaming to replicas" and "When a game's code throws": a frame is made between the
 * world's calls. From the game's code inside one (a listener during a send) it would send players
 * a record half-way through a move and take a number from the stream; it is refused, naming the
 * call, and the stream goes on as if it had not been asked.
 */
class StreamFromGameCodeTest {
    static final class Guard {
    }

    static final States<Guard> GUARD = States.define("stream-code-guard", Guard::new, Fixtures.guard());

    @Test
    void aFrameFromAListenerDuringASendIsRefusedAndTheStreamGoesOnAsIfUnasked() throws Exception {
        try (StateWorld world = StateWorld.create(); StateWorld twin = StateWorld.create()) {
            Entity guard = world.spawn(EntityKey.of("g"), GUARD.trait());
            RoomStream stream = RoomStream.of(world, GUARD);
            stream.join("p");
            Replica replica = Replica.of(twin, "p", GUARD);
            replica.apply(stream.frame("p"));

            List<Throwable> refusals = new ArrayList<>();
            world.addListener(new MachineListener<StateRecord<?>>() {
                @Override
                public void stateChanged(StateRecord<?> machine, String from, String to, String event) {
                    for (Runnable frame : List.<Runnable>of(() -> stream.frame("p"), stream::frames)) {
                        try {
                            frame.run();
                            refusals.add(new AssertionError("a frame was made inside a send"));
                        } catch (IllegalStateException e) {
                            refusals.add(e);
                        }
                    }
                }
            });
            assertTrue(GUARD.send(guard, "BELL"));

            assertEquals(2, refusals.size());
            for (Throwable t : refusals) {
                IllegalStateException refused = assertInstanceOf(IllegalStateException.class, t);
                assertTrue(refused.getMessage().contains("a send of 'BELL'"), refused.getMessage());
            }
            // the next frame is the one after the first: the refused ones took no number, and the replica follows
            replica.apply(stream.frame("p"));
            assertEquals("answer", GUARD.read(twin.entity("g")).state());
        }
    }
}

package dev.enginestates.devtools;

import dev.enginestates.MachineListener;
import dev.enginestates.ecs.StateRecord;
import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * README, "Devtools" and "When a game's code throws": {@code publish()} belongs between the
 * world's calls. Called from the game's code inside one (a listener during a send), it would
 * apply the page's hand-set states to a record half-way through a move and snapshot a world
 * half-moved; it is refused, naming the call, and applies nothing.
 */
class DevtoolsPublishFromGameCodeTest {
    @Test
    void aPublishFromAListenerDuringASendIsRefusedAndAppliesNothing() throws Exception {
        try (Room room = new Room(); Devtools devtools = Devtools.serve(room.world, DevtoolsOptions.onPort(0).writable(true))) {
            // a state set on the page, waiting for the game's next publish
            CompletableFuture<HandSet.Outcome> answer = new CompletableFuture<>();
            Thread page = new Thread(() -> {
                try {
                    answer.complete(devtools.handSet(new HandSet("guard-1", "guard", List.of("answer")), 30_000));
                } catch (Throwable e) {
                    answer.completeExceptionally(e);
                }
            });
            page.start();
            while (devtools.pendingRequests() == 0 && page.isAlive()) {
                Thread.onSpinWait();
            }
            assertEquals(1, devtools.pendingRequests(), "the page's state is queued");

            List<Throwable> refusals = new ArrayList<>();
            room.world.addListener(new MachineListener<StateRecord<?>>() {
                @Override
                public void stateChanged(StateRecord<?> machine, String from, String to, String event) {
                    try {
                        devtools.publish();
                        refusals.add(new AssertionError("publish() went through inside a send"));
                    } catch (IllegalStateException e) {
                        refusals.add(e);
                    }
                }
            });
            assertTrue(Room.GUARD.send(room.guard2, "BELL"));

            assertEquals(1, refusals.size());
            IllegalStateException refused = assertInstanceOf(IllegalStateException.class, refusals.get(0));
            assertTrue(refused.getMessage().contains("a devtools publish()") && refused.getMessage().contains("a send of 'BELL'"),
                    refused.getMessage());
            assertEquals("patrol.watch", Room.GUARD.read(room.guard1).state(), "the page's state waits for a publish between calls");

            assertTrue(devtools.publish(), "between calls, the same publish applies it");
            assertEquals(200, answer.get(30, TimeUnit.SECONDS).status, "and the page is told it was set");
            assertEquals("answer", Room.GUARD.read(room.guard1).state());
        }
    }
}

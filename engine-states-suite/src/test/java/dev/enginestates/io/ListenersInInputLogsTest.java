package dev.enginestates.io;

import dev.dominion.ecs.api.Entity;
import dev.enginestates.Fixtures;
import dev.enginestates.MachineListener;
import dev.enginestates.ecs.EntityKey;
import dev.enginestates.ecs.StateRecord;
import dev.enginestates.ecs.StateWorld;
import dev.enginestates.ecs.States;
import org.junit.jupiter.api.Test;

import static org.junit.jupiter.api.Assertions.assertEquals;

/**
 * README, "Dumps, checkpoints, replays": an input log records what the game does to the world
 * between the world's calls. What a listener does while it is told of a call (a send, a spawn,
 * a despawn made from {@code stateChanged}) belongs to that call, as a listener's work during a
 * step always did: it is not logged, and a replay into a world with the same listener does it
 * again at the same point. Before, a listener's send during a game's send was logged as an
 * input of its own, ahead of the send that caused it: the replay ran the listener's RESUME
 * before the BELL (and, with the listener present, a second time).
 */
class ListenersInInputLogsTest {
    static final class G {
    }

    static final States<G> GUARD = States.define("logged-guard", G::new, Fixtures.guard());
    static final Saves SAVES = Saves.of(GUARD);

    /** On the first guard's first answer: sends it RESUME, spawns a third guard and sends it BELL, despawns the second. */
    private static MachineListener<StateRecord<?>> answering(StateWorld world) {
        boolean[] once = {false};
        return new MachineListener<>() {
            @Override
            public void stateChanged(StateRecord<?> m, String from, String to, String event) {
                if (!once[0] && "answer".equals(to) && m.entity() == world.entity("g1")) {
                    once[0] = true;
                    GUARD.send(m.entity(), "RESUME");
                    Entity g3 = world.spawn(EntityKey.of("g3"), GUARD.trait());
                    GUARD.send(g3, "BELL");
                    world.despawn(world.entity("g2"));
                }
            }
        };
    }

    @Test
    void whatAListenerDoesDuringASendIsNotLoggedAndAReplayWithTheSameListenerEqualsTheRoom() {
        try (StateWorld room = StateWorld.create(); StateWorld replayed = StateWorld.create()) {
            room.spawn(EntityKey.of("g1"), GUARD.trait());
            room.spawn(EntityKey.of("g2"), GUARD.trait());
            InputLog log = InputLog.start(SAVES, room);
            room.addListener(answering(room));
            GUARD.send(room.entity("g1"), "BELL");
            room.step(1);
            GUARD.send(room.entity("g1"), "BELL"); // the listener acts once: this one is the game's alone
            room.step(1);

            String text = log.text();
            assertEquals(2, count(text, "\"send\""), "the game's two sends, not the listener's: " + text);
            assertEquals(0, count(text, "\"spawn\""), "the listener's spawn is not logged: " + text);

            replayed.addListener(answering(replayed));
            InputLog.replay(SAVES, replayed, text);
            assertEquals(SAVES.dump(room), SAVES.dump(replayed));
            assertEquals("answer", GUARD.read(replayed.entity("g1")).state());
            assertEquals("answer", GUARD.read(replayed.entity("g3")).state());
        }
    }

    @Test
    void whatAListenerDoesDuringAStepIsNotLoggedEither() {
        try (StateWorld room = StateWorld.create()) {
            room.spawn(EntityKey.of("g1"), GUARD.trait());
            room.spawn(EntityKey.of("g2"), GUARD.trait());
            InputLog log = InputLog.start(SAVES, room);
            room.addListener(new MachineListener<StateRecord<?>>() {
                @Override
                public void stateChanged(StateRecord<?> m, String from, String to, String event) {
                    if ("patrol.rest".equals(to) && m.entity() == room.entity("g1")) {
                        GUARD.send(room.entity("g2"), "BELL");
                    }
                }
            });
            for (int i = 0; i < 300; i++) {
                room.step(1.0 / 60);
            }
            String text = log.text();
            assertEquals(0, count(text, "\"send\""), text);
            assertEquals("answer", GUARD.read(room.entity("g2")).state(), "the listener rang the second guard's bell");
        }
    }

    private static int count(String text, String what) {
        int n = 0;
        for (int i = text.indexOf(what); i >= 0; i = text.indexOf(what, i + 1)) {
            n++;
        }
        return n;
    }
}

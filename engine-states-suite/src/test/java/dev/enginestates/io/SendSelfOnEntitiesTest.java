package dev.enginestates.io;

import dev.dominion.ecs.api.Entity;
import dev.enginestates.declare.Event;
import dev.enginestates.ecs.EntityKey;
import dev.enginestates.ecs.MachinePaused;
import dev.enginestates.ecs.StateWorld;
import dev.enginestates.ecs.States;
import dev.enginestates.records.Access;
import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Sends to itself on entities: delayed ones on the world's fixed-step clock, delivered by the
 * step with the waits in due-time order (a wait before a send due with it), before the
 * {@code when} rules; a held machine's wait with it; pending sends are part of the record
 * (checkpoint, restore, input-log replay) and a despawned machine's are dropped.
 */
class SendSelfOnEntitiesTest {
    static final double DT = 1.0 / 64; // exact in binary: due times compare exactly

    static {
        RandomWorlds.quiet();
    }

    public static final class Log {
        public List<String> seen = new ArrayList<>();
        public boolean whenSawPing;
    }

    static final States<Log> PINGER = States.define("pinger", Log::new, m -> m
            .initial("idle")
            .state("idle", s -> s.on("ARM", t -> t.target("armed").action((l, e, self) -> {
                self.sendSelf(Event.of("PING"), 0.5, "p");
                self.sendSelf(Event.of("PONG"), 0.5, null);
            })))
            .state("armed", s -> s
                    .waitFor(0.5, "late")
                    .on("DISARM", t -> t.action((l, e, self) -> self.cancel("p"))))
            .state("late", s -> s.when((l, e) -> l.whenSawPing, "seen"))
            .state("seen")
            .on("PING", t -> t.action((l, e) -> {
                l.seen.add("ping");
                l.whenSawPing = true;
            }))
            .on("PONG", t -> t.action((l, e) -> l.seen.add("pong"))));

    static final Saves SAVES = Saves.of(PINGER);

    static void steps(StateWorld w, int n) {
        for (int i = 0; i < n; i++) {
            w.step(DT);
        }
    }

    @Test
    void aDelayedSend_countsOnTheWorldsClock_andFallsDueAfterTheWaitDueWithIt_beforeTheWhenRules() {
        try (StateWorld w = StateWorld.create()) {
            Entity e = w.spawn(PINGER.trait());
            PINGER.send(e, "ARM");
            steps(w, 31);
            assertEquals(List.of(), PINGER.read(e).context().seen);
            w.step(DT); // t = 0.5: the wait ends (armed -> late), then PING and PONG in the order sent, then the when rule
            assertEquals(List.of("ping", "pong"), PINGER.read(e).context().seen);
            assertEquals("seen", PINGER.read(e).value());
        }
    }

    @Test
    void cancel_dropsThePendingSend_onTheWorld() {
        try (StateWorld w = StateWorld.create()) {
            Entity e = w.spawn(PINGER.trait());
            PINGER.send(e, "ARM");
            steps(w, 10);
            PINGER.send(e, "DISARM");
            steps(w, 40);
            assertEquals(List.of("pong"), PINGER.read(e).context().seen);
            assertEquals("late", PINGER.read(e).value());
        }
    }

    @Test
    void aHeldMachinesSends_waitWithIt() {
        try (StateWorld w = StateWorld.create()) {
            Entity e = w.spawn(PINGER.trait());
            PINGER.send(e, "ARM");
            steps(w, 16); // 0.25 s of 0.5
            e.add(MachinePaused.INSTANCE);
            steps(w, 100);
            assertEquals(List.of(), PINGER.read(e).context().seen, "a held machine's clock stands still");
            e.removeType(MachinePaused.class);
            steps(w, 15);
            assertEquals(List.of(), PINGER.read(e).context().seen);
            w.step(DT);
            assertEquals(List.of("ping", "pong"), PINGER.read(e).context().seen, "0.25 s more once released");
        }
    }

    @Test
    void aDespawnedMachine_dropsItsPendingSends() {
        try (StateWorld w = StateWorld.create()) {
            Entity e = w.spawn(PINGER.trait());
            var r = PINGER.read(e);
            PINGER.send(e, "ARM");
            assertEquals(2, Access.record(r).sendCount());
            w.despawn(e);
            assertEquals(0, Access.record(r).sendCount());
            steps(w, 64);
            assertEquals(List.of(), r.context().seen);
        }
    }

    @Test
    void aCheckpointMidDelay_restoredAndRunOn_equalsTheStraightRun() {
        try (StateWorld straight = StateWorld.create(); StateWorld restored = StateWorld.create()) {
            straight.spawn(EntityKey.of("a"), PINGER.trait());
            PINGER.send(straight.entity("a"), "ARM");
            steps(straight, 10);
            String mid = SAVES.checkpoint(straight);
            assertTrue(mid.contains("\"sends\""), mid);
            SAVES.restoreSpawningMissing(restored, mid);
            assertEquals(mid, SAVES.checkpoint(restored));
            steps(straight, 30);
            steps(restored, 30);
            assertEquals(SAVES.checkpoint(straight), SAVES.checkpoint(restored));
            assertEquals(List.of("ping", "pong"), PINGER.read(restored.entity("a")).context().seen);
        }
    }

    @Test
    void anInputLog_replaysToTheSameRecords_pendingSendsIncluded() {
        try (StateWorld a = StateWorld.create(); StateWorld b = StateWorld.create()) {
            a.spawn(EntityKey.of("a"), PINGER.trait());
            PINGER.send(a.entity("a"), "ARM");
            steps(a, 5);
            InputLog log = InputLog.start(SAVES, a); // starts mid-delay: its checkpoint holds the pending sends
            a.spawn(EntityKey.of("b"), PINGER.trait());
            PINGER.send(a.entity("b"), "ARM");
            steps(a, 20);
            PINGER.send(a.entity("b"), "DISARM");
            steps(a, 20);
            log.stop();
            InputLog.replay(SAVES, b, log.text());
            assertEquals(SAVES.checkpoint(a), SAVES.checkpoint(b));
            assertEquals(List.of("pong"), PINGER.read(b.entity("b")).context().seen);
        }
    }
}

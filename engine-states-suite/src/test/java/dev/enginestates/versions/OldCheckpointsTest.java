package dev.enginestates.versions;

import dev.enginestates.ecs.StateRecord;
import dev.enginestates.ecs.StateWorld;
import dev.enginestates.ecs.States;
import dev.enginestates.io.CheckpointException;
import dev.enginestates.io.Saves;
import dev.enginestates.versions.GuardVersions.Guard;
import dev.enginestates.versions.GuardVersions.Guard3;
import org.junit.jupiter.api.Test;

import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;

import static dev.enginestates.versions.GuardVersions.V1;
import static dev.enginestates.versions.GuardVersions.V2;
import static dev.enginestates.versions.GuardVersions.V3;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Checkpoints outlive the definitions that wrote them: a checkpoint saved by each older version
 * of a guard (kept as a fixture) restores into the newest through the chain of migrations, and
 * equals a world that ran the older version and was swapped live. A checkpoint newer than the
 * definition, of another machine, or of a version no migration reaches is refused, naming both
 * versions; a checkpoint of the current version restores as itself.
 */
class OldCheckpointsTest {
    static String fixture(String name) {
        try (InputStream in = OldCheckpointsTest.class.getResourceAsStream("/fixtures/versions/" + name)) {
            assertTrue(in != null, "fixture " + name);
            return new String(in.readAllBytes(), StandardCharsets.UTF_8);
        } catch (IOException e) {
            throw new AssertionError(e);
        }
    }

    @Test
    void aVersionOneCheckpointRestoresIntoVersionThreeThroughBothMigrations() {
        try (StateWorld w = StateWorld.create()) {
            Saves.of(V3).restoreSpawningMissing(w, fixture("vguard-v1.json"));
            assertEquals("patrol.watch.look", V3.read(w.entity("g0")).state(), "watch was split: its guard is in the child keeping its wait");
            assertEquals(1.5, V3.read(w.entity("g0")).secondsLeft(), 1e-9, "2.5 s of its 4 s watch gone, as in version 1");
            assertEquals("answer", V3.read(w.entity("g1")).state());
            assertEquals("patrol.watch.look", V3.read(w.entity("g2")).state(), "alarm was removed in version 2: back on patrol");
            assertEquals(4.0, V3.read(w.entity("g2")).secondsLeft(), "entered at the checkpoint's clock, its wait starts then");
            assertEquals("answer", V3.read(w.entity("g3")).state(), "search became hunt in version 2, removed to answer in version 3");
            Guard3 c = V3.read(w.entity("g2")).context();
            assertEquals(1, c.calls, "the context went through version 3's change: the alarm counted");
            assertEquals("from version 2", c.note);
            StateRecord<Guard3> resumed = V3.read(w.entity("g1"));
            V3.send(w.entity("g1"), "RESUME");
            assertEquals("patrol.watch.look", resumed.state(), "the deep history remembered the watch, now its child");
        }
    }

    @Test
    void eachOldCheckpointRestoredThroughTheChainEqualsAWorldOfItsVersionSwappedLive() {
        for (String[] f : new String[][] {{"vguard-v1.json", "1"}, {"vguard-v2.json", "2"}}) {
            States<Guard> older = f[1].equals("1") ? V1 : V2;
            try (StateWorld migrated = StateWorld.create(); StateWorld live = StateWorld.create()) {
                Saves.of(V3).restoreSpawningMissing(migrated, fixture(f[0]));
                Saves.of(older).restoreSpawningMissing(live, fixture(f[0]));
                live.swap(older, V3);
                assertEquals(Saves.of(V3).checkpoint(live), Saves.of(V3).checkpoint(migrated), f[0]);
                for (int i = 0; i < 1200; i++) {
                    migrated.step(1.0 / 60);
                    live.step(1.0 / 60);
                }
                assertEquals(Saves.of(V3).checkpoint(live), Saves.of(V3).checkpoint(migrated), f[0] + " after 20 s more");
            }
        }
    }

    @Test
    void savesThatHoldTheOlderVersionRestoreItAsItselfNotMigrated() {
        try (StateWorld w = StateWorld.create()) {
            Saves both = Saves.of(V1, V3);
            both.restoreSpawningMissing(w, fixture("vguard-v1.json"));
            assertEquals("alarm", V1.read(w.entity("g2")).state());
            assertEquals(fixture("vguard-v1.json"), both.checkpoint(w), "written back byte for byte");
            w.swap(V1, V3);
            assertEquals("patrol.watch.look", V3.read(w.entity("g2")).state());
            String after = both.checkpoint(w);
            assertTrue(after.contains("\"version\" : 3"), after);
        }
    }

    @Test
    void migratingACheckpointOfTheCurrentVersionIsTheIdentity() {
        try (StateWorld w = StateWorld.create(); StateWorld again = StateWorld.create()) {
            Saves.of(V3).restoreSpawningMissing(w, fixture("vguard-v2.json"));
            for (int i = 0; i < 77; i++) {
                w.step(1.0 / 60);
            }
            String current = Saves.of(V3).checkpoint(w);
            Saves.of(V3).restoreSpawningMissing(again, current);
            assertEquals(current, Saves.of(V3).checkpoint(again));
        }
    }

    @Test
    void aCheckpointNewerThanTheDefinitionIsRefusedNamingBothVersions() {
        String v2 = fixture("vguard-v2.json");
        try (StateWorld w = StateWorld.create()) {
            CheckpointException e = assertThrows(CheckpointException.class, () -> Saves.of(V1).restoreSpawningMissing(w, v2));
            assertTrue(e.getMessage().contains("version 2 (fingerprint " + V2.machine().fingerprint() + "), newer than this definition,"
                    + " version 1 (fingerprint " + V1.machine().fingerprint() + ")"), e.getMessage());
            assertEquals(0, w.machines().size() == 0 ? 0 : w.records(V1).size(), "nothing was restored");
        }
    }

    @Test
    void aCheckpointOfAVersionNoMigrationReachesIsRefusedNamingTheMissingStep() {
        States<Guard> v2WithoutMigrations = States.define("vguard", Guard::new, m -> m.version(2)
                .initial("patrol").state("patrol", p -> p.initial("watch").state("watch").state("nap")));
        try (StateWorld w = StateWorld.create()) {
            CheckpointException e = assertThrows(CheckpointException.class,
                    () -> Saves.of(v2WithoutMigrations).restoreSpawningMissing(w, fixture("vguard-v1.json")));
            assertTrue(e.getMessage().contains("no migration from version 1 to 2"), e.getMessage());
            assertTrue(e.getMessage().contains("$.machines.vguard"), e.getMessage());
            assertEquals(1, e.problems().size(), "said once for the machine, not once per record: " + e.problems());
        }
    }

    @Test
    void aCheckpointOfAnotherMachineIsRefused() {
        States<Guard> other = States.define("another", Guard::new, m -> m.initial("a").state("a"));
        try (StateWorld w = StateWorld.create()) {
            CheckpointException e = assertThrows(CheckpointException.class,
                    () -> Saves.of(other).restoreSpawningMissing(w, fixture("vguard-v1.json")));
            assertTrue(e.getMessage().contains("no machine has id 'vguard'"), e.getMessage());
        }
    }

    @Test
    void aDefinitionChangedWithoutANewVersionSaysSoWhenItsRecordsNoLongerFit() {
        States<Guard> edited = States.define("vguard", Guard::new, m -> m.version(1)
                .initial("patrol")
                .state("patrol", p -> p.initial("watch")
                        .state("watch", s -> s.waitFor(4, "nap"))
                        .state("nap", s -> s.waitFor(10, "watch"))
                        .on("BELL", "answer"))
                .state("answer"));
        assertNotEquals(V1.machine().fingerprint(), edited.machine().fingerprint());
        try (StateWorld w = StateWorld.create()) {
            CheckpointException e = assertThrows(CheckpointException.class,
                    () -> Saves.of(edited).restoreSpawningMissing(w, fixture("vguard-v1.json")));
            assertTrue(e.getMessage().contains("the same version but fingerprint " + edited.machine().fingerprint())
                    && e.getMessage().contains("version(2, Migration.from(1)"), e.getMessage());
        }
    }
}

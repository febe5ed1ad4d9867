package dev.enginestates.versions;

import dev.dominion.ecs.api.Entity;
import dev.enginestates.ecs.EntityKey;
import dev.enginestates.ecs.StateWorld;
import dev.enginestates.ecs.States;
import dev.enginestates.io.Saves;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.condition.EnabledIfSystemProperty;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;

/**
 * Writes {@code fixtures/versions/vguard-v1.json} and {@code -v2.json} into the folder the system
 * property {@code versions.out} names: a checkpoint of each version of {@link GuardVersions} as
 * that version's game saved it, kept so that {@link OldCheckpointsTest} restores them through the
 * migrations long after those definitions changed. Written once; running it again on later code
 * writes what that code writes, not a new fixture.
 */
@EnabledIfSystemProperty(named = "versions.out", matches = ".+")
class VersionFixturesWriter {
    @Test
    void writeTheFiles() throws IOException {
        Path out = Path.of(System.getProperty("versions.out"));
        Files.createDirectories(out);
        Files.writeString(out.resolve("vguard-v1.json"), checkpoint(GuardVersions.V1, true));
        Files.writeString(out.resolve("vguard-v2.json"), checkpoint(GuardVersions.V2, false));
    }

    /** Six guards, one in each kind of place the versions differ on, part-way through their waits, one with a send pending. */
    static String checkpoint(States<GuardVersions.Guard> m, boolean v1) {
        try (StateWorld w = StateWorld.create()) {
            Entity[] g = new Entity[6];
            for (int i = 0; i < g.length; i++) {
                g[i] = w.spawn(EntityKey.of("g" + i), m.trait());
            }
            m.send(g[1], "BELL");
            m.send(g[2], v1 ? "ALARM" : "NOISE");
            m.send(g[3], "SEARCH");
            m.send(g[4], "BELL");
            m.send(g[4], "RESUME");
            for (int i = 0; i < 150; i++) {
                w.step(1.0 / 60);
            }
            m.send(g[5], "BELL");
            return Saves.of(m).checkpoint(w);
        }
    }
}

package dev.enginestates.samples.docs;

import dev.dominion.ecs.api.Entity;
import dev.enginestates.declare.Migration;
import dev.enginestates.ecs.EntityKey;
import dev.enginestates.ecs.StateWorld;
import dev.enginestates.samples.Guard;
import dev.enginestates.samples.HotReload;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/**
 * The hot reload of docs/versions.md, compiled: a game loop that takes the edits of the guard's
 * XState JSON file between steps, and an edit that renames a state a guard is in, taken with a
 * mapping ({@code DocsCodeTest} runs {@link #renameWhileResting(Path, Path)}).
 */
public final class HotReloadLoop {
    private HotReloadLoop() {
    }

    /** Steps a world of guards read from {@code file}, taking each edit of the file between two steps. */
    static void run(StateWorld world, Path file, int guards, int steps) throws IOException {
        try (HotReload<Guard> reload = HotReload.start(world, file, Guard.fromJson())) {
            for (int i = 0; i < guards; i++) {
                world.spawn(EntityKey.of("guard-" + i), reload.current().trait());
            }
            for (int i = 0; i < steps; i++) {
                world.step(1 / 60.0);
                HotReload.Outcome outcome = reload.reloadIfChanged();   // returns at once when the file did not change
                if (outcome.kind() != HotReload.Kind.UNCHANGED) {
                    System.out.println(outcome.message());              // reloaded, or refused and why
                }
            }
        }
    }

    /**
     * A guard rests; the designer renames REST to NAP in {@code folder}'s copy of {@code shipped}
     * (samples/guard.json): a reload is refused, one with a mapping is taken. Returns both
     * outcomes' kinds and the guard's state.
     */
    public static List<String> renameWhileResting(Path shipped, Path folder) throws IOException {
        Path file = folder.resolve("guard.json");
        Files.copy(shipped, file);
        List<String> seen = new ArrayList<>();
        try (StateWorld world = StateWorld.create(); HotReload<Guard> reload = HotReload.start(world, file, Guard.fromJson())) {
            Entity guard = world.spawn(EntityKey.of("guard-0"), reload.current().trait());
            for (int i = 0; i < 300; i++) world.step(1 / 60.0);
            Files.writeString(file, Files.readString(file).replace("\"REST\"", "\"NAP\""));

            seen.add(reload.reload().kind().toString());    // refused: guard-0 is in PATROL.REST, which the edit has not
            HotReload.Outcome renamed = reload.reload(Migration.from(0).rename("PATROL.REST", "PATROL.NAP"));
            seen.add(renamed.kind().toString());
            seen.add(reload.current().read(guard).state());
        }
        return seen;
    }
}

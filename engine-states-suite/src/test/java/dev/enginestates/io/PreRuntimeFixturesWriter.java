package dev.enginestates.io;

import dev.enginestates.ecs.StateWorld;
import dev.enginestates.ecs.States;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.condition.EnabledIfSystemProperty;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.function.Consumer;

/**
 * Writes the files of {@code fixtures/pre-runtime/} into the folder the system property
 * {@code preRuntime.out} names. They were written by running this class on the code from before
 * the runtime contract (commit 4320203); running it on later code writes what that code writes,
 * which is what {@link FormatsWrittenBeforeTheRuntimeContractTest} compares with, not a new fixture.
 */
@EnabledIfSystemProperty(named = "preRuntime.out", matches = ".+")
class PreRuntimeFixturesWriter {
    @Test
    void writeTheFiles() throws IOException {
        Path out = Path.of(System.getProperty("preRuntime.out"));
        Files.createDirectories(out);
        write(out, "xstate", PreRuntimeMachines.GUARD, PreRuntimeMachines::guardFirstHalf, PreRuntimeMachines::guardSecondHalf);
        write(out, "polled", PreRuntimeMachines.BOT, PreRuntimeMachines::botFirstHalf, PreRuntimeMachines::botSecondHalf);
        write(out, "builder", PreRuntimeMachines.DOOR, PreRuntimeMachines::doorFirstHalf, PreRuntimeMachines::doorSecondHalf);
    }

    private static void write(Path out, String style, States<?> machine, Consumer<StateWorld> first, Consumer<StateWorld> second)
            throws IOException {
        Saves saves = Saves.of(machine);
        try (StateWorld w = StateWorld.create()) {
            InputLog log = InputLog.start(saves, w);
            first.accept(w);
            RoomStream stream = RoomStream.of(w, machine);
            stream.join("p1");
            Files.writeString(out.resolve(style + "-stream-whole.json"), stream.frame("p1"));
            second.accept(w);
            Files.writeString(out.resolve(style + "-stream-changes.json"), stream.frame("p1"));
            Files.writeString(out.resolve(style + "-checkpoint.json"), saves.checkpoint(w));
            Files.writeString(out.resolve(style + "-dump.json"), saves.dump(w));
            log.stop();
            Files.writeString(out.resolve(style + "-inputs.json"), log.text());
        }
    }
}

package dev.enginestates.running;

import org.junit.jupiter.api.Test;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;

import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * DESIGN.md, "Three styles, one machine model": faces call the runtime contract and never test
 * a style. The machines on plain objects (the {@code plain} and {@code fsm} faces) run through
 * one {@link MachineCell}; their sources name no style field and no style constant.
 */
class PlainFacesCallTheRuntimeTest {
    private static final Path SOURCES = Path.of("src/main/java/dev/enginestates");
    private static final Pattern STYLE_TEST = Pattern.compile(
            "\\.(polled|builder) (!=|==) null|polled != null|polled == null|Style\\.(XSTATE|POLLED|BUILDER)|\\.style\\b");

    @Test
    void thePlainObjectFacesTestNoStyleTheyCallTheRunningCell() throws IOException {
        List<String> found = new ArrayList<>();
        for (String pkg : List.of("plain", "fsm", "running")) {
            if (!Files.isDirectory(SOURCES.resolve(pkg))) {
                continue;
            }
            try (Stream<Path> files = Files.walk(SOURCES.resolve(pkg))) {
                for (Path f : (Iterable<Path>) files.filter(p -> p.toString().endsWith(".java"))::iterator) {
                    List<String> lines = Files.readAllLines(f);
                    for (int i = 0; i < lines.size(); i++) {
                        Matcher m = STYLE_TEST.matcher(lines.get(i).replaceAll("//.*", ""));
                        if (m.find()) {
                            found.add(f.getFileName() + ":" + (i + 1) + ": " + lines.get(i).trim());
                        }
                    }
                }
            }
        }
        assertTrue(found.isEmpty(), "a face tests a style instead of calling the runtime: " + found);
        assertTrue(Files.exists(SOURCES.resolve("plain/StateMachine.java")), "the rule reads the sources it judges");
    }
}

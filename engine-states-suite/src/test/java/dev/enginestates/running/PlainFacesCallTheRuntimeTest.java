package dev.enginestates.running;

import org.junit.jupiter.api.Test;

import dev.enginestates.LibraryModules;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
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
    private static final Pattern STYLE_TEST = Pattern.compile(
            "\\.(polled|builder) (!=|==) null|polled != null|polled == null|Style\\.(XSTATE|POLLED|BUILDER)|\\.style\\b");

    @Test
    void thePlainObjectFacesTestNoStyleTheyCallTheRunningCell() throws IOException {
        List<String> found = new ArrayList<>();
        int read = 0;
        for (Map.Entry<Path, Path> source : LibraryModules.sources().entrySet()) {
            String pkg = source.getKey().getName(0).toString();
            if (!List.of("plain", "fsm", "running").contains(pkg)) {
                continue;
            }
            read++;
            List<String> lines = Files.readAllLines(source.getValue());
            for (int i = 0; i < lines.size(); i++) {
                Matcher m = STYLE_TEST.matcher(lines.get(i).replaceAll("//.*", ""));
                if (m.find()) {
                    found.add(source.getKey() + ":" + (i + 1) + ": " + lines.get(i).trim());
                }
            }
        }
        assertTrue(found.isEmpty(), "a face tests a style instead of calling the runtime: " + found);
        assertTrue(read > 10 && Files.exists(LibraryModules.source("plain/StateMachine.java")), "the rule reads the sources it judges");
    }
}

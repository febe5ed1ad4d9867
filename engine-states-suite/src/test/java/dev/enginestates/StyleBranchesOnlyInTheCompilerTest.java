package dev.enginestates;

import org.junit.jupiter.api.Test;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.regex.Pattern;

import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * A style is a type the faces call, not a field they test (DESIGN, "Three styles, one machine
 * model": the compiler picks the runtime once; it is the only place that branches on style).
 * Outside {@code chart/}, no source tests whether a chart is polled, builder-style or
 * XState-style: faces, I/O, devtools and diagrams call {@code StyleRuntime} or read a fact the
 * compiler recorded, so a new capability is written once, not once per style.
 */
class StyleBranchesOnlyInTheCompilerTest {
    private static final Pattern BRANCH = Pattern.compile(
            "\\.(polled|builder) (!=|==) null|polled != null|polled == null|Style\\.(XSTATE|POLLED|BUILDER)|switch \\([\\w.()]*style\\)");

    @Test
    void onlyTheCompilerBranchesOnAMachinesStyle() throws IOException {
        List<String> branches = new ArrayList<>();
        int files = 0;
        for (Map.Entry<Path, Path> source : LibraryModules.sources().entrySet()) {
            Path relative = source.getKey();
            files++;
            if (relative.startsWith("chart")) {
                continue;
            }
            List<String> lines = Files.readAllLines(source.getValue());
            for (int i = 0; i < lines.size(); i++) {
                if (BRANCH.matcher(lines.get(i)).find()) {
                    branches.add(relative + ":" + (i + 1) + ": " + lines.get(i).trim());
                }
            }
        }
        assertTrue(files > 100, "the scan read " + files + " sources of " + LibraryModules.sourceRoots());
        assertTrue(branches.isEmpty(), branches.size() + " style branches outside chart/ (call StyleRuntime instead):\n"
                + String.join("\n", branches));
    }
}

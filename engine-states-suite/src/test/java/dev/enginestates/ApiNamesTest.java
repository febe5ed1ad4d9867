package dev.enginestates;

import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;

import static org.junit.jupiter.api.Assertions.assertEquals;

/**
 * A game imports several of the exported packages at once (a polled table beside a builder
 * machine, say), so a simple name that means two things makes it write a package before the
 * type. Only names the source documents themselves give twice are allowed.
 */
class ApiNamesTest {
    /** {@code plain.StateMachine} and {@code fsm.StateMachine}: each style's own document calls its runner so. */
    private static final Set<String> GIVEN_TWICE_BY_THE_DOCUMENTS = Set.of("StateMachine");

    @Test
    void noTwoTopLevelTypesOfTheExportedPackagesShareASimpleName() throws Exception {
        Map<String, List<String>> byName = new TreeMap<>();
        for (Class<?> c : SealedApiTest.exportedClasses()) {
            if (c.getDeclaringClass() == null && !c.isAnonymousClass()) {
                byName.computeIfAbsent(c.getSimpleName(), k -> new ArrayList<>()).add(c.getName());
            }
        }
        List<String> doubles = new ArrayList<>();
        byName.forEach((name, types) -> {
            if (types.size() > 1 && !GIVEN_TWICE_BY_THE_DOCUMENTS.contains(name)) {
                doubles.add(String.join(" and ", types));
            }
        });
        assertEquals(List.of(), doubles, "public types that share a simple name");
    }
}

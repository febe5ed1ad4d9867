package dev.enginestates.scxml;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.enginestates.declare.Event;
import dev.enginestates.ecs.EntityKey;
import dev.enginestates.ecs.StateWorld;
import dev.enginestates.ecs.States;
import dev.enginestates.io.CheckpointException;
import dev.enginestates.io.Saves;
import org.junit.jupiter.api.Test;

import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.SplittableRandom;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

/**
 * Property (issue 17) over the SCION and W3C documents in scope ({@link ScxmlSuite}; skipped
 * without the suite): each document on an entity, fed its test's events (and steps for their
 * delays, then steps for its pending sends), checkpointed at a random input, restored into a
 * fresh world and run on, ends with the same checkpoint as the world that ran straight through.
 * A document whose variables hold what a checkpoint cannot (functions its scripts declare) must
 * be refused with the variable named; the rest must round-trip.
 */
class SuiteCheckpointPropertyTest {
    static final ObjectMapper JSON = new ObjectMapper();
    static final double DT = 1.0 / 20;

    @Test
    void everyDocumentInScope_checkpointedAtARandomInput_restoredAndRunOn_equalsTheStraightRun() throws Exception {
        String missing = ScxmlSuite.fetch();
        assumeTrue(missing == null, () -> "skipped: " + missing);
        List<String> tests = new ArrayList<>();
        try (InputStream in = getClass().getResourceAsStream("/scxml/scope.tsv")) {
            for (String line : new String(in.readAllBytes(), StandardCharsets.UTF_8).split("\n")) {
                String[] c = line.split("\t", -1);
                if (c.length > 1 && c[1].equals("in") && !c[0].equals("w3c-ecma/test301.txml") && !c[0].equals("w3c-ecma/test415.txml")) {
                    tests.add(c[0]);
                }
            }
        }
        int checked = 0;
        int refused = 0;
        List<String> refusedTests = new ArrayList<>();
        int withVariables = 0;
        int invoking = 0;
        for (int t = 0; t < tests.size(); t++) {
            String test = tests.get(t);
            Path scxml = ScxmlSuite.TESTS.resolve(test + ".scxml");
            Path json = ScxmlSuite.TESTS.resolve(test + ".json");
            States<Datamodel> m = States.of(ScxmlImport.create().log((l, v) -> { }).resolver(ScxmlResolver.files(ScxmlSuite.TESTS)).read(scxml));
            boolean invokes = Files.readString(scxml).contains("<invoke");
            invoking += invokes ? 1 : 0;
            Saves saves = Saves.of(m);
            List<Object> inputs = new ArrayList<>(); // an Event, or a Double: seconds to step
            inputs.add(Event.of("$start")); // an entity runs no initial entry actions; an event runs its eventless moves
            if (Files.exists(json)) {
                for (JsonNode e : JSON.readTree(json.toFile()).path("events")) {
                    if (e.has("after")) {
                        inputs.add(e.get("after").asDouble() / 1000);
                    }
                    String name = e.path("event").path("name").asText();
                    if (!name.isEmpty()) {
                        inputs.add(Event.of(name));
                    }
                }
            }
            for (int i = 0; i < 10; i++) {
                inputs.add(0.25);
            }
            SplittableRandom rnd = new SplittableRandom(17_000 + t);
            int cut = rnd.nextInt(inputs.size());
            try (StateWorld a = StateWorld.create(); StateWorld b = StateWorld.create()) {
                a.spawn(EntityKey.of("doc"), m.trait());
                String mid = null;
                try {
                    for (int i = 0; i < inputs.size(); i++) {
                        if (i == cut) {
                            mid = saves.checkpoint(a);
                            saves.restoreSpawningMissing(b, mid);
                            assertEquals(mid, saves.checkpoint(b), test + ": the restore reads back what was saved");
                        }
                        apply(a, m, inputs.get(i));
                        if (i >= cut) {
                            apply(b, m, inputs.get(i));
                        }
                    }
                    assertEquals(saves.checkpoint(a), saves.checkpoint(b), test + ": cut at input " + cut + " of " + inputs.size());
                    checked++;
                    withVariables += mid.contains("\"variables\" : {\n") ? 1 : 0;
                } catch (CheckpointException e) {
                    // a variable that is not JSON (a child session running at the cut is saved with its parent)
                    assertTrue(e.getMessage().contains("cannot save its context: machine '") && e.getMessage().contains("variable '"),
                            test + ": " + e.getMessage());
                    refused++;
                    refusedTests.add(test + " (" + e.problems().get(0).replaceAll(".*variable '([^']*)'.*", "$1") + ")");
                }
            }
        }
        assertTrue(checked > tests.size() * 9 / 10, checked + " of " + tests.size() + " round-tripped (" + invoking + " invoke), "
                + refused + " refused");
        assertTrue(withVariables > 50, withVariables + " cuts had variables");
        // the figures are printed only when asked, like the suite's count (nothing prints in a plain build)
        if (Boolean.getBoolean("scxml.report")) {
            dev.enginestates.Figures.println("suite checkpoint property: " + tests.size() + " documents, " + checked + " round-tripped (" + withVariables
                + " with variables at the cut), " + refused + " refused (a variable that is not JSON): " + refusedTests);
        }
    }

    static void apply(StateWorld w, States<Datamodel> m, Object input) {
        if (input instanceof Event e) {
            if (!m.read(w.entity("doc")).isDone()) {
                m.send(w.entity("doc"), e);
            }
            return;
        }
        double seconds = (Double) input;
        for (double left = seconds; left > 1e-9; left -= DT) {
            w.step(Math.min(DT, left));
        }
    }
}

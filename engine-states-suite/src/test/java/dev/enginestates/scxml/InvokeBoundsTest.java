package dev.enginestates.scxml;

import dev.enginestates.plain.StateMachine;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;

import static dev.enginestates.scxml.InvokeTest.doc;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTimeoutPreemptively;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * An {@code <invoke>} (SCXML 6.4) that would nest sessions deeper than {@link ScxmlImport#invokeDepth} or run more
 * of them at once than {@link ScxmlImport#sessions} fails as SCXML says a failed invoke does: error.execution in the
 * invoking session, naming the limit (and, for depth, the chain of documents). So a document that invokes itself,
 * once or twice at each level, ends instead of stalling its machine's first step.
 */
class InvokeBoundsTest {
    /** A guard against a hang; the behaviour checked is the counts. */
    private static final Duration GUARD = Duration.ofSeconds(120);

    /**
     * A session that logs its level and invokes {@code copies} more of itself (through {@code invoke}, one level
     * down), logging the reason of the error.execution an invoke raises.
     */
    private static String selfInvoking(String invoke, int copies) {
        return doc("""
                <datamodel><data id="level" expr="1"/><data id="me"/></datamodel>
                <state id="s0">
                  <onentry><log label="level" expr="level"/></onentry>
                  %s
                  <transition event="error.execution"><log label="refused" expr="[level, _event.data.reason]"/></transition>
                </state>
                """.formatted(invoke.repeat(copies)));
    }

    private final List<Double> levels = new ArrayList<>();
    private final List<String> refused = new ArrayList<>();

    private ScxmlImport importer() {
        return ScxmlImport.create().log((label, value) -> {
            if (label.equals("level")) {
                levels.add((Double) value);
            } else if (value instanceof List<?> l) {
                refused.add(((Double) l.get(0)).intValue() + ": " + l.get(1));
            } else {
                refused.add((String) value);
            }
        });
    }

    private static List<Double> oneTo(int n) {
        List<Double> out = new ArrayList<>();
        for (int i = 1; i <= n; i++) {
            out.add((double) i);
        }
        return out;
    }

    @Test
    void aDocumentThatInvokesItselfBySrcexprStopsAtTheDepthLimit(@TempDir Path dir) throws IOException {
        Files.writeString(dir.resolve("self.scxml"), selfInvoking(
                "<invoke srcexpr=\"'self.scxml'\"><param name=\"level\" expr=\"level + 1\"/></invoke>", 1));
        StateMachine<Datamodel> m = assertTimeoutPreemptively(GUARD, () -> new StateMachine<>(
                importer().resolver(ScxmlResolver.files(dir)).read(dir.resolve("self.scxml"))));
        assertEquals(oneTo(ScxmlImport.DEFAULT_INVOKE_DEPTH), levels, "one session a level, down to the limit");
        assertEquals(1, refused.size(), refused::toString);
        String reason = refused.get(0);
        assertTrue(reason.startsWith(ScxmlImport.DEFAULT_INVOKE_DEPTH + ": "), "the deepest session's invoke failed: " + reason);
        assertTrue(reason.contains("would start a session " + (ScxmlImport.DEFAULT_INVOKE_DEPTH + 1) + " levels deep")
                && reason.contains("at most " + ScxmlImport.DEFAULT_INVOKE_DEPTH + " (ScxmlImport.invokeDepth)"), reason);
        assertTrue(reason.contains("'self' (" + dir.resolve("self.scxml").toUri() + ") > ")
                && reason.endsWith("(does a document invoke itself?)"), "the chain of documents is named: " + reason);
        assertEquals("s0", m.state());
    }

    @Test
    void aDocumentThatHandsEachChildItsOwnTextStopsAtTheDepthLimit() {
        // the child's text reaches each level as a param, and <content expr> compiles it when the invoke starts
        String child = selfInvoking("<invoke><content expr=\"me\"/><param name=\"me\" expr=\"me\"/>"
                + "<param name=\"level\" expr=\"level + 1\"/></invoke>", 1);
        String top = child.replace("<data id=\"me\"/>", "<data id=\"me\" expr=\"'" + attribute(child) + "'\"/>");
        assertTimeoutPreemptively(GUARD, () -> new StateMachine<>(importer().read(top)));
        assertEquals(oneTo(ScxmlImport.DEFAULT_INVOKE_DEPTH), levels);
        assertEquals(1, refused.size(), refused::toString);
        assertTrue(refused.get(0).contains("levels deep"), refused::toString);
    }

    @Test
    void aDocumentThatInvokesTwoCopiesOfItselfStopsAtTheSessionLimit(@TempDir Path dir) throws IOException {
        Files.writeString(dir.resolve("twice.scxml"), selfInvoking(
                "<invoke srcexpr=\"'twice.scxml'\"><param name=\"level\" expr=\"level + 1\"/></invoke>", 2));
        StateMachine<Datamodel> m = assertTimeoutPreemptively(GUARD, () -> new StateMachine<>(
                importer().resolver(ScxmlResolver.files(dir)).read(dir.resolve("twice.scxml"))));
        assertEquals(ScxmlImport.DEFAULT_SESSIONS, levels.size(), "sessions started, the top one included: " + levels);
        assertTrue(levels.stream().allMatch(l -> l <= ScxmlImport.DEFAULT_INVOKE_DEPTH), levels::toString);
        assertTrue(refused.stream().anyMatch(r -> r.contains("run " + (ScxmlImport.DEFAULT_SESSIONS + 1) + " sessions at once")
                && r.contains("at most " + ScxmlImport.DEFAULT_SESSIONS + ", its own included (ScxmlImport.sessions)")), refused::toString);
        assertEquals(ScxmlImport.DEFAULT_SESSIONS, m.context().session.bounds.sessions);
    }

    @Test
    void theDepthAndSessionLimitsAreConfigurableAndACancelledSessionGivesBackItsPlace(@TempDir Path dir) throws IOException {
        Files.writeString(dir.resolve("self.scxml"), selfInvoking(
                "<invoke srcexpr=\"'self.scxml'\"><param name=\"level\" expr=\"level + 1\"/></invoke>", 1));
        new StateMachine<>(importer().invokeDepth(3).resolver(ScxmlResolver.files(dir)).read(dir.resolve("self.scxml")));
        assertEquals(oneTo(3), levels);
        assertTrue(refused.get(0).startsWith("3: ") && refused.get(0).contains("at most 3"), refused::toString);

        // two sessions at once at most (the top one and a child): a child cancelled with its state makes room for the next
        levels.clear();
        refused.clear();
        StateMachine<Datamodel> m = new StateMachine<>(importer().sessions(2).read(doc("""
                <datamodel><data id="level" expr="1"/><data id="ended" expr="0"/></datamodel>
                <state id="s0">
                  <invoke><content><scxml xmlns="http://www.w3.org/2005/07/scxml" version="1.0" datamodel="ecmascript">
                    <datamodel><data id="level" expr="2"/></datamodel>
                    <state id="c"><onentry><log label="level" expr="level"/></onentry><transition event="end" target="f"/></state>
                    <final id="f"/>
                  </scxml></content></invoke>
                  <invoke><content><scxml xmlns="http://www.w3.org/2005/07/scxml" version="1.0" datamodel="ecmascript">
                    <state id="c"><onentry><log label="level" expr="3"/></onentry></state>
                  </scxml></content></invoke>
                  <transition event="error.execution"><log label="refused" expr="_event.data.reason"/></transition>
                  <transition event="next" target="s1"/>
                </state>
                <state id="s1">
                  <invoke><content><scxml xmlns="http://www.w3.org/2005/07/scxml" version="1.0" datamodel="ecmascript">
                    <state id="c"><onentry><log label="level" expr="4"/></onentry></state>
                  </scxml></content></invoke>
                </state>
                """)));
        assertEquals(List.of(2.0), levels, "the first child started, the second is one too many");
        assertEquals(1, refused.size(), refused::toString);
        assertTrue(refused.get(0).contains("at most 2"), refused::toString);
        m.send("next"); // s0 exits: its child is cancelled, and s1's child takes its place
        assertEquals(List.of(2.0, 4.0), levels);
        assertEquals(2, m.context().session.bounds.sessions);
    }

    /** Text as a single-quoted ECMAScript string inside a double-quoted XML attribute. */
    private static String attribute(String text) {
        assertTrue(!text.contains("'") && !text.contains("\\"), "the test's document has no quote of its own");
        return text.replace("&", "&amp;").replace("\"", "&quot;").replace("<", "&lt;").replace(">", "&gt;").replace("\n", " ");
    }
}

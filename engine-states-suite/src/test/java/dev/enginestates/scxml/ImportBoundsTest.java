package dev.enginestates.scxml;

import dev.enginestates.Machine;
import dev.enginestates.declare.InvalidMachineException;
import dev.enginestates.declare.UserCodeException;
import dev.enginestates.plain.StateMachine;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.concurrent.atomic.AtomicLong;

import static dev.enginestates.scxml.InvokeTest.doc;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTimeoutPreemptively;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * One import of an untrusted document ({@code ScxmlImport.read}) does a bounded amount of work however its documents
 * name one another: it compiles at most {@link ScxmlImport#MAX_DOCUMENTS} documents, reads at most
 * {@link ScxmlImport#MAX_READ} characters through the resolver, compiles no child below the invoke depth (whose
 * sessions could never start), and reads a text in any number of pieces in time proportional to it. A child compiled
 * while the machine runs spends all that its import reads from the call's budget. Each test counts reads or
 * characters; the timeouts only guard against a hang.
 */
class ImportBoundsTest {
    private static final Duration GUARD = Duration.ofSeconds(60);

    /** The game's resolver, counting the documents it is asked for. */
    private static ScxmlResolver counting(Path dir, AtomicLong reads) {
        ScxmlResolver files = ScxmlResolver.files(dir);
        return u -> {
            reads.incrementAndGet();
            return files.read(u);
        };
    }

    @Test
    void anImportCompilesAtMostAThousandDocumentsHoweverOftenTheyInvokeOneAnother(@TempDir Path dir) throws IOException {
        // each of 14 documents invokes the next from two states: 16,383 compilations, each one reading its file
        int levels = 14;
        for (int i = 0; i < levels; i++) {
            String invoke = i + 1 < levels ? "<invoke src=\"d" + (i + 1) + ".scxml\"/>" : "";
            Files.writeString(dir.resolve("d" + i + ".scxml"), doc("<state id=\"s\">" + invoke + "</state><state id=\"t\">" + invoke + "</state>"));
        }
        AtomicLong reads = new AtomicLong();
        ScxmlImport importer = ScxmlImport.create().resolver(counting(dir, reads));
        InvalidMachineException e = assertThrows(InvalidMachineException.class,
                () -> assertTimeoutPreemptively(GUARD, () -> importer.read(dir.resolve("d0.scxml"))));
        assertTrue(e.getMessage().contains("more than " + ScxmlImport.MAX_DOCUMENTS + " documents"), e.getMessage());
        assertTrue(reads.get() <= ScxmlImport.MAX_DOCUMENTS, reads + " documents read");
    }

    @Test
    void aStaticChildThatCouldOnlyRunBelowTheInvokeDepthIsNotCompiled(@TempDir Path dir) throws IOException {
        // a resolver that serves a folder's documents under any path: 'sub/a.scxml' names a new address at each level
        // (as a link from sub to its own folder would), so the import's guard against a document invoking itself never
        // sees the same address twice
        String text = doc("""
                <datamodel><data id="level" expr="1"/></datamodel>
                <state id="s"><invoke src="sub/a.scxml"><param name="level" expr="level + 1"/></invoke>
                  <onentry><log label="level" expr="level"/></onentry></state>
                """);
        Files.writeString(dir.resolve("a.scxml"), text);
        AtomicLong reads = new AtomicLong();
        AtomicLong deepest = new AtomicLong();
        ScxmlImport importer = ScxmlImport.create().log((label, v) -> deepest.accumulateAndGet(((Double) v).longValue(), Math::max))
                .resolver(u -> {
                    reads.incrementAndGet();
                    return text;
                });
        Machine<Datamodel> m = assertTimeoutPreemptively(GUARD, () -> importer.read(dir.resolve("a.scxml")));
        assertEquals(ScxmlImport.DEFAULT_INVOKE_DEPTH - 1, reads.get(), "one child a level, down to the deepest that can run");
        StateMachine<Datamodel> sm = new StateMachine<>(m);
        assertEquals(ScxmlImport.DEFAULT_INVOKE_DEPTH, deepest.get(), "the sessions run down to the depth limit");
        assertEquals(ScxmlImport.DEFAULT_INVOKE_DEPTH, sm.context().session.bounds.sessions);
    }

    @Test
    void anImportReadsAtMost64MiCharactersThroughTheResolver(@TempDir Path dir) throws IOException {
        // 70 <data src> of one file of 1 Mi characters: each read is kept until the variable is declared
        Files.writeString(dir.resolve("big.json"), "\"" + "x".repeat((1 << 20) - 2) + "\"");
        StringBuilder data = new StringBuilder("<datamodel>");
        for (int i = 0; i < 70; i++) {
            data.append("<data id=\"d").append(i).append("\" src=\"big.json\"/>");
        }
        Files.writeString(dir.resolve("m.scxml"), doc(data + "</datamodel><state id=\"s\"/>"));
        AtomicLong reads = new AtomicLong();
        ScxmlImport importer = ScxmlImport.create().resolver(counting(dir, reads));
        InvalidMachineException e = assertThrows(InvalidMachineException.class,
                () -> assertTimeoutPreemptively(GUARD, () -> importer.read(dir.resolve("m.scxml"))));
        assertTrue(e.getMessage().contains("more than " + ScxmlImport.MAX_READ + " characters through the resolver"), e.getMessage());
        assertEquals(ScxmlImport.MAX_READ >> 20, reads.get() - 1, "the 65th read went over, and nothing was read after it");
    }

    @Test
    void aChildCompiledWhileTheMachineRunsSpendsWhatItsImportReadsFromTheCallsBudget(@TempDir Path dir) throws IOException {
        // a short child whose import reads 12 Mi characters of <data src>: more than one call's budget
        Files.writeString(dir.resolve("big.json"), "\"" + "x".repeat((1 << 20) - 2) + "\"");
        StringBuilder data = new StringBuilder("<datamodel>");
        for (int i = 0; i < 12; i++) {
            data.append("<data id=\"d").append(i).append("\" src=\"big.json\"/>");
        }
        Files.writeString(dir.resolve("child.scxml"), doc(data + "</datamodel><state id=\"c\"/>"));
        Files.writeString(dir.resolve("m.scxml"), doc("""
                <state id="idle"><transition event="go" target="s0"/></state>
                <state id="s0"><invoke srcexpr="'child.scxml'"/></state>
                """));
        StateMachine<Datamodel> m = new StateMachine<>(ScxmlImport.create().resolver(ScxmlResolver.files(dir)).read(dir.resolve("m.scxml")));
        UserCodeException e = assertThrows(UserCodeException.class, () -> assertTimeoutPreemptively(GUARD, () -> m.send("go")));
        assertInstanceOf(CallBudgetException.class, e.getCause(), e::toString);
        assertEquals(1, m.context().session.bounds.sessions, "no child was started");
    }

    @Test
    void aTextInTwoMillionPiecesIsReadInTimeProportionalToItsLength() {
        // the parser hands each entity as a piece of its own: joined one by one, they were copied 2 * 10^12 times
        int n = 2_000_000;
        StateMachine<Datamodel> m = assertTimeoutPreemptively(GUARD, () -> new StateMachine<>(ScxmlImport.create().read(doc(
                "<datamodel><data id=\"t\">" + "&lt;".repeat(n) + "</data></datamodel><state id=\"s\"/>"))));
        assertEquals((double) n, ((Number) m.context().toJava(m.context().evaluate("t.length"))).doubleValue());
    }
}

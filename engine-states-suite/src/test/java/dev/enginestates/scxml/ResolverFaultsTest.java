package dev.enginestates.scxml;

import dev.enginestates.declare.InvalidMachineException;
import dev.enginestates.plain.StateMachine;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;

import static dev.enginestates.scxml.InvokeTest.doc;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * DESIGN.md, "Bad input gets a clear error and changes nothing", for the documents an {@code <invoke>}
 * loads (SCXML 6.4): a {@link ScxmlResolver} is the game's code, and one that returns no text or throws is a
 * document that cannot be loaded, as one that throws {@code IOException} is: a static {@code src} is
 * refused at import with the invoke's line, a {@code srcexpr} raises {@code error.execution} (SCXML 6.4.1).
 * A document whose static {@code src} invokes itself, directly or through others, is refused instead of
 * being compiled without end.
 */
class ResolverFaultsTest {
    private static final ScxmlResolver RETURNS_NULL = u -> null;
    private static final ScxmlResolver THROWS = u -> {
        throw new IllegalStateException("the pack is not mounted");
    };

    @Test
    void aStaticSrcWhoseResolverReturnsNothingOrThrowsIsRefusedAtImportWithTheInvokesLine(@TempDir Path dir) throws IOException {
        Path parent = dir.resolve("parent.scxml");
        Files.writeString(parent, doc("<state id=\"s0\">\n<invoke src=\"file:kid.scxml\"/></state>"));
        for (Map.Entry<String, ScxmlResolver> r : Map.of("no text", RETURNS_NULL, "the pack is not mounted", THROWS).entrySet()) {
            InvalidMachineException e = assertThrows(InvalidMachineException.class,
                    () -> ScxmlImport.create().resolver(r.getValue()).read(parent), r.getKey());
            String p = e.problems().get(0);
            assertTrue(p.startsWith("line 3: <invoke> src 'file:kid.scxml' cannot be loaded") && p.contains(r.getKey()), p);
        }
    }

    @Test
    void aDataSrcWhoseResolverReturnsNothingIsRefusedAtImport(@TempDir Path dir) throws IOException {
        Path parent = dir.resolve("parent.scxml");
        Files.writeString(parent, doc("<datamodel><data id=\"d\" src=\"file:d.json\"/></datamodel><state id=\"s0\"/>"));
        InvalidMachineException e = assertThrows(InvalidMachineException.class,
                () -> ScxmlImport.create().resolver(RETURNS_NULL).read(parent));
        assertTrue(e.problems().get(0).contains("<data> src 'file:d.json' cannot be loaded: the resolver returned no text"),
                e.problems()::toString);
    }

    @Test
    void aSrcexprWhoseResolverReturnsNothingOrThrowsRaisesErrorExecution(@TempDir Path dir) throws IOException {
        Path parent = dir.resolve("parent.scxml");
        Files.writeString(parent, doc("""
                <state id="s0"><invoke srcexpr="'kid.scxml'"/><transition event="error.execution" target="ok"/></state>
                <state id="ok"/>
                """));
        for (ScxmlResolver r : new ScxmlResolver[] {RETURNS_NULL, THROWS}) {
            StateMachine<Datamodel> m = new StateMachine<>(ScxmlImport.create().resolver(r).read(parent));
            assertEquals("ok", m.state(), "the invoke's failure is error.execution, which the document handles");
        }
    }

    @Test
    void aDocumentWhoseStaticSrcInvokesItselfIsRefusedAtImport(@TempDir Path dir) throws IOException {
        Files.writeString(dir.resolve("self.scxml"), doc("<state id=\"s0\">\n<invoke src=\"file:self.scxml\"/></state>"));
        InvalidMachineException self = assertThrows(InvalidMachineException.class,
                () -> ScxmlImport.create().resolver(ScxmlResolver.files(dir)).read(dir.resolve("self.scxml")));
        assertTrue(self.problems().get(0).contains("names a document this import is already compiling"), self.problems()::toString);

        // a.scxml invokes b.scxml, which invokes a.scxml again
        Files.writeString(dir.resolve("a.scxml"), doc("<state id=\"s0\"><invoke src=\"file:b.scxml\"/></state>"));
        Files.writeString(dir.resolve("b.scxml"), doc("<state id=\"t0\"><invoke src=\"file:a.scxml\"/></state>"));
        InvalidMachineException cycle = assertThrows(InvalidMachineException.class,
                () -> ScxmlImport.create().resolver(ScxmlResolver.files(dir)).read(dir.resolve("a.scxml")));
        assertTrue(cycle.problems().get(0).contains("in the invoked document") && cycle.problems().get(0).contains("a.scxml"),
                cycle.problems()::toString);

        // the same document invoked twice side by side is no cycle
        Files.writeString(dir.resolve("kid.scxml"), doc("<state id=\"c\"/>"));
        Files.writeString(dir.resolve("twice.scxml"), doc("<parallel id=\"p\"><state id=\"x\"><invoke src=\"file:kid.scxml\"/></state>"
                + "<state id=\"y\"><invoke src=\"file:kid.scxml\"/></state></parallel>"));
        ScxmlImport.create().resolver(ScxmlResolver.files(dir)).read(dir.resolve("twice.scxml"));
    }
}

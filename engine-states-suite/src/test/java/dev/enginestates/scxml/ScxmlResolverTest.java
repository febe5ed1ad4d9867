package dev.enginestates.scxml;

import dev.enginestates.declare.InvalidMachineException;
import dev.enginestates.plain.StateMachine;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Set;
import java.util.TreeSet;
import java.util.stream.Collectors;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * {@link ScxmlResolver#files(Path)}: a document taken from a modder or the network names the children
 * it invokes, so the resolver that loads them must not read what lies outside the game's folder.
 */
class ScxmlResolverTest {

    private static String doc(String body) {
        return "<scxml xmlns=\"http://www.w3.org/2005/07/scxml\" version=\"1.0\" datamodel=\"ecmascript\">\n" + body + "\n</scxml>";
    }

    private static final String KID = doc("<final id=\"done\"/>");

    /** A parent that invokes what {@code expr} names and ends in {@code ok} when it loaded, {@code refused} on error.execution. */
    private static Set<String> invoke(Path root, Path parentFile, String expr) throws IOException {
        Files.writeString(parentFile, doc("""
                <state id="s0"><invoke srcexpr="%s"/>
                  <transition event="done.invoke.*" target="ok"/>
                  <transition event="error.execution" target="refused"/>
                </state>
                <final id="ok"/><final id="refused"/>
                """.formatted(expr)));
        StateMachine<Datamodel> m = new StateMachine<>(ScxmlImport.create().resolver(ScxmlResolver.files(root)).read(parentFile));
        return m.leaves().stream().map(ScxmlImport::stateId).collect(Collectors.toCollection(TreeSet::new));
    }

    @Test
    void the_files_resolver_reads_a_document_under_its_folder(@TempDir Path root) throws IOException {
        Files.createDirectories(root.resolve("kids"));
        Files.writeString(root.resolve("kids/kid.scxml"), KID);
        assertEquals(Set.of("ok"), invoke(root, root.resolve("parent.scxml"), "'kids/kid.scxml'"));
    }

    @Test
    void the_files_resolver_refuses_a_path_that_leaves_its_folder(@TempDir Path dir) throws IOException {
        Path root = Files.createDirectories(dir.resolve("game"));
        Files.writeString(dir.resolve("secret.scxml"), KID);
        assertEquals(Set.of("refused"), invoke(root, root.resolve("parent.scxml"), "'../secret.scxml'"),
                "'..' out of the folder is error.execution, the file is not read");
        assertEquals(Set.of("refused"), invoke(root, root.resolve("parent.scxml"), "'" + dir.resolve("secret.scxml").toUri() + "'"),
                "an absolute address outside the folder is refused too");
    }

    @Test
    void the_files_resolver_refuses_a_link_out_of_its_folder(@TempDir Path dir) throws IOException {
        Path root = Files.createDirectories(dir.resolve("game"));
        Files.writeString(dir.resolve("secret.scxml"), KID);
        try {
            Files.createSymbolicLink(root.resolve("link.scxml"), dir.resolve("secret.scxml"));
        } catch (UnsupportedOperationException | IOException e) {
            org.junit.jupiter.api.Assumptions.abort("this file system makes no symbolic links: " + e);
        }
        assertEquals(Set.of("refused"), invoke(root, root.resolve("parent.scxml"), "'link.scxml'"));
    }

    @Test
    void the_files_resolver_refuses_what_is_not_a_regular_file_and_what_is_too_large(@TempDir Path root) throws IOException {
        Files.createDirectories(root.resolve("folder.scxml"));
        assertEquals(Set.of("refused"), invoke(root, root.resolve("parent.scxml"), "'folder.scxml'"));
        Path big = root.resolve("big.scxml");
        try (var out = Files.newOutputStream(big)) {
            out.write(new byte[(int) ScxmlResolver.MAX_BYTES + 1]);
        }
        IOException e = assertThrows(IOException.class, () -> ScxmlResolver.files(root).read(big.toUri()));
        assertTrue(e.getMessage().contains("at most"), e.getMessage());
    }

    @Test
    void the_files_resolver_reads_files_only(@TempDir Path root) {
        IOException e = assertThrows(IOException.class, () -> ScxmlResolver.files(root).read(java.net.URI.create("jar:file:/x.jar!/a.scxml")));
        assertTrue(e.getMessage().contains("not a file: address"), e.getMessage());
    }

    @Test
    void the_files_resolver_needs_an_existing_folder(@TempDir Path dir) throws IOException {
        Path file = Files.writeString(dir.resolve("a.scxml"), KID);
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> ScxmlResolver.files(file));
        assertTrue(e.getMessage().contains("not a folder"), e.getMessage());
        assertThrows(IllegalArgumentException.class, () -> ScxmlResolver.files(dir.resolve("missing")));
    }

    private static Path dataDoc(Path root, String data) throws IOException {
        return Files.writeString(root.resolve("parent.scxml"), doc("<datamodel>" + data + "</datamodel><state id=\"s\"/>"));
    }

    @Test
    void data_src_is_read_through_the_resolver_as_its_content_would_be(@TempDir Path root) throws IOException {
        // SCXML 5.2.2: src gives the value as if it were the element's content (JSON for ECMAScript, else a
        // whitespace-normalised string); W3C tests 446, 552 and 558 check the same
        Files.writeString(root.resolve("list.json"), "[1, 2, 3]");
        Files.writeString(root.resolve("words.txt"), "\n  two   words \n");
        Path parent = dataDoc(root, "<data id=\"list\" src=\"file:list.json\"/><data id=\"words\" src=\"words.txt\"/>");
        StateMachine<Datamodel> m = new StateMachine<>(ScxmlImport.create().resolver(ScxmlResolver.files(root)).read(parent));
        Datamodel dm = m.context();
        assertEquals(Boolean.TRUE, dm.toJava(dm.evaluate("list instanceof Array && list.length == 3 && list[2] == 3")));
        assertEquals("two words", dm.toJava(dm.evaluate("words")));
    }

    @Test
    void data_src_that_cannot_be_loaded_refuses_the_import_naming_it(@TempDir Path dir) throws IOException {
        Path root = Files.createDirectories(dir.resolve("game"));
        Files.writeString(dir.resolve("secret.json"), "1");
        Path parent = dataDoc(root, "<data id=\"v\" src=\"../secret.json\"/>");
        InvalidMachineException outside = assertThrows(InvalidMachineException.class,
                () -> ScxmlImport.create().resolver(ScxmlResolver.files(root)).read(parent));
        assertTrue(outside.problems().get(0).contains("<data> src '../secret.json' cannot be loaded")
                && outside.problems().get(0).contains("outside"), outside.problems()::toString);

        InvalidMachineException none = assertThrows(InvalidMachineException.class, () -> ScxmlImport.create().read(parent));
        assertTrue(none.problems().get(0).contains("no resolver"), none.problems()::toString);

        Files.writeString(root.resolve("one.json"), "1");
        Path both = dataDoc(root, "<data id=\"v\" src=\"one.json\" expr=\"2\"/>");
        InvalidMachineException two = assertThrows(InvalidMachineException.class,
                () -> ScxmlImport.create().resolver(ScxmlResolver.files(root)).read(both));
        assertTrue(two.problems().get(0).contains("give exactly one"), two.problems()::toString);

        Path net = dataDoc(root, "<data id=\"v\" src=\"https://example.com/v.json\"/>");
        java.util.List<java.net.URI> asked = new java.util.ArrayList<>();
        InvalidMachineException network = assertThrows(InvalidMachineException.class,
                () -> ScxmlImport.create().resolver(uri -> {
                    asked.add(uri);
                    return "1";
                }).read(net));
        assertTrue(network.problems().get(0).contains("network address"), network.problems()::toString);
        assertEquals(java.util.List.of(), asked, "the resolver is never asked for a network address");
    }
}

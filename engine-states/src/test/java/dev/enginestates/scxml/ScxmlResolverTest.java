package dev.enginestates.scxml;

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
}

package dev.enginestates.scxml;

import java.io.IOException;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;

/**
 * Loads the documents an {@code <invoke src>} or {@code srcexpr} names, for
 * {@link ScxmlImport#resolver}. The importer resolves a relative {@code src} against the invoking
 * document's location and refuses network schemes ({@code http}, {@code https}, {@code ftp})
 * before it asks: a resolver is never asked to reach the network.
 */
@FunctionalInterface
public interface ScxmlResolver {
    /**
     * The text of the SCXML document at an address.
     *
     * @param uri the absolute address, such as {@code file:/games/door/child.scxml}
     * @return the document's text
     * @throws IOException if it cannot be read (the import refuses a static {@code src}; a
     *                     {@code srcexpr} raises {@code error.execution})
     */
    String read(URI uri) throws IOException;

    /**
     * A resolver that reads {@code file:} addresses under one folder and refuses any other: another
     * scheme, a path that leaves the folder (by {@code ..} or a symbolic link), something that is not a
     * regular file, or a file over 16 MiB. A document from a modder or the network can then name only the
     * documents shipped beside it, not {@code /etc/passwd} or {@code /dev/zero}.
     *
     * @param root the folder the documents live in (it must exist)
     * @return the resolver
     * @throws IllegalArgumentException if {@code root} is not a folder
     */
    static ScxmlResolver files(Path root) {
        Path base;
        try {
            base = root.toRealPath();
        } catch (IOException e) {
            throw new IllegalArgumentException("ScxmlResolver.files: '" + root + "' cannot be read as a folder: " + e, e);
        }
        if (!Files.isDirectory(base)) {
            throw new IllegalArgumentException("ScxmlResolver.files: '" + root + "' is not a folder; give the folder the documents live in");
        }
        return uri -> {
            if (!"file".equalsIgnoreCase(uri.getScheme())) {
                throw new IOException("'" + uri + "' is not a file: address; this resolver reads files under " + base + " only");
            }
            Path file = Path.of(uri).toRealPath();
            if (!file.startsWith(base)) {
                throw new IOException("'" + uri + "' is outside " + base + ", the only folder this resolver reads");
            }
            if (!Files.isRegularFile(file)) {
                throw new IOException("'" + uri + "' is not a regular file");
            }
            if (Files.size(file) > MAX_BYTES) {
                throw new IOException("'" + uri + "' has " + Files.size(file) + " bytes; this resolver reads documents of "
                        + MAX_BYTES + " bytes at most");
            }
            return Files.readString(file, StandardCharsets.UTF_8);
        };
    }

    /** The largest document {@link #files(Path)} reads, in bytes. */
    long MAX_BYTES = 16L << 20;
}

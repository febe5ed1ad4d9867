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
     * A resolver that reads {@code file:} addresses from the file system and refuses any other.
     *
     * @return the resolver
     */
    static ScxmlResolver files() {
        return uri -> {
            if (!"file".equalsIgnoreCase(uri.getScheme())) {
                throw new IOException("'" + uri + "' is not a file: address; this resolver reads files only");
            }
            return Files.readString(Path.of(uri), StandardCharsets.UTF_8);
        };
    }
}

package dev.enginestates.scxml;

import dev.enginestates.Machine;
import dev.enginestates.declare.InvalidMachineException;

import java.io.IOException;
import java.net.URI;
import java.util.HashMap;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.BiConsumer;
import java.util.function.LongConsumer;

/** What one imported document's instances share: its name, its states' engine paths, its log, how it loads children. */
final class Document {
    /** Schemes an {@code <invoke src>} may not name: the importer reaches no network. */
    static final Set<String> NETWORK = Set.of("http", "https", "ftp", "ws", "wss");

    final String name;
    /** The {@code <scxml>} element's {@code name} attribute ({@code _name}), or {@code null}. */
    final String scxmlName;
    /** SCXML state id to the engine's dotted path. */
    final Map<String, String> paths = new HashMap<>();
    final System.Logger logger = System.getLogger("dev.enginestates");
    final BiConsumer<String, Object> log;
    /** A datamodel's per-document state, such as its compiled scripts, by the datamodel's key: freed with the document. */
    final Map<Class<?>, Object> caches = new ConcurrentHashMap<>();
    /** The datamodel's variables and the top-level script, run before the instance's first code. */
    java.util.function.Consumer<Datamodel> init = dm -> { };
    /** Where the document was read from (relative {@code src} resolves against it), or null. */
    URI base;
    /** The importer's bounds for a machine of this document (see {@link ScxmlImport#invokeDepth} and the two after it). */
    int invokeDepth = ScxmlImport.DEFAULT_INVOKE_DEPTH;
    int sessions = ScxmlImport.DEFAULT_SESSIONS;
    long callBudget = ScxmlImport.DEFAULT_CALL_BUDGET;
    /** Whether its invokes are the world's child machines ({@link ScxmlImport#childMachines}). */
    boolean childMachines;
    /** Loads {@code src} documents, or null: then none can be loaded. */
    ScxmlResolver resolver;
    /**
     * Compiles a child document's text, read from an address (or null), with the importer's settings, while the machine
     * runs: the text and whatever its import reads through the resolver are spent from the call's budget first.
     */
    Compiler compiler;

    /** The importer's compilation of a child document while a machine runs. */
    interface Compiler {
        Machine<Datamodel> compile(String text, URI from, LongConsumer spend);
    }
    /** The document's {@code <invoke>}s in document order: a checkpoint names a child's by its index. */
    final java.util.List<Invoke> invokes = new java.util.ArrayList<>();
    /** Each state's onexit blocks by engine path: what an invoked session that ends runs last. */
    final Map<String, java.util.List<Exec[]>> exits = new HashMap<>();
    /** Children loaded by {@code srcexpr}, by address: each is compiled once. */
    private final Map<URI, Machine<Datamodel>> loaded = new java.util.concurrent.ConcurrentHashMap<>();

    Document(String name, String scxmlName, BiConsumer<String, Object> log) {
        this.name = name;
        this.scxmlName = scxmlName;
        this.log = log;
    }

    /** The address of a {@code src}: relative to the document, {@code file:x.scxml} too; a network address is refused. */
    static URI resolve(URI base, String src) {
        URI u;
        try {
            u = new URI(src.trim());
        } catch (java.net.URISyntaxException e) {
            throw new IllegalArgumentException("'" + src + "' is not a URI: " + e.getMessage());
        }
        if (u.getScheme() != null && NETWORK.contains(u.getScheme().toLowerCase(java.util.Locale.ROOT))) {
            throw new IllegalArgumentException("'" + src + "' is a network address: the importer loads no documents over a network");
        }
        if (u.isOpaque() && "file".equalsIgnoreCase(u.getScheme())) {
            u = URI.create(u.getSchemeSpecificPart()); // file:child.scxml, a relative path with a scheme
        }
        if (u.isAbsolute()) {
            return u;
        }
        if (base == null) {
            throw new IllegalArgumentException("'" + src + "' is relative, and the document was read from no location "
                    + "(read it from a Path)");
        }
        return base.resolve(u);
    }

    /** A child named by a {@code srcexpr} at run time, its compilation spent from {@code bounds}: a failure is error.execution. */
    Machine<Datamodel> load(String src, Bounds bounds) {
        try {
            URI u = resolve(base, src);
            if (resolver == null) {
                throw new DatamodelException("<invoke> src '" + src + "' cannot be loaded: the importer was given no "
                        + "resolver (ScxmlImport.resolver)", null);
            }
            Machine<Datamodel> m = loaded.get(u);
            if (m == null) {
                // compiled once per address, at about the cost of its length and of what its import reads
                m = compiler.compile(read(resolver, u), u, bounds::spend);
                loaded.put(u, m);
            }
            return m;
        } catch (IllegalArgumentException | IOException | InvalidMachineException e) {
            throw new DatamodelException("<invoke> src '" + src + "' cannot be run: " + e.getMessage(), e);
        }
    }

    /**
     * The resolver's text for an address. The resolver is the game's code: one that returns nothing or
     * throws is a document that cannot be loaded, as one that throws {@code IOException} is.
     */
    static String read(ScxmlResolver resolver, URI u) throws IOException {
        String text;
        try {
            text = resolver.read(u);
        } catch (RuntimeException e) {
            throw new IOException("the resolver threw " + e, e);
        }
        if (text == null) {
            throw new IOException("the resolver returned no text for " + u);
        }
        return text;
    }

    /**
     * A child given as text at run time ({@code <content expr>}), its compilation spent from {@code bounds}: a failure
     * is the invoke's error.execution.
     */
    Machine<Datamodel> compile(String xml, URI from, Bounds bounds) {
        try {
            return compiler.compile(xml, from != null ? from : base, bounds::spend);
        } catch (InvalidMachineException e) {
            throw new DatamodelException("<invoke> content is not a document the importer can run: " + e.getMessage(), e);
        }
    }
}

package dev.enginestates.scxml;

import dev.enginestates.Machine;
import dev.enginestates.declare.HistoryDepth;
import dev.enginestates.declare.InvalidMachineException;
import dev.enginestates.declare.NodeBuilder;
import dev.enginestates.declare.SelfAction;
import dev.enginestates.declare.SelfGuard;
import dev.enginestates.declare.Semantics;
import dev.enginestates.declare.TransitionBuilder;
import dev.enginestates.declare.UnknownEvents;
import org.xml.sax.InputSource;
import org.xml.sax.SAXException;
import org.xml.sax.SAXParseException;

import java.io.IOException;
import java.io.Reader;
import java.io.StringReader;
import java.net.URI;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.IdentityHashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import java.util.function.BiConsumer;
import java.util.function.Consumer;
import java.util.function.LongConsumer;
import java.util.function.Supplier;

/**
 * Imports a machine from an SCXML document (W3C State Chart XML) into the engine's declaration:
 * an ordinary {@link Machine} whose context is the document's {@link Datamodel}.
 *
 * <pre>{@code
 * Machine<Datamodel> door = ScxmlImport.create().read(Path.of("door.scxml"));
 * StateMachine<Datamodel> m = new StateMachine<>(door);
 * m.send("open");
 * }</pre>
 *
 * <p>Read: {@code <scxml>}, {@code <state>}, {@code <parallel>}, {@code <final>},
 * {@code <history>}, the {@code initial} attribute and the {@code <initial>} element,
 * {@code <transition>} with {@code event} (SCXML's descriptors: {@code foo} also matches
 * {@code foo.bar}, {@code *} any event), {@code cond}, {@code target} and {@code type},
 * {@code <onentry>}, {@code <onexit>}, {@code <datamodel>}/{@code <data>} (early or late
 * binding), {@code <donedata>}, {@code <invoke>} of SCXML documents (below), and the executable
 * content {@code <raise>}, {@code <send>} to an SCXML session (the machine itself, external or
 * {@code #_internal}, with {@code delay} and {@code id}; {@code #_parent}, {@code #_<invokeid>},
 * {@code #_scxml_<sessionid>}), {@code <cancel>}, {@code <log>}, {@code <assign>}, {@code <script>}, {@code <if>} and
 * {@code <foreach>}. Conditions and expressions go to the datamodel the document names
 * ({@code datamodel="null"} or {@code "ecmascript"}; without the attribute, ECMAScript when
 * Rhino is on the class path, else null). An error in executable content raises
 * {@code error.execution} on the machine's internal queue and ends that block, as SCXML says; so
 * does a {@code <send>} of a type or to a target the engine cannot serve (HTTP, say), and one to
 * an SCXML session it cannot reach raises {@code error.communication} (SCXML 6.2.4).
 *
 * <p>{@code <invoke>} (SCXML 6.4) runs a child SCXML session: its own machine, from inline
 * {@code <content>}, a {@code src} loaded at import or a {@code srcexpr} loaded when it starts
 * (both through the {@link #resolver}), started once the macrostep that entered its state is
 * over, with {@code namelist} and {@code <param>} as its data, cancelled when the state exits,
 * ending with {@code done.invoke.<id>} (and its {@code <donedata>}); its events reach the parent
 * with {@code _event.invokeid}, after the {@code <finalize>}, and {@code autoforward} copies the
 * parent's external events to it. A child runs inside its top machine's step, on that machine's
 * clock, on a plain machine or an entity (see the package's limits).
 *
 * <p>A machine made here is bounded for documents that do not end: its invoked sessions nest at most
 * {@link #invokeDepth} levels deep and run at most {@link #sessions} at once (an invoke beyond either
 * raises {@code error.execution}), and one call into the library (a send, a step, its start) spends at
 * most {@link #callBudget} instructions across all its sessions, or fails with a {@link CallBudgetException}.
 * One import compiles at most 1,000 documents (its inline children and each {@code <invoke src>} included) and
 * reads at most 64 Mi characters through the resolver; a child that could only start below the invoke depth is not
 * compiled.
 *
 * <p>What the importer cannot run is refused with one {@link InvalidMachineException} listing
 * every such element or attribute with its line: {@code <invoke src>} without a resolver, {@code src} on {@code <script>}, {@code <data src>} without a resolver,
 * XPath assignments. The XML is read by the JDK's parser with DTDs and external entities off.
 * An importer is a mutable builder; the machines it makes are immutable.
 */
public final class ScxmlImport {
    private static final Set<String> STATE_ELEMENTS = Set.of("state", "parallel", "final");
    private static final Set<String> EXECUTABLE = Set.of("raise", "send", "cancel", "log", "assign", "script", "if",
            "elseif", "else", "foreach");

    /** How deep invoked sessions nest by default: a session that would start below 16 levels of others is refused. */
    public static final int DEFAULT_INVOKE_DEPTH = 16;
    /** How many sessions one machine runs at once by default, its own included. */
    public static final int DEFAULT_SESSIONS = 100;
    /**
     * The instructions one call into the library (a send, a step, the start) may spend by default,
     * across the machine's sessions: ten times what one evaluation may run
     * ({@link EcmaScriptDatamodel#DEFAULT_INSTRUCTION_BUDGET}), some tens of milliseconds.
     */
    public static final long DEFAULT_CALL_BUDGET = 10_000_000;
    /**
     * Documents one import compiles at most: the document, its inline children and each static {@code src}, counted
     * at every {@code <invoke>} that names one (a document that invokes another twice compiles it twice).
     */
    static final int MAX_DOCUMENTS = 1_000;
    /** Characters one import reads through the resolver at most, over every static {@code src} and {@code <data src>}: 64 Mi. */
    static final long MAX_READ = 64L << 20;

    private final Map<String, Supplier<? extends Datamodel>> datamodels = new HashMap<>();
    private BiConsumer<String, Object> log;
    private ScxmlResolver resolver;
    private int invokeDepth = DEFAULT_INVOKE_DEPTH;
    private int sessions = DEFAULT_SESSIONS;
    private long callBudget = DEFAULT_CALL_BUDGET;
    private boolean childMachines;

    private ScxmlImport() {
        datamodels.put("null", NullDatamodel::new);
        datamodels.put("ecmascript", EcmaScriptDatamodel::new);
    }

    /**
     * Starts an import with the built-in datamodels ({@code null}, and {@code ecmascript} when Rhino is present).
     *
     * @return a new importer
     */
    public static ScxmlImport create() {
        return new ScxmlImport();
    }

    /**
     * Supplies a datamodel by the name a document gives in its {@code datamodel} attribute.
     *
     * @param name    the attribute's value, such as {@code "ecmascript"}
     * @param factory makes a fresh datamodel for each machine instance; it replaces the one given before
     * @return this importer, for chaining
     */
    public ScxmlImport datamodel(String name, Supplier<? extends Datamodel> factory) {
        datamodels.put(Objects.requireNonNull(name, "name"), Objects.requireNonNull(factory, "factory"));
        return this;
    }

    /**
     * Where {@code <log>} goes: {@code (label, value)}, the value as a Java value. Without it, the
     * {@code System.Logger} {@code "dev.enginestates"} at DEBUG.
     *
     * @param sink receives each log; it runs inside the machine's step, so keep it short
     * @return this importer, for chaining
     */
    public ScxmlImport log(BiConsumer<String, Object> sink) {
        this.log = Objects.requireNonNull(sink, "sink");
        return this;
    }

    /**
     * How {@code <invoke src>} and {@code srcexpr} documents are loaded (SCXML 6.4). Without a
     * resolver a document with a static {@code src} is refused and a {@code srcexpr} raises
     * {@code error.execution}. A relative {@code src} resolves against the invoking document's
     * file (a document read from a string or reader has none); network addresses are refused
     * before the resolver is asked.
     *
     * @param resolver loads a document's text by its address, such as {@link ScxmlResolver#files(java.nio.file.Path)}
     * @return this importer, for chaining
     */
    public ScxmlImport resolver(ScxmlResolver resolver) {
        this.resolver = Objects.requireNonNull(resolver, "resolver");
        return this;
    }

    /**
     * How deep the machines made here may nest invoked sessions (SCXML 6.4): an {@code <invoke>} that would
     * start a session below {@code levels} others (the machine's own counts as the first) fails, raising
     * {@code error.execution} in the invoking session with the chain of documents, so a document that
     * invokes itself ends.
     *
     * @param levels the deepest session's level, 1 (no invoke starts) or more; {@link #DEFAULT_INVOKE_DEPTH} unless set
     * @return this importer, for chaining
     * @throws IllegalArgumentException if {@code levels} is less than 1
     */
    public ScxmlImport invokeDepth(int levels) {
        if (levels < 1) {
            throw new IllegalArgumentException("invokeDepth must be 1 or more (the machine's own session is the first level); got " + levels);
        }
        this.invokeDepth = levels;
        return this;
    }

    /**
     * How many sessions one machine made here runs at once, its own included: an {@code <invoke>} beyond
     * fails, raising {@code error.execution} in the invoking session, so a document that invokes several
     * copies of itself at each level ends too. A session counts until it ends or is cancelled.
     *
     * @param max the most sessions at once, 1 (no invoke starts) or more; {@link #DEFAULT_SESSIONS} unless set
     * @return this importer, for chaining
     * @throws IllegalArgumentException if {@code max} is less than 1
     */
    public ScxmlImport sessions(int max) {
        if (max < 1) {
            throw new IllegalArgumentException("sessions must be 1 or more (the machine's own session counts); got " + max);
        }
        this.sessions = max;
        return this;
    }

    /**
     * The work one call into a machine made here (a send, a step, its start) may do, across all its
     * sessions, in instructions: what its ECMAScript evaluations run (each also bounded by its datamodel's
     * own budget), plus 1,000 for each condition or action the engine runs, each element of executable
     * content and each {@code <foreach>} turn, 50 for each value copied between Java and the datamodel (an
     * event's data, say), and one for each character of a document compiled while the machine runs. Once it is spent, the machine's code throws a
     * {@link CallBudgetException}: the call fails as when a game's code throws, and the machine keeps a
     * valid configuration; the next call starts with the whole budget.
     *
     * @param instructions the budget of one call, positive; {@link #DEFAULT_CALL_BUDGET} unless set
     * @return this importer, for chaining
     * @throws IllegalArgumentException if {@code instructions} is not positive
     */
    public ScxmlImport callBudget(long instructions) {
        if (instructions <= 0) {
            throw new IllegalArgumentException("callBudget must be positive; got " + instructions);
        }
        this.callBudget = instructions;
        return this;
    }

    /**
     * Whether an {@code <invoke>} is compiled as a child machine of the world (SCXML 6.4 on entities): the
     * child is an ordinary record on an entity of its own, keyed {@code "<parent key>/<invokeid>"}, started
     * once the move that entered its state is over and stopped when the state exits, as a declared
     * {@code invoke} is; it is queried, checkpointed, streamed and shown like any record. Its
     * {@code done.invoke.<id>} is the world's {@code xstate.done.actor.<id>} with its top-level
     * {@code <donedata>} as output; {@code #_parent} and {@code #_<invokeid>} sends go between the records, and
     * {@code namelist} and {@code <param>} are its data. The parent starts the child's initial state (with its
     * entry actions) at its first event or step after the child joined. A machine made so runs on a
     * {@code StateWorld} only, and each invoke names its child at import: inline {@code <content>} or a static
     * {@code src}, with an {@code id} (or {@code idlocation}) without {@code '.'}, {@code '/'} or {@code '*'}.
     * Off by default: the children run inside their top machine, on any face.
     *
     * @param on whether invokes are the world's child machines
     * @return this importer, for chaining
     */
    public ScxmlImport childMachines(boolean on) {
        this.childMachines = on;
        return this;
    }

    /** A copy with the same settings: what a document keeps to compile the children it loads at run time. */
    private ScxmlImport copy() {
        ScxmlImport c = new ScxmlImport();
        c.datamodels.putAll(datamodels);
        c.log = log;
        c.resolver = resolver;
        c.invokeDepth = invokeDepth;
        c.sessions = sessions;
        c.callBudget = callBudget;
        c.childMachines = childMachines;
        return c;
    }

    /**
     * Reads a document from a file.
     *
     * @param file the SCXML file
     * @return the machine, named by the document's {@code name} attribute (else the file's name)
     * @throws IOException             if the file cannot be read
     * @throws InvalidMachineException if it is not well-formed SCXML or uses what the importer cannot run
     */
    public Machine<Datamodel> read(Path file) throws IOException {
        String name = file.getFileName().toString();
        try (Reader r = Files.newBufferedReader(file)) {
            return read(r, name.endsWith(".scxml") ? name.substring(0, name.length() - 6) : name,
                    file.toAbsolutePath().toUri());
        }
    }

    /**
     * Reads a document from its text.
     *
     * @param xml the SCXML text
     * @return the machine, named by the document's {@code name} attribute (else {@code "scxml"})
     * @throws InvalidMachineException if it is not well-formed SCXML or uses what the importer cannot run
     */
    public Machine<Datamodel> read(String xml) {
        try {
            return read(new StringReader(Objects.requireNonNull(xml, "xml")), "scxml");
        } catch (IOException e) {
            throw new IllegalStateException(e); // a string reader does not fail
        }
    }

    /**
     * Reads a document from a reader.
     *
     * @param xml         the SCXML text
     * @param defaultName the machine's name when the document has no {@code name} attribute
     * @return the machine
     * @throws IOException             if the reader fails
     * @throws InvalidMachineException if it is not well-formed SCXML or uses what the importer cannot run
     */
    public Machine<Datamodel> read(Reader xml, String defaultName) throws IOException {
        return read(xml, defaultName, null);
    }

    private Machine<Datamodel> read(Reader xml, String defaultName, URI base) throws IOException {
        return read(xml, defaultName, base, new Reads(null));
    }

    private Machine<Datamodel> read(Reader xml, String defaultName, URI base, Reads reads) throws IOException {
        Xml root;
        try {
            root = Xml.parse(new InputSource(xml));
        } catch (Xml.TooLarge e) {
            throw new InvalidMachineException(defaultName, List.of("line " + e.getLineNumber() + ", column "
                    + e.getColumnNumber() + ": " + e.getMessage()));
        } catch (SAXParseException e) {
            throw new InvalidMachineException(defaultName, List.of("line " + e.getLineNumber() + ", column "
                    + e.getColumnNumber() + ": not well-formed XML: " + e.getMessage()));
        } catch (SAXException e) {
            throw new InvalidMachineException(defaultName, List.of("not well-formed XML: " + e.getMessage()));
        }
        reads.documents++;
        return new Build(root, root.attr("name") != null ? root.attr("name") : defaultName, base, null, reads).machine();
    }

    /**
     * What one import reads and compiles in all (the document, its inline children, each static {@code src} and
     * {@code <data src>}), shared by the builds of its documents; for a child compiled while a machine runs, the
     * running call's budget, which each text read spends its length from.
     */
    private static final class Reads {
        final LongConsumer spend;
        int documents;
        long characters;
        /** Set once a limit is reached: nothing more is loaded or compiled, and the import fails. */
        boolean over;

        Reads(LongConsumer spend) {
            this.spend = spend;
        }

        /** A text read through the resolver: false, with nothing spent, when it would go over {@link ScxmlImport#MAX_READ}. */
        boolean read(String text) {
            if (characters + text.length() > MAX_READ) {
                over = true;
                return false;
            }
            characters += text.length();
            if (spend != null) {
                spend.accept(text.length());
            }
            return true;
        }
    }

    /**
     * The SCXML id of the state at an imported machine's path (its leaf, such as a
     * {@code leaves()} entry): the last key, decoded ({@code '.'} in an id is escaped in keys).
     *
     * @param path a state path of an imported machine
     * @return the state's id in the document (a state without one has a generated id starting with {@code '$'})
     */
    public static String stateId(String path) {
        String k = path.substring(path.lastIndexOf('.') + 1);
        StringBuilder sb = new StringBuilder();
        for (int i = 0; i < k.length(); i++) {
            char c = k.charAt(i);
            if (c == '$' && i + 1 < k.length()) {
                char n = k.charAt(i + 1);
                if (n == '$' || n == '_' || n == 'h') {
                    sb.append(n == '$' ? '$' : n == '_' ? '.' : '#');
                    i++;
                    continue;
                }
            }
            sb.append(c);
        }
        return sb.toString();
    }

    /** An engine key for an SCXML id: keys take no '.' and no leading '#'. */
    static String key(String id) {
        StringBuilder sb = new StringBuilder();
        for (int i = 0; i < id.length(); i++) {
            char c = id.charAt(i);
            if (c == '$') {
                sb.append("$$");
            } else if (c == '.') {
                sb.append("$_");
            } else if (c == '#' && i == 0) {
                sb.append("$h");
            } else {
                sb.append(c);
            }
        }
        return sb.toString();
    }

    /** One import: the document's tree, its states by id, the problems found. */
    private final class Build {
        final Xml root;
        final String name;
        final List<String> problems = new ArrayList<>();
        final Map<String, Xml> byId = new LinkedHashMap<>();
        final Map<Xml, String> idOf = new IdentityHashMap<>();
        final List<String> tokens = new ArrayList<>();
        final List<Xml> data = new ArrayList<>();
        boolean lateBinding;
        Supplier<? extends Datamodel> factory;
        Document doc;
        int generated;
        final URI base;
        /** Whether the document invokes: then its transitions see every event first (finalize, autoforward). */
        boolean invokes;
        /** Children compiled at import (inline content, static src), by their {@code <invoke>}. */
        final Map<Xml, Machine<Datamodel>> children = new IdentityHashMap<>();
        /** The text each {@code <data src>} was loaded with at import, by its element. */
        final Map<Xml, String> dataSources = new IdentityHashMap<>();

        /** The document whose {@code <invoke>} this one is compiled for, or null for the document imported. */
        final Build parent;
        /** The session level this document's machine runs at when its import's document is a top machine: 1 for it. */
        final int level;
        /** What the whole import has read and compiled. */
        final Reads reads;

        Build(Xml root, String name, URI base, Build parent, Reads reads) {
            this.root = root;
            this.name = name;
            this.base = base;
            this.parent = parent;
            this.level = parent == null ? 1 : parent.level + 1;
            this.reads = reads;
        }

        /**
         * Whether this document's {@code <invoke>} children are compiled: not below {@link ScxmlImport#invokeDepth} levels, where
         * no session of theirs can ever start (the invoke fails with the depth's error.execution when it runs), and not
         * once the import has reached one of its limits.
         */
        private boolean compilesChildren() {
            return level < invokeDepth && !reads.over;
        }

        /** A text read through the resolver at import: counted, or a problem at {@code x} once the import has read its most. */
        private boolean counted(Xml x, String text) {
            if (reads.read(text)) {
                return true;
            }
            problem(x, "the import would read more than " + MAX_READ + " characters through the resolver, its limit over"
                    + " every <invoke src> and <data src>; expected documents that load less");
            return false;
        }

        /** Whether a static {@code src} names a document being compiled above this one: loading it would never end. */
        private boolean compiling(URI u) {
            for (Build b = this; b != null; b = b.parent) {
                if (b.base != null && b.base.normalize().equals(u.normalize())) {
                    return true;
                }
            }
            return false;
        }

        Machine<Datamodel> machine() {
            if (!root.is("scxml")) {
                throw new InvalidMachineException(name, List.of("line " + root.line + ": the root element is <"
                        + root.name + ">, expected <scxml> in the namespace " + Xml.SCXML_NS));
            }
            String dm = root.attr("datamodel");
            if (dm == null) {
                dm = EcmaScriptDatamodel.available() ? "ecmascript" : "null";
            }
            factory = datamodels.get(dm);
            if (factory == null) {
                problems.add("line " + root.line + ": datamodel '" + dm + "' is not supplied (known: "
                        + String.join(", ", datamodels.keySet()) + "; add one with ScxmlImport.datamodel)");
            } else if ("ecmascript".equals(dm) && !EcmaScriptDatamodel.available()) {
                problems.add("line " + root.line + ": datamodel 'ecmascript' needs Rhino (org.mozilla:rhino) on the class path");
            }
            lateBinding = "late".equals(root.attr("binding"));
            collectIds(root, "");
            check(root);
            if (!problems.isEmpty()) {
                throw new InvalidMachineException(name, problems);
            }
            System.Logger logger = System.getLogger("dev.enginestates");
            doc = new Document(name, root.attr("name"), log != null ? log : (label, value) -> logger.log(System.Logger.Level.DEBUG,
                    () -> "machine '" + name + "' log " + (label == null ? "" : label + ": ") + value));
            byId.forEach((id, x) -> doc.paths.put(id, path(x)));
            doc.base = base;
            doc.resolver = resolver;
            doc.invokeDepth = invokeDepth;
            doc.sessions = sessions;
            doc.callBudget = callBudget;
            doc.childMachines = childMachines;
            ScxmlImport settings = copy();
            doc.compiler = (text, from, spend) -> {
                try {
                    // compiled while the machine runs: the text and all its import reads are spent from the call's budget
                    spend.accept(text.length());
                    return settings.read(new StringReader(text), name + "/invoke", from, new Reads(spend));
                } catch (IOException e) {
                    throw new IllegalStateException(e); // a string reader does not fail
                }
            };
            Supplier<? extends Datamodel> f = factory;
            Document d = doc;
            return Machine.define(name, () -> {
                Datamodel model = f.get();
                model.session = new Session(d);
                model.session.dm = model;
                model.start(model.session.id, d.scxmlName, "#_scxml_" + model.session.id, model.session::isIn);
                return model;
            }, m -> {
                m.unknownEvents(UnknownEvents.ACCEPT).semantics(Semantics.SCXML); // document order; eventless after every microstep
                m.entry(init());
                if (routes()) {
                    // the engine's own wake event: starts invocations, hands events to children (see Session)
                    m.on(Session.WAKE, t -> t.action((model, e, self) -> model.session.wake(e, self)));
                    // no SCXML transition is on the root: this one only lets the session see every event first
                    m.on("*", t -> t.guard((model, e, self) -> {
                        if (!Session.own(e)) {
                            model.session.enter(model, e, self);
                        }
                        return false;
                    }));
                }
                fill(m, root);
            });
        }

        /**
         * Whether the session sees every event first and takes the engine's wake event: a document that invokes,
         * and every document of a machine whose invokes are child machines (its sends to its parent wait as wakes).
         */
        boolean routes() {
            return invokes || childMachines;
        }

        /** Whether this document is a world's child machine: its parent starts its initial state. */
        boolean bootedByParent() {
            return childMachines && parent != null;
        }

        final Map<Xml, String> paths = new IdentityHashMap<>();

        String path(Xml x) {
            return paths.get(x);
        }

        // ------------------------------------------------------------------ ids and checks

        void collectIds(Xml parent, String parentPath) {
            for (Xml x : parent.elements()) {
                if (!x.isScxml()) {
                    continue;
                }
                if (STATE_ELEMENTS.contains(x.name) || x.name.equals("history")) {
                    String id = x.attr("id");
                    if (id == null) {
                        id = "$" + (++generated);
                    } else if (id.isEmpty() || id.chars().anyMatch(Character::isWhitespace)) {
                        // targets and initial list ids separated by spaces: such an id is one no transition can name
                        problem(x, "<" + x.name + "> id '" + id + "' " + (id.isEmpty() ? "is empty" : "has spaces in it")
                                + "; an id names the state in targets and initial, which list ids separated by spaces:"
                                + " give it one without spaces, or no id at all");
                        continue;
                    } else if (byId.containsKey(id)) {
                        problems.add("line " + x.line + ": id '" + id + "' is already used at line " + byId.get(id).line);
                        continue;
                    }
                    byId.put(id, x);
                    idOf.put(x, id);
                    String p = parentPath.isEmpty() ? key(id) : parentPath + "." + key(id);
                    paths.put(x, p);
                    collectIds(x, p);
                } else if (x.name.equals("datamodel")) {
                    for (Xml dx : x.elements()) {
                        if (dx.is("data")) {
                            data.add(dx);
                        }
                    }
                }
            }
        }

        void problem(Xml x, String what) {
            problems.add("line " + x.line + ": " + what);
        }

        void check(Xml el) {
            for (Xml x : el.elements()) {
                if (!x.isScxml()) {
                    continue; // other namespaces are the document's own annotations
                }
                switch (x.name) {
                    case "state", "parallel", "final", "history", "initial", "datamodel", "donedata" -> check(x);
                    case "onentry", "onexit" -> checkExecutable(x);
                    case "transition" -> {
                        checkTargets(x);
                        String ev = x.attr("event");
                        if (ev != null) {
                            tokens.addAll(List.of(ev.trim().split("\\s+")));
                        }
                        String type = x.attr("type");
                        if (type != null && !type.equals("internal") && !type.equals("external")) {
                            problem(x, "<transition> type '" + type + "' is neither 'internal' nor 'external'");
                        }
                        checkExecutable(x);
                    }
                    case "data" -> {
                        if (x.attr("src") != null) {
                            loadData(x);
                        }
                        if (x.attr("id") == null) {
                            problem(x, "<data> needs an id");
                        }
                    }
                    case "script" -> checkExecutable(x);
                    case "invoke" -> checkInvoke(el, x);
                    case "param", "content" -> { }
                    default -> problem(x, "<" + x.name + "> is not an SCXML element the importer knows here");
                }
            }
            if (el.is("state") || el.is("parallel") || el.is("scxml")) {
                String initial = el.attr("initial");
                if (initial != null) {
                    for (String t : initial.trim().split("\\s+")) {
                        if (!byId.containsKey(t)) {
                            problem(el, "initial '" + t + "' names no state");
                        }
                    }
                }
            }
            if (el.is("parallel")) {
                for (Xml h : el.elements()) {
                    for (Xml t : h.is("history") ? h.elements() : List.<Xml>of()) {
                        String target = t.attr("target");
                        if (t.is("transition") && (!executable(t).isEmpty()
                                || (target != null && target.trim().split("\\s+").length > 1))) {
                            problem(t, "a <history> of a <parallel> whose default transition has content or several "
                                    + "targets is not supported");
                        }
                    }
                }
            }

        }

        /**
         * A {@code <data src>}: its text read now through the resolver, as a static invoke {@code src} is, and
         * read by the datamodel as inline content when the variable is declared (SCXML 5.2.2).
         */
        private void loadData(Xml x) {
            String src = x.attr("src");
            if (x.attr("expr") != null || !x.nodes.isEmpty() && !x.inner().isBlank()) {
                problem(x, "<data> has src and also expr or content: give exactly one (SCXML 5.2.2)");
                return;
            }
            if (resolver == null) {
                problem(x, "<data> src '" + src + "' cannot be loaded: the importer was given no resolver (ScxmlImport.resolver)");
                return;
            }
            try {
                if (reads.over) {
                    return; // the import fails already: nothing more is read
                }
                String text = Document.read(resolver, Document.resolve(base, src));
                if (counted(x, text)) {
                    dataSources.put(x, text);
                }
            } catch (IllegalArgumentException | IOException e) {
                problem(x, "<data> src '" + src + "' cannot be loaded: " + e.getMessage());
            }
        }

        /** An {@code <invoke>}: its child compiled now when it is inline or a static {@code src} (SCXML 6.4). */
        void checkInvoke(Xml state, Xml x) {
            invokes = true;
            if (!state.is("state") && !state.is("parallel")) {
                problem(x, "<invoke> belongs in a <state> or <parallel>");
            }
            if (x.attr("id") != null && x.attr("idlocation") != null) {
                problem(x, "<invoke> has both id and idlocation");
            }
            if (childMachines) {
                checkChildMachine(x);
            }
            List<Xml> content = x.elements().stream().filter(c -> c.is("content")).toList();
            int sources = (x.attr("src") != null ? 1 : 0) + (x.attr("srcexpr") != null ? 1 : 0) + content.size();
            if (sources != 1) {
                problem(x, "<invoke> needs exactly one of src, srcexpr and <content>");
            }
            for (Xml c : x.elements()) {
                if (c.is("finalize")) {
                    checkExecutable(c);
                } else if (!c.is("param") && !c.is("content") && c.isScxml()) {
                    problem(c, "<" + c.name + "> is not allowed in <invoke>");
                }
            }
            String src = x.attr("src");
            if (src != null) {
                try {
                    URI u = Document.resolve(base, src);
                    if (resolver == null) {
                        problem(x, "<invoke> src '" + src + "' cannot be loaded: the importer was given no resolver "
                                + "(ScxmlImport.resolver)");
                    } else if (compiling(u)) {
                        // each static src is compiled at import, so a document that invokes itself (directly or through
                        // others) would be compiled without end; a srcexpr starts its child only when the invoke runs
                        problem(x, "<invoke> src '" + src + "' names a document this import is already compiling (" + u
                                + "), so it would invoke itself without end; expected a chain of documents that ends, or srcexpr"
                                + " to load it when the invoke starts");
                    } else if (compilesChildren()) {
                        String text = Document.read(resolver, u);
                        if (counted(x, text)) {
                            child(x, text, u);
                        }
                    }
                } catch (IllegalArgumentException | IOException e) {
                    problem(x, "<invoke> src '" + src + "' cannot be loaded: " + e.getMessage());
                }
            }
            if (content.size() == 1 && content.get(0).attr("expr") == null) {
                List<Xml> docs = content.get(0).elements().stream().filter(c -> c.is("scxml")).toList();
                if (docs.size() != 1) {
                    problem(content.get(0), "<invoke> <content> needs one <scxml> document (or expr)");
                } else if (compilesChildren()) {
                    compileChild(x, docs.get(0), base);
                }
            }
        }

        /**
         * An {@code <invoke>} compiled as a world's child machine: its document, type and id are known at import,
         * since the world starts, keys and links the child by them.
         */
        private void checkChildMachine(Xml x) {
            String why = " (ScxmlImport.childMachines: the world starts, keys and restores a child by what the"
                    + " import compiled)";
            if (x.attr("srcexpr") != null) {
                problem(x, "<invoke> srcexpr loads its document when the invoke starts; a child machine's document is"
                        + " compiled at import: expected a static src or inline <content>" + why);
            }
            x.elements().stream().filter(c -> c.is("content") && c.attr("expr") != null).forEach(c ->
                    problem(c, "<content expr> makes the child's document when the invoke starts; a child machine's"
                            + " document is compiled at import: expected an inline <scxml> or a static src" + why));
            if (x.attr("typeexpr") != null) {
                problem(x, "<invoke> typeexpr is evaluated when the invoke starts; a child machine's type is known at"
                        + " import: expected type=\"http://www.w3.org/TR/scxml/\" or none" + why);
            } else if (x.attr("type") != null && !Invoke.SCXML_TYPES.contains(x.attr("type"))) {
                problem(x, "<invoke> type '" + x.attr("type") + "' is not supported: only SCXML sessions"
                        + " (http://www.w3.org/TR/scxml/)");
            }
            String id = x.attr("id");
            if (id != null && (id.isBlank() || id.contains(".") || id.contains("/") || id.contains("*"))) {
                problem(x, "<invoke> id '" + id + "' names a child machine, whose key is '<parent key>/" + id + "' and"
                        + " whose done event is done.invoke." + id + ": expected a plain name, not empty, without '.',"
                        + " '/' or '*'");
            }
        }

        private void child(Xml invoke, String text, URI from) {
            try {
                Xml childRoot = Xml.parse(new InputSource(new StringReader(text)));
                compileChild(invoke, childRoot, from);
            } catch (SAXException | IOException e) {
                problem(invoke, "<invoke> src document '" + from + "' is not well-formed XML: " + e.getMessage());
            }
        }

        private void compileChild(Xml invoke, Xml childRoot, URI from) {
            String childName = childRoot.attr("name") != null ? childRoot.attr("name") : name + "/invoke@" + invoke.line;
            if (++reads.documents > MAX_DOCUMENTS) {
                reads.over = true;
                problem(invoke, "the import would compile more than " + MAX_DOCUMENTS + " documents, its limit (the document, its"
                        + " inline children and each <invoke src>, once for each invoke that names it); expected fewer invoked"
                        + " documents (does a document invoke another several times, which invokes others several times?)");
                return;
            }
            try {
                children.put(invoke, new Build(childRoot, childName, from, this, reads).machine());
            } catch (InvalidMachineException e) {
                for (String p : e.problems()) {
                    problem(invoke, "in the invoked document '" + childName + "': " + p);
                }
            }
        }

        void checkTargets(Xml t) {
            String target = t.attr("target");
            if (target != null) {
                for (String id : target.trim().split("\\s+")) {
                    if (!id.isEmpty() && !byId.containsKey(id)) {
                        problem(t, "<transition> target '" + id + "' names no state");
                    }
                }
            }
        }

        List<Xml> executable(Xml block) {
            return block.elements().stream().filter(Xml::isScxml).toList();
        }

        void checkExecutable(Xml block) {
            if (block.is("script")) {
                checkOne(block);
                return;
            }
            for (Xml x : executable(block)) {
                checkOne(x);
            }
        }

        void checkOne(Xml x) {
            if (!EXECUTABLE.contains(x.name)) {
                problem(x, "<" + x.name + "> is not executable content the importer knows");
                return;
            }
            switch (x.name) {
                case "raise" -> {
                    if (x.attr("event") == null) {
                        problem(x, "<raise> needs an event");
                    }
                }
                case "script" -> {
                    if (x.attr("src") != null) {
                        problem(x, "<script src> is not supported: the importer loads nothing; put the script inline");
                    }
                }
                case "assign" -> {
                    if (x.attr("location") == null) {
                        problem(x, "<assign> needs a location");
                    }
                    if (x.attr("type") != null || x.attr("attr") != null) {
                        problem(x, "<assign> type/attr (XPath) is not supported");
                    }
                }
                case "cancel" -> {
                    if (x.attr("sendid") == null && x.attr("sendidexpr") == null) {
                        problem(x, "<cancel> needs sendid or sendidexpr");
                    }
                }
                case "send" -> {
                    // a target or type the engine cannot serve (HTTP included) is no import problem: SCXML 6.2.4
                    // makes it error.execution (or error.communication) when the send runs, which documents test
                    if (x.attr("event") == null && x.attr("eventexpr") == null
                            && x.elements().stream().noneMatch(c -> c.is("content"))) {
                        problem(x, "<send> needs event or eventexpr");
                    }
                    for (Xml c : x.elements()) {
                        if (!c.is("param") && !c.is("content")) {
                            problem(c, "<" + c.name + "> is not allowed in <send>");
                        }
                    }
                }
                case "if", "foreach" -> {
                    if (x.name.equals("if") && x.attr("cond") == null) {
                        problem(x, "<if> needs a cond");
                    }
                    if (x.name.equals("foreach") && (x.attr("array") == null || x.attr("item") == null)) {
                        problem(x, "<foreach> needs array and item");
                    }
                    for (Xml c : executable(x)) {
                        checkOne(c);
                    }
                }
                default -> { }
            }
        }

        // ------------------------------------------------------------------ the declaration

        /** The root's first entry action: the datamodel's variables, then the document's top-level script. */
        SelfAction<Datamodel> init() {
            List<Xml> early = new ArrayList<>(data);
            List<Xml> top = root.elements().stream().filter(x -> x.is("script")).toList();
            Exec[] scripts = top.stream().map(this::compile).toArray(Exec[]::new);
            doc.init = dm -> {
                for (Xml d : early) {
                    boolean now = !lateBinding || isRootData(d);
                    declare(dm, d, now);
                }
                Exec.block(scripts, dm);
            };
            return (dm, e, self) -> dm.session.enter(dm, e, self);
        }

        boolean isRootData(Xml d) {
            for (Xml x : root.elements()) {
                if (x.is("datamodel") && x.nodes.contains(d)) {
                    return true;
                }
            }
            return false;
        }

        void declare(Datamodel dm, Xml d, boolean withValue) {
            String id = d.attr("id");
            if (dm.session.initial.containsKey(id)) {
                // SCXML 6.4: an invoke's namelist and params replace the values the child's document gives
                dm.declare(id, dm.session.initial.get(id));
                return;
            }
            if (!withValue) {
                dm.declare(id, Datamodel.UNDEFINED);
                return;
            }
            try {
                String expr = d.attr("expr");
                String loaded = dataSources.get(d);
                Object value = expr != null ? dm.evaluate(expr)
                        : loaded != null ? (loaded.isBlank() ? Datamodel.UNDEFINED : dm.content(loaded))
                        : d.nodes.isEmpty() || d.inner().isBlank() ? Datamodel.UNDEFINED : dm.content(d.inner());
                dm.declare(id, value);
            } catch (DatamodelException ex) {
                dm.declare(id, Datamodel.UNDEFINED);
                dm.session.error(ex.at(d.name, d.line, d.column));
            }
        }

        <B extends NodeBuilder<Datamodel, B>> void fill(B b, Xml el) {
            String id = idOf.get(el);
            if (id != null) {
                b.id(key(id));
            }
            if (lateBinding && el != root) {
                List<Xml> mine = new ArrayList<>();
                for (Xml x : el.elements()) {
                    if (x.is("datamodel")) {
                        x.elements().stream().filter(d -> d.is("data")).forEach(mine::add);
                    }
                }
                if (!mine.isEmpty()) {
                    b.entry((SelfAction<Datamodel>) (dm, e, self) -> {
                        dm.session.enter(dm, e, self);
                        if (dm.session.lateBound.add(id)) {
                            for (Xml d : mine) {
                                declare(dm, d, true);
                            }
                        }
                    });
                }
            }
            List<Xml> children = new ArrayList<>();
            for (Xml x : el.elements()) {
                if (!x.isScxml()) {
                    continue;
                }
                switch (x.name) {
                    case "onentry" -> b.entry(action(compileBlock(x)));
                    case "onexit" -> {
                        Exec[] block = compileBlock(x);
                        b.exit(action(block));
                        doc.exits.computeIfAbsent(path(el), k -> new ArrayList<>()).add(block);
                    }
                    case "state", "parallel", "final", "history" -> children.add(x);
                    default -> { }
                }
            }
            List<Xml> invokeEls = el.elements().stream().filter(x -> x.is("invoke")).toList();
            if (!invokeEls.isEmpty()) {
                List<Invoke> list = invokeEls.stream().map(x -> invoke(el, x)).toList();
                if (childMachines) {
                    for (Invoke inv : list) {
                        if (inv.machine() != null) {
                            Machine<Datamodel> child = inv.machine();
                            b.invoke(inv.id(), child, i -> i.input(dm -> dm.session.childContext(inv, child))
                                    .output(dm -> dm.session.output()));
                        }
                    }
                }
                b.entry((SelfAction<Datamodel>) (dm, e, self) -> {
                    dm.session.enter(dm, e, self);
                    for (Invoke inv : list) {
                        dm.session.scheduleInvoke(inv);
                    }
                });
                b.exit((SelfAction<Datamodel>) (dm, e, self) -> {
                    dm.session.enter(dm, e, self);
                    dm.session.cancelInvokes(id);
                });
            }
            if (el.is("final")) {
                Xml donedata = el.elements().stream().filter(x -> x.is("donedata")).findFirst().orElse(null);
                if (donedata != null) {
                    Xml parent = parentOf(el);
                    // a top-level final's donedata (the root has no id) is a child session's done.invoke data
                    String parentId = parent == null ? null : idOf.getOrDefault(parent, "");
                    Exec.Payload payload = payload(donedata);
                    b.entry((SelfAction<Datamodel>) (dm, e, self) -> {
                        dm.session.enter(dm, e, self);
                        try {
                            Object value = payload.value(dm);
                            if (parentId != null) {
                                dm.session.doneData.put(parentId, value);
                            }
                        } catch (DatamodelException ex) {
                            dm.session.doneData.remove(parentId);
                            dm.session.error(ex.at(donedata.name, donedata.line, donedata.column));
                        }
                    });
                } else {
                    // a final without <donedata> gives its parent's done event no data, whatever a sibling
                    // final gave the last time (SCXML 5.5: the data comes from the final that was entered)
                    Xml parent = parentOf(el);
                    String parentId = parent == null ? null : idOf.getOrDefault(parent, "");
                    b.entry((SelfAction<Datamodel>) (dm, e, self) -> {
                        dm.session.enter(dm, e, self);
                        if (parentId != null) {
                            dm.session.doneData.remove(parentId);
                        }
                    });
                }
            }
            for (Xml c : children) {
                String k = key(idOf.get(c));
                switch (c.name) {
                    case "state" -> b.state(k, s -> fill(s, c));
                    case "parallel" -> b.state(k, s -> {
                        s.parallel();
                        fill(s, c);
                    });
                    case "final" -> b.finalState(k, s -> fill(s, c));
                    case "history" -> {
                        Xml t = c.elements().stream().filter(x -> x.is("transition") && x.attr("target") != null)
                                .findFirst().orElse(null);
                        String[] targets = t == null ? new String[0] : t.attr("target").trim().split("\\s+");
                        Exec[] content = t == null ? new Exec[0] : compileBlock(t);
                        String via = targets.length > 1 || content.length > 0 ? "$default" + (++generated) : null;
                        b.history(k, h -> {
                            h.id(k).depth("deep".equals(c.attr("type")) ? HistoryDepth.DEEP : HistoryDepth.SHALLOW);
                            if (via != null) {
                                h.defaultTarget(via);
                            } else if (targets.length == 1) {
                                h.defaultTarget("#" + key(targets[0]));
                            }
                        });
                        if (via != null) {
                            // the default transition's content (or several targets): a state that leaves at once
                            b.state(via, s -> s.always(tb -> {
                                tb.target(java.util.Arrays.stream(targets).map(x -> "#" + key(x)).toArray(String[]::new));
                                if (content.length > 0) {
                                    tb.action(action(content));
                                }
                            }));
                        }
                    }
                    default -> { }
                }
            }
            if (el.is("state") || el.is("scxml")) {
                initial(b, el, children);
            }
            for (Xml t : el.elements()) {
                if (t.is("transition")) {
                    transition(b, el, t);
                }
            }
        }

        Xml parentOf(Xml x) {
            return parent(root, x);
        }

        private Xml parent(Xml at, Xml x) {
            for (Xml c : at.elements()) {
                if (c == x) {
                    return at;
                }
                Xml p = parent(c, x);
                if (p != null) {
                    return p;
                }
            }
            return null;
        }

        <B extends NodeBuilder<Datamodel, B>> void initial(B b, Xml el, List<Xml> children) {
            if (el == root && bootedByParent()) {
                boot(b, el, children);
                return;
            }
            List<String> targets = new ArrayList<>();
            Exec[] content = new Exec[0];
            String attr = el.attr("initial");
            Xml initialEl = el.elements().stream().filter(x -> x.is("initial")).findFirst().orElse(null);
            if (attr != null) {
                targets.addAll(List.of(attr.trim().split("\\s+")));
            } else if (initialEl != null) {
                Xml t = initialEl.elements().stream().filter(x -> x.is("transition")).findFirst().orElse(null);
                if (t != null && t.attr("target") != null) {
                    targets.addAll(List.of(t.attr("target").trim().split("\\s+")));
                    content = compileBlock(t);
                }
            }
            if (targets.isEmpty()) {
                children.stream().filter(c -> !c.is("history")).findFirst().ifPresent(c -> b.initial(key(idOf.get(c))));
                return;
            }
            if (targets.size() == 1 && content.length == 0) {
                Xml only = byId.get(targets.get(0));
                if (only != null && children.contains(only) && !only.is("history")) {
                    b.initial(key(targets.get(0)));
                    return;
                }
            }
            // a deep, multiple or history target, or content: an initial state that leaves at once (never seen settled)
            Exec[] run = content;
            b.initial("$init");
            b.state("$init", s -> s.always(t -> {
                t.target(targets.stream().map(x -> "#" + key(x)).toArray(String[]::new));
                if (run.length > 0) {
                    t.action(action(run));
                }
            }));
        }

        /**
         * A child machine's root: it waits in {@code $boot} until its parent sends {@link Session#START} (a
         * record starts without running its initial entry actions), then enters its initial states as SCXML's
         * session start does, their entry actions run.
         */
        private <B extends NodeBuilder<Datamodel, B>> void boot(B b, Xml el, List<Xml> children) {
            List<String> targets = new ArrayList<>();
            String attr = el.attr("initial");
            if (attr != null) {
                targets.addAll(List.of(attr.trim().split("\\s+")));
            } else {
                children.stream().filter(c -> !c.is("history")).findFirst().ifPresent(c -> targets.add(idOf.get(c)));
            }
            b.initial("$boot");
            b.state("$boot", s -> s.on(Session.START, t -> t.target(targets.stream().map(x -> "#" + key(x))
                    .toArray(String[]::new))));
        }

        <B extends NodeBuilder<Datamodel, B>> void transition(B b, Xml source, Xml t) {
            String target = t.attr("target");
            String[] targets = target == null || target.isBlank() ? new String[0] : target.trim().split("\\s+");
            String cond = t.attr("cond");
            String ev = t.attr("event");
            Exec[] content = compileBlock(t);
            boolean internal = "internal".equals(t.attr("type")) && (source.is("state") || source.is("scxml"))
                    && targets.length > 0 && descendants(source, targets);
            Consumer<TransitionBuilder<Datamodel>> body = tb -> {
                if (targets.length > 0) {
                    tb.target(java.util.Arrays.stream(targets).map(x -> "#" + key(x)).toArray(String[]::new));
                    tb.reenter(!internal);
                }
                if (routes() && ev != null && !ev.isBlank()) {
                    tb.guard(invokingGuard(t, cond));
                } else if (cond != null) {
                    tb.guard(guard(t, cond));
                }
                if (content.length > 0) {
                    tb.action(action(content));
                }
            };
            if (ev == null || ev.isBlank()) {
                b.always(body);
                return;
            }
            for (String token : ev.trim().split("\\s+")) {
                b.on(descriptor(token), body);
            }
        }

        boolean descendants(Xml source, String[] targets) {
            String p = path(source);
            for (String t : targets) {
                String tp = path(byId.get(t));
                if (source != root && (tp == null || !tp.startsWith(p + "."))) {
                    return false;
                }
            }
            return true;
        }

        /**
         * SCXML's descriptor as the engine's: {@code foo} (which matches {@code foo.bar} too) is {@code foo.*};
         * {@code .*} and {@code .} are {@code *}; the done events are the engine's own ({@code xstate.done.state.x}).
         */
        String descriptor(String token) {
            String t = token.endsWith(".*") ? token.substring(0, token.length() - 2)
                    : token.endsWith(".") ? token.substring(0, token.length() - 1) : token;
            if (t.isEmpty() || t.equals("*")) {
                return "*";
            }
            if (childMachines && (t.equals("done.invoke") || t.startsWith("done.invoke."))) {
                // a child machine's done event is the world's
                t = "xstate.done.actor" + t.substring("done.invoke".length());
            } else if (t.equals("done") || t.startsWith("done.")) {
                t = "xstate." + t;
            }
            return t + ".*";
        }

        SelfAction<Datamodel> action(Exec[] block) {
            return (dm, e, self) -> {
                dm.session.enter(dm, e, self);
                Exec.block(block, dm);
            };
        }

        SelfGuard<Datamodel> guard(Xml t, String cond) {
            return (dm, e, self) -> {
                dm.session.enter(dm, e, self);
                try {
                    return dm.test(cond);
                } catch (DatamodelException ex) {
                    dm.session.error(ex.at(t.name, t.line, t.column));
                    return false;
                }
            };
        }

        /**
         * A transition's guard in a document that invokes: the engine's wake event is not the
         * document's (only {@code *} could match it), and the session sees each event before any
         * condition (for {@code <finalize>} and {@code autoforward}).
         */
        SelfGuard<Datamodel> invokingGuard(Xml t, String cond) {
            SelfGuard<Datamodel> test = cond == null ? null : guard(t, cond);
            return (dm, e, self) -> {
                if (Session.own(e)) {
                    return false;
                }
                dm.session.enter(dm, e, self);
                return test == null || test.test(dm, e, self);
            };
        }

        Invoke invoke(Xml state, Xml x) {
            String namelist = x.attr("namelist");
            List<Exec.Param> params = new ArrayList<>();
            String contentExpr = null;
            Exec[] finalize = new Exec[0];
            for (Xml c : x.elements()) {
                if (c.is("param")) {
                    params.add(new Exec.Param(c.attr("name"), c.attr("expr"), c.attr("location")));
                } else if (c.is("content")) {
                    contentExpr = c.attr("expr");
                } else if (c.is("finalize")) {
                    finalize = compileBlock(c);
                }
            }
            String id = x.attr("id");
            if (childMachines && id == null) {
                // SCXML 6.4.1's "stateid.platformid", as a child's id may be: a plain name, unique in the machine
                id = idOf.get(state).replaceAll("[./*]", "_") + "_" + (doc.invokes.size() + 1);
            }
            Invoke inv = new Invoke(idOf.get(state), path(state), x.line, x.column, x.attr("type"), x.attr("typeexpr"),
                    children.get(x), x.attr("srcexpr"), contentExpr, id, x.attr("idlocation"),
                    namelist == null || namelist.isBlank() ? new String[0] : namelist.trim().split("\\s+"),
                    params.toArray(Exec.Param[]::new), "true".equals(x.attr("autoforward")), finalize);
            doc.invokes.add(inv);
            return inv;
        }

        // ------------------------------------------------------------------ executable content

        Exec[] compileBlock(Xml block) {
            return executable(block).stream().map(this::compile).toArray(Exec[]::new);
        }

        Exec compile(Xml x) {
            return new Exec.At(element(x), x.name, x.line, x.column);
        }

        Exec element(Xml x) {
            switch (x.name) {
                case "raise":
                    return new Exec.Raise(x.attr("event"));
                case "log":
                    return new Exec.Log(x.attr("label"), x.attr("expr"));
                case "assign":
                    return new Exec.Assign(x.attr("location"), x.attr("expr"),
                            x.attr("expr") == null && !x.nodes.isEmpty() ? x.inner() : null);
                case "script":
                    return new Exec.Script(x.text());
                case "cancel":
                    return new Exec.Cancel(x.attr("sendid"), x.attr("sendidexpr"));
                case "foreach":
                    return new Exec.Foreach(x.attr("array"), x.attr("item"), x.attr("index"), compileBlock(x));
                case "if": {
                    List<String> conds = new ArrayList<>();
                    List<List<Exec>> blocks = new ArrayList<>();
                    conds.add(x.attr("cond"));
                    blocks.add(new ArrayList<>());
                    for (Xml c : executable(x)) {
                        if (c.name.equals("elseif")) {
                            conds.add(c.attr("cond"));
                            blocks.add(new ArrayList<>());
                        } else if (c.name.equals("else")) {
                            conds.add(null);
                            blocks.add(new ArrayList<>());
                        } else {
                            blocks.get(blocks.size() - 1).add(compile(c));
                        }
                    }
                    return new Exec.If(conds.toArray(String[]::new),
                            blocks.stream().map(l -> l.toArray(Exec[]::new)).toArray(Exec[][]::new));
                }
                case "send":
                    return send(x);
                default:
                    return dm -> { }; // elseif/else outside an <if> (checked above): nothing
            }
        }

        Exec.Send send(Xml x) {
            String namelist = x.attr("namelist");
            return new Exec.Send(x.attr("event"), x.attr("eventexpr"), x.attr("target"), x.attr("targetexpr"),
                    x.attr("type"), x.attr("typeexpr"), x.attr("id"), x.attr("idlocation"), x.attr("delay"),
                    x.attr("delayexpr"), namelist == null || namelist.isBlank() ? new String[0] : namelist.trim().split("\\s+"),
                    payload(x));
        }

        /** The payload of a {@code <send>} or {@code <donedata>}: params, or content. */
        Exec.Payload payload(Xml x) {
            List<Exec.Param> params = new ArrayList<>();
            String contentExpr = null;
            String content = null;
            for (Xml c : x.elements()) {
                if (c.is("param")) {
                    params.add(new Exec.Param(c.attr("name"), c.attr("expr"), c.attr("location")));
                } else if (c.is("content")) {
                    contentExpr = c.attr("expr");
                    content = contentExpr == null ? c.inner() : null;
                }
            }
            return new Exec.Payload(params.toArray(Exec.Param[]::new), contentExpr, content);
        }
    }
}

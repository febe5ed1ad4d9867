package dev.enginestates.xstate;

import com.fasterxml.jackson.core.StreamReadFeature;
import com.fasterxml.jackson.databind.DeserializationFeature;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.json.JsonMapper;
import dev.enginestates.declare.InvalidMachineException;
import dev.enginestates.Machine;
import dev.enginestates.declare.Action;
import dev.enginestates.declare.Guard;
import dev.enginestates.declare.SelfAction;
import dev.enginestates.declare.SelfGuard;
import dev.enginestates.declare.HistoryBuilder;
import dev.enginestates.declare.Named;
import dev.enginestates.declare.Seconds;
import dev.enginestates.declare.SelfSeconds;
import dev.enginestates.declare.HistoryDepth;
import dev.enginestates.declare.MachineBuilder;
import dev.enginestates.declare.NodeBuilder;
import dev.enginestates.declare.TransitionBuilder;
import dev.enginestates.declare.UnknownEvents;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import java.util.function.BiFunction;
import java.util.function.Function;
import java.util.function.Supplier;

/**
 * Imports a machine from XState v5's JSON config: states (compound, parallel, final,
 * history), {@code initial}, {@code id}, {@code on}, {@code always}, {@code onDone},
 * {@code entry}, {@code exit}, guarded transition lists, {@code reenter} and multiple
 * targets, with this library's own keys for a wait
 * ({@code "wait": {"seconds": 12, "then": "fight"}}, the seconds a number or the name of a
 * delay) and {@code when} rules ({@code "when": [{"guard": "isSlow", "target": "stalling"}]},
 * or as pairs {@code [["isSlow", "stalling"]]}). Guards, {@code when} tests,
 * actions and delays are named in the JSON and supplied here in Java; each keeps its JSON name
 * ({@link Named}), so {@link XStateExport} writes the same names back.
 *
 * <pre>{@code
 * Machine<Log> m = XStateImport.withContext(Log::new)
 *     .guard("isReady", (log, event) -> event.isTrue("ok"))
 *     .actions(name -> (log, event) -> log.add(name))
 *     .read(Path.of("machine.json"));
 * }</pre>
 *
 * <p>A malformed config throws {@link InvalidMachineException} listing every problem with its
 * JSON path ({@code $.states.a.on.GO[1].target}) and what was expected. Imported machines
 * accept events no state names, as XState does, unless {@link #unknownEvents} says otherwise.
 * An importer is a mutable builder; the machines it makes are immutable.
 *
 * @param <C> the context type
 */
public final class XStateImport<C> {
    /** The parser, made on first use: a game that imports nothing loads no Jackson class. */
    private static final class Parser {
        // a key given twice is refused: Jackson would keep the last silently, dropping a state or an event's transitions
        static final ObjectMapper JSON = JsonMapper.builder().enable(StreamReadFeature.STRICT_DUPLICATE_DETECTION).build();

        /** Where the text stopped being JSON, and why. */
        static String problem(IOException e) {
            if (e instanceof com.fasterxml.jackson.core.JsonProcessingException j) {
                String where = j.getLocation() == null ? "" : " at line " + j.getLocation().getLineNr()
                        + ", column " + j.getLocation().getColumnNr();
                return where + ": " + j.getOriginalMessage();
            }
            return ": " + e.getMessage();
        }
    }
    /** States nested at most, as the SCXML import's elements: deep enough for any chart a person writes, shallow enough for the recursion. */
    static final int MAX_DEPTH = 200;
    private static final Set<String> STATE_KEYS = Set.of("id", "type", "initial", "states", "entry", "exit", "on",
            "always", "onDone", "wait", "when", "history", "target", "description", "meta", "context", "version");
    private static final Set<String> TRANSITION_KEYS = Set.of("target", "guard", "actions", "reenter", "description");

    private final Supplier<? extends C> context;
    private final Map<String, SelfGuard<C>> guards = new HashMap<>();
    private final Map<String, SelfAction<C>> actions = new HashMap<>();
    private Function<String, Guard<C>> guardResolver = name -> null;
    private Function<String, Action<C>> actionResolver = name -> null;
    private final Map<String, SelfSeconds<C>> delays = new HashMap<>();
    private Function<String, Seconds<C>> delayResolver = name -> null;
    private UnknownEvents unknownEvents = UnknownEvents.ACCEPT;
    private int depth; // of the state being read, while an import walks the config
    // one named wrapper per name and import, so code used in several places is one implementation
    private final Map<String, SelfGuard<C>> boundGuards = new HashMap<>();
    private final Map<String, SelfAction<C>> boundActions = new HashMap<>();
    private final Map<String, SelfSeconds<C>> boundDelays = new HashMap<>();
    // what the resolvers threw during an import, kept on its exception for their stack traces
    private final List<RuntimeException> resolverFaults = new ArrayList<>();

    private XStateImport(Supplier<? extends C> context) {
        this.context = Objects.requireNonNull(context, "context");
    }

    /**
     * Starts an import whose machine makes its contexts with {@code context}.
     *
     * @param <C>     the context type
     * @param context makes a fresh context for each instance of the imported machine; not {@code null}
     *                (the config's own {@code context} key is accepted and ignored)
     * @return a new importer with no guards or actions supplied yet
     * @throws IllegalStateException if Jackson is not there (a build that excludes engine-states-xstate's dependency)
     */
    public static <C> XStateImport<C> withContext(Supplier<? extends C> context) {
        requireJackson();
        return new XStateImport<>(context);
    }

    /**
     * Supplies the guard named {@code name} in the config ({@code "guard": "name"} or {@code {"type": "name"}}).
     *
     * @param name  the guard's name in the config
     * @param guard the guard, {@code (ctx, event) -> ...}; it replaces any guard given before under that name
     * @return this importer, for chaining
     */
    public XStateImport<C> guard(String name, Guard<C> guard) {
        guards.put(Objects.requireNonNull(name, "name"), Objects.requireNonNull(guard, "guard"));
        return this;
    }

    /**
     * Supplies the guard named {@code name}, reading the machine's entity and world as well: {@code (ctx, event, self) -> ...}.
     *
     * @param name  the guard's name in the config
     * @param guard the guard; it replaces any guard given before under that name
     * @return this importer, for chaining
     */
    public XStateImport<C> guard(String name, SelfGuard<C> guard) {
        guards.put(Objects.requireNonNull(name, "name"), Objects.requireNonNull(guard, "guard"));
        return this;
    }

    /**
     * Supplies guards by name for every name not given with {@link #guard}; return {@code null} for an unknown name.
     *
     * @param resolver called at import with each guard name the config uses; a {@code null} answer is
     *                 reported as a guard not supplied, and an exception it throws as a problem at the name's
     *                 JSON path (kept as suppressed on the import's exception). Replaces any resolver given before
     * @return this importer, for chaining
     */
    public XStateImport<C> guards(Function<String, Guard<C>> resolver) {
        this.guardResolver = Objects.requireNonNull(resolver, "resolver");
        return this;
    }

    /**
     * Supplies the action named {@code name} in the config.
     *
     * @param name   the action's name in the config ({@code "entry"}, {@code "exit"} or a transition's {@code "actions"})
     * @param action the action, {@code (ctx, event) -> ...}; it replaces any action given before under that name
     * @return this importer, for chaining
     */
    public XStateImport<C> action(String name, Action<C> action) {
        actions.put(Objects.requireNonNull(name, "name"), Objects.requireNonNull(action, "action"));
        return this;
    }

    /**
     * Supplies the action named {@code name}, seeing the machine's entity and world: {@code (ctx, event, self) -> ...}.
     *
     * @param name   the action's name in the config
     * @param action the action; it replaces any action given before under that name
     * @return this importer, for chaining
     */
    public XStateImport<C> action(String name, SelfAction<C> action) {
        actions.put(Objects.requireNonNull(name, "name"), Objects.requireNonNull(action, "action"));
        return this;
    }

    /**
     * Supplies actions by name for every name not given with {@link #action}; return {@code null} for an unknown name.
     *
     * @param resolver called at import with each action name the config uses; a {@code null} answer is
     *                 reported as an action not supplied, and an exception it throws as a problem at the name's
     *                 JSON path (kept as suppressed on the import's exception). Replaces any resolver given before
     * @return this importer, for chaining
     */
    public XStateImport<C> actions(Function<String, Action<C>> resolver) {
        this.actionResolver = Objects.requireNonNull(resolver, "resolver");
        return this;
    }

    /**
     * Supplies the delay named {@code name}: a wait's seconds computed from the context as its state is
     * entered ({@code "wait": {"seconds": "name", ...}}), as XState names its delays.
     *
     * @param name    the delay's name in the config
     * @param seconds computes the seconds, {@code ctx -> ...}; it replaces any delay given before under that name
     * @return this importer, for chaining
     */
    public XStateImport<C> delay(String name, Seconds<C> seconds) {
        delays.put(Objects.requireNonNull(name, "name"), Objects.requireNonNull(seconds, "seconds"));
        return this;
    }

    /**
     * Supplies the delay named {@code name}, computed from the context, the entering event and the
     * machine's entity and world: {@code (ctx, event, self) -> ...}.
     *
     * @param name    the delay's name in the config
     * @param seconds computes the seconds; it replaces any delay given before under that name
     * @return this importer, for chaining
     */
    public XStateImport<C> delay(String name, SelfSeconds<C> seconds) {
        delays.put(Objects.requireNonNull(name, "name"), Objects.requireNonNull(seconds, "seconds"));
        return this;
    }

    /**
     * Supplies delays by name for every name not given with {@link #delay}; return {@code null} for an unknown name.
     *
     * @param resolver called at import with each delay name the config uses; a {@code null} answer is
     *                 reported as a delay not supplied, and an exception it throws as a problem at the name's
     *                 JSON path (kept as suppressed on the import's exception). Replaces any resolver given before
     * @return this importer, for chaining
     */
    public XStateImport<C> delays(Function<String, Seconds<C>> resolver) {
        this.delayResolver = Objects.requireNonNull(resolver, "resolver");
        return this;
    }

    /**
     * Supplies every guard, action and delay an export names, under those names: what reads an
     * {@link XStateExport}'s JSON back to the machine it came from.
     *
     * @param export the export whose code to supply; its names replace any given before
     * @return this importer, for chaining
     */
    public XStateImport<C> implementations(XStateExport<C> export) {
        Objects.requireNonNull(export, "export");
        guards.putAll(export.guards());
        actions.putAll(export.actions());
        delays.putAll(export.delays());
        return this;
    }

    /**
     * What the machine does with an event no state names; {@link UnknownEvents#ACCEPT} (XState's way) by default.
     *
     * @param policy the policy for the machines imported from now on
     * @return this importer, for chaining
     */
    public XStateImport<C> unknownEvents(UnknownEvents policy) {
        this.unknownEvents = Objects.requireNonNull(policy, "policy");
        return this;
    }

    /**
     * Imports a machine from JSON text.
     *
     * @param json the config's JSON text, one object; {@code null} or blank is reported as a missing config
     * @return the compiled machine, with the config's {@code id} as its id
     * @throws InvalidMachineException if the text is not JSON, the config is malformed or the machine is invalid
     */
    public Machine<C> parse(String json) {
        JsonNode root;
        if (json == null || json.isBlank()) {
            return from(null);
        }
        try {
            root = Parser.JSON.readerFor(JsonNode.class).with(DeserializationFeature.FAIL_ON_TRAILING_TOKENS).readValue(json);
        } catch (IOException e) {
            // Jackson's JsonProcessingException, caught as its supertype so this class links without Jackson
            throw new InvalidMachineException("(unparsed)", List.of("$: the config is not valid JSON" + Parser.problem(e)));
        }
        return from(root);
    }

    /**
     * Imports a machine from a JSON file.
     *
     * @param file the file, read as UTF-8
     * @return the compiled machine, with the config's {@code id} as its id
     * @throws InvalidMachineException if the file is not JSON or the machine is malformed or invalid
     * @throws IOException if the file cannot be read
     */
    public Machine<C> read(Path file) throws IOException {
        return parse(Files.readString(file));
    }

    /**
     * Imports a machine from an already parsed config tree.
     *
     * @param config the config, a JSON object; anything else (or {@code null}) is reported as a problem
     * @return the compiled machine, with the config's {@code id} as its id
     * @throws InvalidMachineException if the config is malformed or the machine invalid
     */
    public Machine<C> from(JsonNode config) {
        boundGuards.clear();
        boundActions.clear();
        boundDelays.clear();
        resolverFaults.clear();
        depth = 0;
        List<String> problems = new ArrayList<>();
        String id = "(unnamed)";
        if (config == null || !config.isObject()) {
            problems.add("$: expected the machine config, a JSON object, found " + kind(config));
            throw new InvalidMachineException(id, problems);
        }
        JsonNode idNode = config.get("id");
        if (idNode == null) {
            problems.add("$.id: missing; expected the machine's id, a string");
        } else if (!idNode.isTextual() || idNode.asText().isEmpty()) {
            problems.add("$.id: expected a non-empty string, found " + kind(idNode));
        } else if (named(idNode.asText(), "$.id", "the machine's id", "a name, which the dump, the tags and the errors show",
                problems)) {
            id = idNode.asText();
        }
        MachineBuilder<C> builder = new MachineBuilder<>();
        builder.unknownEvents(unknownEvents);
        fill(builder, config, "$", true, false, problems);
        if (!problems.isEmpty()) {
            InvalidMachineException e = new InvalidMachineException(id, problems);
            resolverFaults.forEach(e::addSuppressed);
            throw e;
        }
        return Machine.of(id, context, builder);
    }

    // ------------------------------------------------------------------ states

    private <B extends NodeBuilder<C, B>> void fill(NodeBuilder<C, B> b, JsonNode node, String path, boolean root,
            boolean isFinal, List<String> problems) {
        for (Iterator<String> it = node.fieldNames(); it.hasNext(); ) {
            String k = it.next();
            if (!STATE_KEYS.contains(k)) {
                problems.add(path + "." + k + ": unsupported key; expected one of type, id, initial, states, entry, exit, on, always,"
                        + " onDone, wait, when" + (k.equals("after") ? " (use a wait, or waitFor in Java, for timed transitions)" : ""));
            }
        }
        if (!root) {
            String id = text(node, "id", path, problems);
            if (id != null && stateId(id, path + ".id", problems)) {
                b.id(id);
            }
        }
        String type = text(node, "type", path, problems);
        if (isFinal) {
            if (node.has("states") || node.has("initial")) {
                problems.add(path + ": a final state is a leaf; it takes no states or initial");
            }
        } else if (type != null && !type.equals("parallel") && !type.equals("compound") && !type.equals("atomic")) {
            problems.add(path + ".type: '" + type + "' is not allowed here; expected \"parallel\", \"compound\" or \"atomic\""
                    + (root ? " for the machine" : ""));
        } else if ("parallel".equals(type)) {
            b.parallel();
        }
        String initial = text(node, "initial", path, problems);
        if (initial != null && !isFinal
                && named(initial, path + ".initial", "the initial state's key", "the key of the child entered first", problems)) {
            b.initial(initial);
        }
        for (SelfAction<C> a : actionList(node.get("entry"), path + ".entry", problems)) {
            b.entry(a);
        }
        for (SelfAction<C> a : actionList(node.get("exit"), path + ".exit", problems)) {
            b.exit(a);
        }
        JsonNode states = node.get("states");
        if (states != null && !isFinal) {
            if (!states.isObject()) {
                problems.add(path + ".states: expected an object of child states by key, found " + kind(states));
            } else {
                for (Map.Entry<String, JsonNode> e : states.properties()) {
                    String at = member(path + ".states", e.getKey());
                    if (stateKey(e.getKey(), at, problems)) {
                        child(b, e.getKey(), e.getValue(), at, problems);
                    }
                }
            }
        }
        JsonNode on = node.get("on");
        if (on != null) {
            if (!on.isObject()) {
                problems.add(path + ".on: expected an object from event type to transition, found " + kind(on));
            } else {
                for (Map.Entry<String, JsonNode> e : on.properties()) {
                    String at = member(path + ".on", e.getKey());
                    if (e.getKey().isEmpty()) {
                        // XState v4's eventless form; v5 takes it only as 'always'
                        problems.add(at + ": an empty event name; an eventless transition is written \"always\": ... in XState v5");
                        continue;
                    }
                    if (!named(e.getKey(), at, "the event's name", "the type of the event that takes these transitions", problems)) {
                        continue;
                    }
                    for (Spec t : transitions(e.getValue(), at, problems)) {
                        b.on(e.getKey(), t::declare);
                    }
                }
            }
        }
        if (node.has("always")) {
            for (Spec t : transitions(node.get("always"), path + ".always", problems)) {
                b.always(t::declare);
            }
        }
        if (node.has("onDone")) {
            for (Spec t : transitions(node.get("onDone"), path + ".onDone", problems)) {
                b.onDone(t::declare);
            }
        }
        if (node.has("wait")) {
            wait(b, node.get("wait"), path + ".wait", problems);
        }
        if (node.has("when")) {
            when(b, node.get("when"), path + ".when", problems);
        }
        for (String only : new String[] {"history", "target"}) {
            if (node.has(only)) {
                problems.add(path + "." + only + ": only a history state (\"type\": \"history\") takes '" + only + "'");
            }
        }
    }

    private <B extends NodeBuilder<C, B>> void child(NodeBuilder<C, B> parent, String key, JsonNode node, String path,
            List<String> problems) {
        if (!node.isObject()) {
            problems.add(path + ": expected a state config object, found " + kind(node));
            return;
        }
        if (depth >= MAX_DEPTH) {
            // a tree built in code has no parser's nesting limit: refused here rather than by a StackOverflowError
            problems.add(path + ": states nested " + (depth + 1) + " deep; the import reads " + MAX_DEPTH + " at most");
            return;
        }
        depth++;
        try {
            declareChild(parent, key, node, path, problems);
        } finally {
            depth--;
        }
    }

    private <B extends NodeBuilder<C, B>> void declareChild(NodeBuilder<C, B> parent, String key, JsonNode node, String path,
            List<String> problems) {
        JsonNode typeNode = node.get("type");
        String type = typeNode != null && typeNode.isTextual() ? typeNode.asText() : null;
        if ("history".equals(type)) {
            parent.history(key, h -> history(h, node, path, problems));
        } else if ("final".equals(type)) {
            parent.finalState(key, s -> fill(s, node, path, false, true, problems));
        } else {
            parent.state(key, s -> fill(s, node, path, false, false, problems));
        }
    }

    private void history(HistoryBuilder h, JsonNode node, String path, List<String> problems) {
        for (Iterator<String> it = node.fieldNames(); it.hasNext(); ) {
            String k = it.next();
            if (!Set.of("type", "history", "target", "id", "description", "meta").contains(k)) {
                problems.add(path + "." + k + ": a history state takes only type, history, target and id");
            }
        }
        JsonNode depth = node.get("history");
        if (depth == null || (depth.isBoolean() && depth.asBoolean()) || "shallow".equals(depth.asText(null))) {
            h.depth(HistoryDepth.SHALLOW);
        } else if ("deep".equals(depth.asText(null))) {
            h.depth(HistoryDepth.DEEP);
        } else {
            problems.add(path + ".history: expected \"shallow\", \"deep\" or true, found " + kind(depth));
        }
        String target = text(node, "target", path, problems);
        if (target != null && target(target, path + ".target", "target", problems)) {
            h.defaultTarget(target);
        }
        String id = text(node, "id", path, problems);
        if (id != null && stateId(id, path + ".id", problems)) {
            h.id(id);
        }
    }

    // ------------------------------------------------------------------ waits and when rules

    private <B extends NodeBuilder<C, B>> void wait(NodeBuilder<C, B> b, JsonNode wait, String path, List<String> problems) {
        if (!wait.isObject()) {
            problems.add(path + ": expected {\"seconds\": ..., \"then\": ...}, found " + kind(wait));
            return;
        }
        for (Iterator<String> it = wait.fieldNames(); it.hasNext(); ) {
            String k = it.next();
            if (!k.equals("seconds") && !k.equals("then") && !k.equals("description")) {
                problems.add(path + "." + k + ": unsupported key; a wait takes seconds and then");
            }
        }
        JsonNode seconds = wait.get("seconds");
        JsonNode then = wait.get("then");
        Spec spec = null;
        if (then == null) {
            problems.add(path + ".then: missing; expected the state to go to when the seconds have passed, or a transition");
        } else if (then.isArray()) {
            problems.add(path + ".then: expected one target or transition, found an array; a wait takes one transition");
        } else {
            spec = transition(then, path + ".then", problems);
        }
        if (seconds == null) {
            problems.add(path + ".seconds: missing; expected a number of seconds or the name of a delay");
        } else if (seconds.isNumber()) {
            double d = seconds.asDouble();
            if (!Double.isFinite(d) || d < 0) {
                // 1e999 reads as Infinity: refused here, at the path the JSON wrote, rather than by the compiler
                problems.add(path + ".seconds: expected a finite number of seconds, 0 or more, found " + kind(seconds));
            } else if (spec != null) {
                b.waitFor(d, spec::declare);
            }
        } else if (seconds.isTextual()) {
            if (!named(seconds.asText(), path + ".seconds", "the delay's name", "a number of seconds or the name of a delay"
                    + " supplied in Java", problems)) {
                return;
            }
            SelfSeconds<C> fn = bindDelay(seconds.asText(), path + ".seconds", problems);
            if (fn != null && spec != null) {
                b.waitFor(fn, spec::declare);
            }
        } else {
            problems.add(path + ".seconds: expected a number of seconds or the name of a delay, found " + kind(seconds));
        }
    }

    private <B extends NodeBuilder<C, B>> void when(NodeBuilder<C, B> b, JsonNode when, String path, List<String> problems) {
        if (!when.isArray()) {
            problems.add(path + ": expected an array of rules, each {\"guard\": test, \"target\": ...} or [test, target], found "
                    + kind(when));
            return;
        }
        for (int i = 0; i < when.size(); i++) {
            JsonNode rule = when.get(i);
            String at = path + "[" + i + "]";
            if (rule.isArray()) {
                // the short form of a rule, a pair: [test, target]
                if (rule.size() != 2 || !rule.get(0).isTextual() || !rule.get(1).isTextual()) {
                    problems.add(at + ": expected a pair [test name, target], found " + kind(rule) + " of " + rule.size());
                    continue;
                }
                SelfGuard<C> test = guardNamed(rule.get(0).asText(), at + "[0]", problems);
                String target = rule.get(1).asText();
                boolean reached = target(target, at + "[1]", "target", problems);
                if (test != null && reached) {
                    b.when(test, t -> t.target(target));
                }
            } else if (rule.isObject()) {
                Spec spec = transition(rule, at, problems);
                if (spec == null) {
                    continue;
                }
                if (!rule.has("guard")) {
                    problems.add(at + ".guard: missing; a when rule's guard is its test, run each step");
                } else if (spec.guard != null) {
                    b.when(spec.guard, spec::declareUnguarded);
                }
            } else {
                problems.add(at + ": expected a rule {\"guard\": test, \"target\": ...} or [test, target], found " + kind(rule));
            }
        }
    }

    // ------------------------------------------------------------------ transitions

    /** A transition as read from the JSON, declared on a builder once its state's builder asks. */
    private final class Spec {
        final List<String> targets;
        final SelfGuard<C> guard;
        final List<SelfAction<C>> actions;
        final boolean reenter;

        Spec(List<String> targets, SelfGuard<C> guard, List<SelfAction<C>> actions, boolean reenter) {
            this.targets = targets;
            this.guard = guard;
            this.actions = actions;
            this.reenter = reenter;
        }

        void declare(TransitionBuilder<C> t) {
            declareUnguarded(t);
            if (guard != null) {
                t.guard(guard);
            }
        }

        void declareUnguarded(TransitionBuilder<C> t) {
            t.target(targets.toArray(new String[0]));
            for (SelfAction<C> a : actions) {
                t.action(a);
            }
            t.reenter(reenter);
        }
    }

    private List<Spec> transitions(JsonNode spec, String path, List<String> problems) {
        List<Spec> out = new ArrayList<>();
        if (spec.isArray()) {
            for (int i = 0; i < spec.size(); i++) {
                Spec t = transition(spec.get(i), path + "[" + i + "]", problems);
                if (t != null) {
                    out.add(t);
                }
            }
        } else {
            Spec t = transition(spec, path, problems);
            if (t != null) {
                out.add(t);
            }
        }
        return out;
    }

    private Spec transition(JsonNode spec, String path, List<String> problems) {
        if (spec.isTextual()) {
            return target(spec.asText(), path, "target", problems) ? new Spec(List.of(spec.asText()), null, List.of(), false) : null;
        }
        if (!spec.isObject()) {
            problems.add(path + ": expected a target string, a transition object or an array of them, found " + kind(spec));
            return null;
        }
        for (Iterator<String> it = spec.fieldNames(); it.hasNext(); ) {
            String k = it.next();
            if (!TRANSITION_KEYS.contains(k)) {
                problems.add(path + "." + k + ": unsupported key; a transition takes target, guard, actions and reenter");
            }
        }
        List<String> targets = new ArrayList<>();
        JsonNode target = spec.get("target");
        if (target != null && !target.isNull()) {
            if (target.isTextual()) {
                if (target(target.asText(), path + ".target", "target", problems)) {
                    targets.add(target.asText());
                }
            } else if (target.isArray()) {
                for (int i = 0; i < target.size(); i++) {
                    if (target.get(i).isTextual()) {
                        if (target(target.get(i).asText(), path + ".target[" + i + "]", "target", problems)) {
                            targets.add(target.get(i).asText());
                        }
                    } else {
                        problems.add(path + ".target[" + i + "]: expected a target string, found " + kind(target.get(i)));
                    }
                }
            } else {
                problems.add(path + ".target: expected a target string or an array of them, found " + kind(target));
            }
        }
        SelfGuard<C> guard = null;
        JsonNode g = spec.get("guard");
        if (g != null) {
            String name = implementationName(g, path + ".guard", "guard", problems); // null: reported
            if ("xstate.stateIn".equals(name)) {
                onlyTypeAndParams(g, path + ".guard", true, problems);
                // XState's stateIn guard: {"type": "xstate.stateIn", "params": {"stateValue": "#id" or a path}}
                JsonNode v = g.path("params").path("stateValue");
                if (!v.isTextual() || v.asText().isEmpty()) {
                    problems.add(path + ".guard.params.stateValue: expected the state's '#id' or path, a string; found " + kind(v));
                } else if (target(v.asText(), path + ".guard.params.stateValue", "state", "the state's '#id' or path", problems)) {
                    guard = Guard.stateIn(v.asText());
                }
            } else if (name != null) {
                onlyTypeAndParams(g, path + ".guard", false, problems);
                guard = guardNamed(name, path + ".guard", problems);
            }
        }
        List<SelfAction<C>> acts = actionList(spec.get("actions"), path + ".actions", problems);
        JsonNode reenter = spec.get("reenter");
        boolean re = false;
        if (reenter != null) {
            if (!reenter.isBoolean()) {
                problems.add(path + ".reenter: expected true or false, found " + kind(reenter));
            } else {
                re = reenter.asBoolean();
            }
        }
        return new Spec(targets, guard, acts, re);
    }

    private SelfGuard<C> guardNamed(String name, String path, List<String> problems) {
        if (!named(name, path, "the guard's name", "the name of a guard supplied in Java", problems)) {
            return null;
        }
        return bindGuard(name, path, problems);
    }

    private List<SelfAction<C>> actionList(JsonNode node, String path, List<String> problems) {
        List<SelfAction<C>> out = new ArrayList<>();
        if (node == null || node.isNull()) {
            return out;
        }
        if (node.isArray()) {
            for (int i = 0; i < node.size(); i++) {
                SelfAction<C> a = action(node.get(i), path + "[" + i + "]", problems);
                if (a != null) {
                    out.add(a);
                }
            }
        } else {
            SelfAction<C> a = action(node, path, problems);
            if (a != null) {
                out.add(a);
            }
        }
        return out;
    }

    private SelfAction<C> action(JsonNode node, String path, List<String> problems) {
        String name = implementationName(node, path, "action", problems);
        if (name == null) {
            return null;
        }
        onlyTypeAndParams(node, path, name.equals("xstate.raise"), problems);
        if (name.equals("xstate.raise")) {
            // XState's raise action: {"type": "xstate.raise", "params": {"event": {"type": "X"}}}; a delayed one is refused
            JsonNode params = node.path("params");
            JsonNode type = params.path("event").path("type");
            if (params.has("delay") || params.has("id")) {
                problems.add(path + ": a raise with a delay or an id is a send to itself, which the import does not read; supply it"
                        + " as a named action that calls self.sendSelf(event, seconds, id)");
                return null;
            }
            if (!type.isTextual() || type.asText().isEmpty() || params.path("event").size() != 1) {
                problems.add(path + ".params.event: expected {\"type\": \"EVENT\"}, an event with no fields; found " + kind(params.get("event")));
                return null;
            }
            if (!named(type.asText(), path + ".params.event.type", "the raised event's type", "the type of the event to raise", problems)) {
                return null;
            }
            return Action.raise(type.asText());
        }
        return bindAction(name, path, problems);
    }

    /**
     * A guard or action written as an object takes its type, and XState's own ({@code xstate.raise},
     * {@code xstate.stateIn}) their params: code supplied in Java gets no params, so one implementation
     * would serve every value given in the JSON. A {@code null} params is no params.
     */
    private static void onlyTypeAndParams(JsonNode node, String path, boolean builtIn, List<String> problems) {
        for (Map.Entry<String, JsonNode> e : node.properties()) {
            String k = e.getKey();
            if (k.equals("type") || k.equals("params") && (builtIn || e.getValue().isNull())) {
                continue;
            }
            problems.add(path + "." + k + (k.equals("params")
                    ? ": the import passes no params to the code supplied in Java, so every use would run alike; give each"
                            + " use its own name (\"hpBelow10\") and supply it under that name"
                    : ": unsupported key; expected {\"type\": name}"));
        }
    }

    // ------------------------------------------------------------------ binding names to code

    private SelfGuard<C> bindGuard(String name, String path, List<String> problems) {
        return bind(boundGuards, name, n -> guards.containsKey(n) ? guards.get(n) : guardResolver.apply(n),
                (n, g) -> n.equals(Named.nameOf(g)) ? g : Named.guard(n, g), "guard", "", path, problems);
    }

    private SelfAction<C> bindAction(String name, String path, List<String> problems) {
        return bind(boundActions, name, n -> actions.containsKey(n) ? actions.get(n) : actionResolver.apply(n),
                (n, a) -> n.equals(Named.nameOf(a)) ? a : Named.action(n, a), "action", "", path, problems);
    }

    private SelfSeconds<C> bindDelay(String name, String path, List<String> problems) {
        return bind(boundDelays, name, n -> delays.containsKey(n) ? delays.get(n) : delayResolver.apply(n),
                (n, s) -> n.equals(Named.nameOf(s)) ? s : Named.seconds(n, s), "delay",
                // "seconds": "5" names a delay; the seconds themselves are written without quotes
                looksLikeANumber(name) ? ", or write the seconds as a number, without quotes: " + name.strip() : "", path, problems);
    }

    /**
     * The code supplied under {@code name}, named so, or {@code null} with the problem added: not
     * supplied, or the game's resolver threw for it (as {@code Enum.valueOf} does for a name it
     * lacks), which is a problem of this config like the other, not an exception out of the import.
     */
    private <T> T bind(Map<String, T> bound, String name, Function<String, ? extends T> find, BiFunction<String, T, T> named,
            String kind, String hint, String path, List<String> problems) {
        T known = bound.get(name);
        if (known != null) {
            return known;
        }
        T code;
        try {
            code = find.apply(name);
        } catch (RuntimeException e) {
            resolverFaults.add(e);
            problems.add(path + ": the " + kind + " resolver threw " + e + " for '" + name + "'; let it answer null for a name"
                    + " it does not know, and the import says which names are missing");
            return null;
        }
        if (code == null) {
            problems.add(path + ": " + kind + " '" + name + "' is not supplied; supply it with ." + kind + "(\"" + name + "\", ...)"
                    + hint);
            return null;
        }
        T out = named.apply(name, code);
        bound.put(name, out);
        return out;
    }

    // ------------------------------------------------------------------ names

    /**
     * The name of a guard or action, written {@code "name"} or {@code {"type": "name"}}, checked
     * for being a name; {@code null} with the problem added when it is none.
     */
    private static String implementationName(JsonNode node, String path, String kind, List<String> problems) {
        String a = kind.equals("action") ? "an " : "a ";
        String where = path;
        JsonNode name = node;
        if (node.isObject()) {
            where = path + ".type";
            name = node.get("type");
            if (name == null) {
                problems.add(where + ": missing; expected the " + kind + "'s name");
                return null;
            }
        }
        if (!name.isTextual()) {
            problems.add(where + ": expected " + (node.isObject() ? "the " + kind + "'s name, a string" : a + kind
                    + " name or {\"type\": name}") + ", found " + kind(name));
            return null;
        }
        // a name's problems are the object's, as an unknown name's are: at the guard or action, not at its type
        return named(name.asText(), path, "the " + kind + "'s name", "the name of " + a + kind + " supplied in Java", problems)
                ? name.asText() : null;
    }

    /**
     * Whether {@code name} is a name: not empty and not only spaces, which no one means to
     * write and nothing could be looked up by. Adds the problem when it is not.
     */
    private static boolean named(String name, String path, String what, String expected, List<String> problems) {
        if (!name.isBlank()) {
            return true;
        }
        StringBuilder quoted = new StringBuilder();
        JsonText.string(quoted, name);
        problems.add(path + ": " + what + " is " + (name.isEmpty() ? "empty" : "only spaces (" + quoted + ")") + "; expected "
                + expected);
        return false;
    }

    /** A state's key, as targets read it: a name with no '.' (which separates the keys of a path) and no leading '#' (an id). */
    private static boolean stateKey(String key, String path, List<String> problems) {
        if (!named(key, path, "the state's key", "a name for the state, which targets and the machine's value show", problems)) {
            return false;
        }
        if (key.contains(".") || key.startsWith("#")) {
            problems.add(path + ": the state's key '" + key + "' " + (key.contains(".") ? "contains '.', which a target reads as"
                    + " the step between two keys" : "starts with '#', which a target reads as an id") + "; rename the state");
            return false;
        }
        return true;
    }

    /** A state's id, as {@code "#id.path"} targets read it: a name with no '.'. */
    private static boolean stateId(String id, String path, List<String> problems) {
        if (!named(id, path, "the state's id", "a name that targets write as '#id'", problems)) {
            return false;
        }
        if (id.contains(".")) {
            problems.add(path + ": the state's id '" + id + "' contains '.', which a '#id.path' target reads as the step into a"
                    + " child; use an id without '.'");
            return false;
        }
        return true;
    }

    /**
     * A target's text: a sibling's key, a path of keys joined by '.', '.child' or '#id' with an
     * optional path; no key in it empty. The compiler then finds the state, naming the state path;
     * what a name alone shows is refused here, at the JSON path.
     */
    private static boolean target(String text, String path, String what, List<String> problems) {
        return target(text, path, what, "a sibling's key, '.child' or '#id'", problems);
    }

    private static boolean target(String text, String path, String what, String expected, List<String> problems) {
        if (!named(text, path, "the " + what, expected, problems)) {
            return false;
        }
        String keys = text.startsWith("#") || text.startsWith(".") ? text.substring(1) : text;
        for (String key : keys.split("\\.", -1)) {
            if (key.isBlank()) {
                problems.add(path + ": " + what + " '" + text + "' has an empty key in it; expected " + expected
                        + ", with a name between every two dots");
                return false;
            }
        }
        return true;
    }

    /**
     * The JSON path of {@code key} in the object at {@code path}: {@code $.states.a} for a plain
     * key, {@code $.states["a.b"]} for one a dotted path could not show (empty, with dots, spaces...).
     */
    static String member(String path, String key) {
        boolean plain = !key.isEmpty();
        for (int i = 0; i < key.length() && plain; i++) {
            char c = key.charAt(i);
            plain = c < 128 && (Character.isLetterOrDigit(c) || c == '_' || c == '-' || c == '$');
        }
        if (plain) {
            return path + "." + key;
        }
        StringBuilder out = new StringBuilder(path).append('[');
        JsonText.string(out, key);
        return out.append(']').toString();
    }

    private static boolean looksLikeANumber(String text) {
        try {
            Double.parseDouble(text);
            return true;
        } catch (NumberFormatException e) {
            return false;
        }
    }

    private static String text(JsonNode node, String field, String path, List<String> problems) {
        JsonNode v = node.get(field);
        if (v == null || v.isNull()) {
            return null;
        }
        if (!v.isTextual()) {
            problems.add(path + "." + field + ": expected a string, found " + kind(v));
            return null;
        }
        return v.asText();
    }

    private static String kind(JsonNode n) {
        if (n == null || n.isMissingNode()) {
            return "nothing";
        }
        switch (n.getNodeType()) {
            case ARRAY: return "an array";
            case OBJECT: return "an object";
            case STRING: return "the string \"" + n.asText() + "\"";
            case NUMBER: return "the number " + n.asText();
            case BOOLEAN: return n.asText();
            case NULL: return "null";
            default: return n.getNodeType().name().toLowerCase();
        }
    }

    /** A sentence saying what to add, rather than a NoClassDefFoundError, when Jackson is absent. */
    private static void requireJackson() {
        try {
            Class.forName("com.fasterxml.jackson.databind.ObjectMapper", false, XStateImport.class.getClassLoader());
        } catch (ClassNotFoundException | LinkageError e) {
            throw new IllegalStateException("XStateImport needs Jackson, which engine-states-xstate depends on, but"
                    + " com.fasterxml.jackson.databind.ObjectMapper was not found: the build excludes"
                    + " com.fasterxml.jackson.core:jackson-databind (2.x); keep it to import XState JSON");
        }
    }
}

package dev.enginestates.testing.conformance;

import dev.enginestates.records.Access;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.enginestates.declare.Event;
import dev.enginestates.declare.MachineException;
import dev.enginestates.Machine;
import dev.enginestates.plain.StateMachine;
import dev.enginestates.records.Configurations;
import dev.enginestates.xstate.XStateImport;

import java.io.IOException;
import java.io.PrintStream;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.stream.Collectors;
import java.util.stream.Stream;

/**
 * Replays XState conformance traces (see the corpus' {@code FORMAT.md}): builds the machine
 * from the trace's config with guard {@code gN} fixed to the trace's value and guard
 * {@code evFlag} true exactly when the event has {@code ok: true}, starts it, sends each
 * event, and compares the state value (ignoring key order), the status and the ordered list
 * of actions with what XState recorded.
 *
 * <p>As a program: {@code TraceReplayer FILE_OR_DIR...} prints one line per failing trace and
 * ends with {@code N passed, M failed}; it exits 0 only when M is 0.
 */
public final class TraceReplayer {
    private static final ObjectMapper JSON = new ObjectMapper();

    private TraceReplayer() {
    }

    /**
     * Runs the replayer over files and folders (folders are searched for {@code *.json}).
     *
     * @param args trace files and folders of them; none prints the usage and exits with 2
     */
    public static void main(String[] args) {
        if (args.length == 0) {
            System.err.println("usage: TraceReplayer FILE_OR_DIR... (trace files, or folders of them)");
            System.exit(2);
        }
        int failed = run(expand(args), System.out);
        System.exit(failed == 0 ? 0 : 1);
    }

    /**
     * Replays the files, prints one line per failure and the closing count; returns the number failed.
     *
     * @param files the trace files to replay, in order
     * @param out where the failures and the count are printed, such as {@code System.out}
     * @return how many traces failed; 0 when all passed
     */
    public static int run(List<Path> files, PrintStream out) {
        int passed = 0;
        int failed = 0;
        for (Path f : files) {
            TraceResult r = replay(f);
            if (r.passed()) {
                passed++;
            } else {
                failed++;
                out.println("FAIL " + r);
            }
        }
        out.println(passed + " passed, " + failed + " failed");
        return failed;
    }

    /**
     * The trace files named by the arguments: files as given, folders searched recursively for {@code *.json}, sorted.
     *
     * @param args paths of trace files and folders
     * @return the trace files, each folder's sorted by path
     * @throws IllegalArgumentException if a path is neither a file nor a folder
     * @throws java.io.UncheckedIOException if a folder cannot be walked
     */
    public static List<Path> expand(String... args) {
        List<Path> files = new ArrayList<>();
        for (String a : args) {
            Path p = Path.of(a);
            if (Files.isDirectory(p)) {
                try (Stream<Path> walk = Files.walk(p)) {
                    files.addAll(walk.filter(Files::isRegularFile)
                            .filter(x -> x.getFileName().toString().endsWith(".json"))
                            .sorted().collect(Collectors.toList()));
                } catch (IOException e) {
                    throw new UncheckedIOException(e);
                }
            } else if (Files.isRegularFile(p)) {
                files.add(p);
            } else {
                throw new IllegalArgumentException("no such trace file or folder: " + p.toAbsolutePath());
            }
        }
        return files;
    }

    /**
     * Replays one trace file. A file that cannot be read or built fails with the reason.
     *
     * @param file a JSON trace file; its name (without {@code .json}) names the trace unless the trace has a {@code name}
     * @return whether it passed, or the first difference
     */
    public static TraceResult replay(Path file) {
        String name = file.getFileName().toString().replaceFirst("\\.json$", "");
        JsonNode trace;
        try {
            trace = JSON.readTree(file.toFile());
        } catch (IOException e) {
            return TraceResult.failed(name, -1, "a readable JSON trace", e.getMessage());
        }
        if (trace == null || trace.isMissingNode()) {
            return TraceResult.failed(name, -1, "a readable JSON trace", "an empty file");
        }
        return replay(trace, trace.path("name").asText(name));
    }

    /**
     * Replays one parsed trace.
     *
     * @param trace the parsed trace: {@code machine}, {@code guards}, {@code initial} and {@code steps}
     * @param name the trace's name, for the result
     * @return whether it passed, or the first difference; a trace missing a part the format requires fails with what is
     *         missing, at the step it belongs to
     */
    public static TraceResult replay(JsonNode trace, String name) {
        // a malformed trace is a failed result saying why, never an exception from the middle of the replay
        if (trace == null || !trace.isObject()) {
            return TraceResult.failed(name, -1, "a JSON object with machine, initial and steps (FORMAT.md)", "the trace is " + kind(trace));
        }
        if (!trace.path("machine").isObject()) {
            return TraceResult.failed(name, -1, "the machine config, an object", "machine is " + kind(trace.get("machine")));
        }
        if (!trace.path("initial").isObject()) {
            return TraceResult.failed(name, -1, "the initial value, status and actions, an object", "initial is " + kind(trace.get("initial")));
        }
        if (trace.has("steps") && !trace.get("steps").isArray()) {
            return TraceResult.failed(name, -1, "the steps, an array", "steps is " + kind(trace.get("steps")));
        }
        Map<String, Boolean> guards = new LinkedHashMap<>();
        for (Map.Entry<String, JsonNode> e : trace.path("guards").properties()) {
            guards.put(e.getKey(), e.getValue().asBoolean());
        }
        Machine<List<String>> machine;
        try {
            machine = XStateImport.<List<String>>withContext(ArrayList::new)
                    .guard("evFlag", (log, event) -> event.isTrue("ok"))
                    .guards(g -> guards.containsKey(g) ? (log, event) -> guards.get(g) : null)
                    .actions(a -> (log, event) -> log.add(a))
                    .from(trace.get("machine"));
        } catch (MachineException e) {
            return TraceResult.failed(name, -1, "a machine this engine accepts", e.getMessage());
        }
        StateMachine<List<String>> sm;
        try {
            sm = new StateMachine<>(machine);
        } catch (MachineException e) {
            return TraceResult.failed(name, -1, "a clean start", e.toString());
        }
        String diff = compare(trace.get("initial"), sm);
        if (diff != null) {
            return TraceResult.failed(name, -1, expectedOf(trace.get("initial")), diff);
        }
        JsonNode steps = trace.path("steps");
        for (int i = 0; i < steps.size(); i++) {
            JsonNode step = steps.get(i);
            JsonNode ev = step.path("event");
            if (!ev.isObject() || !ev.path("type").isTextual()) {
                return TraceResult.failed(name, i, "an event object with a type, a string", "event is " + kind(step.get("event"))
                        + (ev.isObject() ? " whose type is " + kind(ev.get("type")) : ""));
            }
            sm.context().clear();
            try {
                sm.send(event(ev));
            } catch (MachineException e) {
                return TraceResult.failed(name, i, expectedOf(step), e.toString());
            }
            diff = compare(step, sm);
            if (diff != null) {
                return TraceResult.failed(name, i, expectedOf(step), diff);
            }
            // every configuration XState leaves must be one a checkpoint restore accepts
            String shape = Configurations.problem(Access.record(sm));
            if (shape != null) {
                return TraceResult.failed(name, i, "a configuration a restore accepts", shape);
            }
        }
        return TraceResult.passed(name);
    }

    private static Event event(JsonNode node) {
        Map<String, Object> fields = new LinkedHashMap<>();
        for (Map.Entry<String, JsonNode> e : node.properties()) {
            if (!e.getKey().equals("type")) {
                fields.put(e.getKey(), JSON.convertValue(e.getValue(), Object.class));
            }
        }
        return Event.of(node.get("type").asText(), fields);
    }

    /** Null when the machine matches the recorded result, else what the engine has. */
    private static String compare(JsonNode expected, StateMachine<List<String>> sm) {
        JsonNode value = JSON.valueToTree(sm.value());
        String status = sm.isDone() ? "done" : "active";
        List<String> actions = sm.context();
        List<String> expectedActions = new ArrayList<>();
        expected.path("actions").forEach(a -> expectedActions.add(a.asText()));
        if (value.equals(expected.get("value")) && status.equals(expected.path("status").asText())
                && actions.equals(expectedActions)) {
            return null;
        }
        return describe(value, status, actions);
    }

    /** What a part of a trace is, for a failure's reason: {@code "missing"}, {@code "a string: \"a\""}, .... */
    private static String kind(JsonNode n) {
        if (n == null || n.isMissingNode()) {
            return "missing";
        }
        return n.isContainerNode() ? "an " + (n.isArray() ? "array" : "object") + " " + n
                : "a " + n.getNodeType().name().toLowerCase(java.util.Locale.ROOT) + ": " + n;
    }

    private static String expectedOf(JsonNode step) {
        List<String> actions = new ArrayList<>();
        step.path("actions").forEach(a -> actions.add(a.asText()));
        return describe(step.get("value"), step.path("status").asText(), actions);
    }

    private static String describe(JsonNode value, String status, List<String> actions) {
        ObjectNode o = JSON.createObjectNode();
        o.set("value", value);
        o.put("status", status);
        o.set("actions", JSON.valueToTree(actions));
        return o.toString();
    }
}

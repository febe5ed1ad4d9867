package dev.enginestates.xstate;

import dev.enginestates.Machine;
import dev.enginestates.algorithm.StyleRuntime;
import dev.enginestates.chart.Chart;
import dev.enginestates.declare.MachineException;
import dev.enginestates.declare.Named;
import dev.enginestates.declare.Raise;
import dev.enginestates.declare.SelfAction;
import dev.enginestates.declare.SelfGuard;
import dev.enginestates.declare.SelfSeconds;
import dev.enginestates.declare.StateType;
import dev.enginestates.ecs.States;
import dev.enginestates.records.Access;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collections;
import java.util.Comparator;
import java.util.IdentityHashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;

/**
 * Exports an XState-style machine as XState v5's JSON config, which {@link XStateImport} reads
 * back to the same chart: states, {@code initial}, ids, {@code on}, {@code always},
 * {@code onDone}, guarded transition lists, {@code reenter}, several targets, {@code entry},
 * {@code exit}, history and final states, with this library's own keys for a wait
 * ({@code "wait": {"seconds": 12, "then": "fight"}}) and {@code when} rules
 * ({@code "when": [{"guard": "isSlow", "target": "stalling"}]}).
 *
 * <pre>{@code
 * XStateExport<Siege> export = XStateExport.of(SIEGE);
 * String json = export.json();
 * Machine<Siege> back = XStateImport.withContext(Siege::new).implementations(export).parse(json);
 * }</pre>
 *
 * <p>Guards, {@code when} tests, actions and computed seconds are Java code, so the JSON names
 * them as XState names its implementations, and {@link #guards()}, {@link #actions()} and
 * {@link #delays()} hold the code under each name. Code wrapped with {@link Named} keeps its
 * name. Code without one is named after the place it is declared, which stays the same from
 * one run to the next while the declaration does: {@code "fight/on.WAVE_HELD[0]/actions[0]"}
 * (the state's path, {@code (root)} for the machine's own; the key and the index of the
 * transition in the JSON; what the code is). One piece of code used in several places keeps
 * the name of the first. Targets are written as a sibling's key, {@code .child} for a state
 * inside the source, else {@code #id} with a path.
 *
 * <p>XState itself reads the JSON but ignores {@code wait} and {@code when}, which need this
 * library's fixed step. A typed machine exports its constants' names; the import makes a
 * machine named by strings. What an import does with events no state names is the importer's
 * setting ({@link XStateImport#unknownEvents}), not the JSON's. The export is immutable.
 *
 * @param <C> the context type
 */
public final class XStateExport<C> {
    private final String json;
    private final Map<String, SelfGuard<C>> guards;
    private final Map<String, SelfAction<C>> actions;
    private final Map<String, SelfSeconds<C>> delays;

    private XStateExport(String json, Map<String, SelfGuard<C>> guards, Map<String, SelfAction<C>> actions,
            Map<String, SelfSeconds<C>> delays) {
        this.json = json;
        this.guards = Collections.unmodifiableMap(guards);
        this.actions = Collections.unmodifiableMap(actions);
        this.delays = Collections.unmodifiableMap(delays);
    }

    /**
     * Exports an XState-style machine.
     *
     * @param <C>     the context type
     * @param machine a machine declared with {@code Machine.define} or imported with {@link XStateImport}
     * @return the JSON and the code under each name it uses
     * @throws NullPointerException if {@code machine} is {@code null}
     * @throws MachineException if the machine is a polled ({@code StatesDef}) or builder-style one, which
     *                          XState cannot express; if two different pieces of code share one name, or code
     *                          is named as XState's own raise action ({@code "xstate.raise"}) or stateIn guard
     *                          ({@code "xstate.stateIn"}); or if a target can be written only as {@code #id} and
     *                          neither it nor an ancestor has an id without a {@code '.'}
     */
    public static <C> XStateExport<C> of(Machine<C> machine) {
        Chart chart = Access.chart(Objects.requireNonNull(machine, "machine"));
        return new Writer<C>(chart).export();
    }

    /**
     * Exports the machine of an ECS binding made from an XState-style machine ({@code States.define},
     * {@code States.of(machine)}): {@code of(states.machine())}.
     *
     * @param <C>    the context type
     * @param states the binding
     * @return the JSON and the code under each name it uses
     * @throws NullPointerException if {@code states} is {@code null}
     * @throws MachineException as {@link #of(Machine)} does, for a binding of a polled or builder-style machine too
     */
    public static <C> XStateExport<C> of(States<C> states) {
        return of(Objects.requireNonNull(states, "states").machine());
    }

    /**
     * The JSON of an XState-style machine: {@code of(machine).json()}.
     *
     * @param machine a machine declared with {@code Machine.define} or imported with {@link XStateImport}
     * @return the config, as JSON text indented by two spaces
     * @throws NullPointerException if {@code machine} is {@code null}
     * @throws MachineException as {@link #of(Machine)} does
     */
    public static String toJson(Machine<?> machine) {
        return of(machine).json();
    }

    /**
     * The JSON of an ECS binding's XState-style machine: {@code of(states).json()}.
     *
     * @param states the binding
     * @return the config, as JSON text indented by two spaces
     * @throws NullPointerException if {@code states} is {@code null}
     * @throws MachineException as {@link #of(Machine)} does
     */
    public static String toJson(States<?> states) {
        return of(states).json();
    }

    /**
     * The config.
     *
     * @return XState v5's JSON config of the machine, indented by two spaces, ending in a newline
     */
    public String json() {
        return json;
    }

    /**
     * The guards and {@code when} tests, by the names the JSON gives them.
     *
     * @return name to code, in the order the JSON first names them; unmodifiable
     */
    public Map<String, SelfGuard<C>> guards() {
        return guards;
    }

    /**
     * The entry, exit and transition actions, by the names the JSON gives them.
     *
     * @return name to code, in the order the JSON first names them; unmodifiable
     */
    public Map<String, SelfAction<C>> actions() {
        return actions;
    }

    /**
     * The waits' computed seconds, by the names the JSON gives them ({@code "wait": {"seconds": "name"}}).
     *
     * @return name to code, in the order the JSON first names them; unmodifiable
     */
    public Map<String, SelfSeconds<C>> delays() {
        return delays;
    }

    @Override
    public String toString() {
        return "XStateExport(" + guards.size() + " guards, " + actions.size() + " actions, " + delays.size() + " delays)";
    }

    /** Walks the chart in document order, naming the code as it meets it. */
    private static final class Writer<C> {
        private final Chart c;
        private final Names guards;
        private final Names actions;
        private final Names delays;

        Writer(Chart chart) {
            this.c = chart;
            this.guards = new Names(chart.machineId, "guard", "xstate.stateIn");
            this.actions = new Names(chart.machineId, "action", "xstate.raise");
            this.delays = new Names(chart.machineId, "seconds function", null);
        }

        @SuppressWarnings("unchecked")
        XStateExport<C> export() {
            if (!c.movesAreTransitions) {
                StyleRuntime style = StyleRuntime.of(c);
                throw new MachineException(c.machineId, "machine '" + c.machineId + "' is a " + style.kind() + " (" + style.declaredWith()
                        + ") machine, which XState's config cannot express; only machines declared with Machine.define or"
                        + " imported from XState export to XState JSON (draw it with Diagrams.mermaid or Diagrams.dot)");
            }
            if (!c.stateId[0].equals(c.machineId)) {
                throw new MachineException(c.machineId, "machine '" + c.machineId + "' has root id '" + c.stateId[0]
                        + "'; XState's root id is the machine's id, so the JSON cannot keep both: drop the root's id(...)");
            }
            Map<String, Object> root = new LinkedHashMap<>();
            root.put("id", c.machineId);
            state(0, root);
            return new XStateExport<>(JsonText.write(root), (Map<String, SelfGuard<C>>) (Map<String, ?>) guards.byName,
                    (Map<String, SelfAction<C>>) (Map<String, ?>) actions.byName,
                    (Map<String, SelfSeconds<C>>) (Map<String, ?>) delays.byName);
        }

        private String where(int s) {
            return s == 0 ? "(root)" : c.path[s];
        }

        private String where(int s, String what) {
            return s == 0 ? "the machine's root" : what + " '" + c.path[s] + "'";
        }

        private void state(int s, Map<String, Object> out) {
            String at = where(s);
            if (s > 0 && !c.stateId[s].contains(".")) {
                out.put("id", c.stateId[s]);
            }
            StateType type = c.type[s];
            if (type == StateType.PARALLEL || type == StateType.FINAL || type == StateType.HISTORY) {
                out.put("type", type.name().toLowerCase());
            }
            if (type == StateType.HISTORY) {
                out.put("history", c.deepHistory[s] ? "deep" : "shallow");
                if (c.historyDefault[s] != null) {
                    out.put("target", relative(c.parent[s], c.historyDefault[s][0]));
                }
                return;
            }
            if (c.initial[s] >= 0) {
                out.put("initial", c.key[c.initial[s]]);
            }
            actionList(out, "entry", c.entry[s], at + "/entry");
            actionList(out, "exit", c.exit[s], at + "/exit");
            if (c.waitTransition[s] >= 0) {
                Map<String, Object> wait = new LinkedHashMap<>();
                SelfSeconds<Object> fn = c.waitSecondsOf[s];
                wait.put("seconds", fn != null ? delays.name(fn, at + "/wait/seconds") : (Object) c.waitSeconds[s]);
                wait.put("then", transition(c.waitTransition[s], at + "/wait", false));
                out.put("wait", wait);
            }
            if (c.when[s] != null) {
                List<Object> rules = new ArrayList<>();
                for (int i = 0; i < c.when[s].length; i++) {
                    int t = c.when[s][i];
                    String place = at + "/when[" + i + "]";
                    Map<String, Object> rule = new LinkedHashMap<>();
                    rule.put("guard", guards.name(c.whenTest[t], place + "/guard"));
                    rule.putAll(transitionObject(t, place));
                    rules.add(rule);
                }
                out.put("when", rules);
            }
            if (c.onOwn[s] != null) {
                // by descriptor as written ('*', 'prefix.*' included): the compiled table merges the matching ones
                int[][] own = c.onOwn[s];
                Integer[] events = new Integer[own.length];
                int n = 0;
                for (int e = 0; e < own.length; e++) {
                    if (own[e] != null) {
                        events[n++] = e;
                    }
                }
                events = Arrays.copyOf(events, n);
                // the JSON's keys in the order the state declared its events: by each event's first transition
                Arrays.sort(events, Comparator.comparingInt(e -> own[e][0]));
                Map<String, Object> on = new LinkedHashMap<>();
                for (int e : events) {
                    on.put(c.eventTypes[e], transitions(own[e], at + "/on." + c.eventTypes[e]));
                }
                out.put("on", on);
            }
            if (c.always[s] != null) {
                out.put("always", transitions(c.always[s], at + "/always"));
            }
            if (c.onDone[s] != null) {
                out.put("onDone", transitions(c.onDone[s], at + "/onDone"));
            }
            if (c.children[s].length > 0) {
                Map<String, Object> states = new LinkedHashMap<>();
                for (int child : c.children[s]) {
                    Map<String, Object> node = new LinkedHashMap<>();
                    state(child, node);
                    states.put(c.key[child], node);
                }
                out.put("states", states);
            }
        }

        private void actionList(Map<String, Object> out, String key, SelfAction<Object>[] list, String place) {
            if (list.length == 0) {
                return;
            }
            List<Object> names = new ArrayList<>();
            for (int i = 0; i < list.length; i++) {
                if (list[i] instanceof Raise<?> raise && raise.event().fields().isEmpty()) {
                    // XState's own raise action, which the import reads back
                    names.add(Map.of("type", "xstate.raise", "params", Map.of("event", Map.of("type", raise.event().type()))));
                } else {
                    names.add(actions.name(list[i], place + "[" + i + "]"));
                }
            }
            out.put(key, names);
        }

        /** One transition as a string, or a list of them as an array, as XState writes them. */
        private Object transitions(int[] list, String place) {
            if (list.length == 1) {
                return transition(list[0], place + "[0]", true);
            }
            List<Object> out = new ArrayList<>();
            for (int i = 0; i < list.length; i++) {
                out.add(transition(list[i], place + "[" + i + "]", true));
            }
            return out;
        }

        /** A target's text alone when that is all there is, else the transition object. */
        private Object transition(int t, String place, boolean guarded) {
            Map<String, Object> object = transitionObject(t, place);
            if (guarded && (c.tGuard[t] != null || c.tInState[t] >= 0)) {
                Map<String, Object> withGuard = new LinkedHashMap<>();
                withGuard.put("target", object.remove("target"));
                withGuard.put("guard", c.tInState[t] >= 0
                        // XState's stateIn guard, which the import reads back
                        ? Map.of("type", "xstate.stateIn", "params", Map.of("stateValue", "#" + c.stateId[c.tInState[t]]))
                        : guards.name(c.tGuard[t], place + "/guard"));
                withGuard.putAll(object);
                withGuard.values().remove(null);
                return withGuard;
            }
            if (object.size() == 1 && object.get("target") instanceof String) {
                return object.get("target");
            }
            return object;
        }

        private Map<String, Object> transitionObject(int t, String place) {
            Map<String, Object> out = new LinkedHashMap<>();
            int[] targets = c.tTargets[t];
            if (targets.length == 1) {
                out.put("target", target(c.tSource[t], targets[0]));
            } else if (targets.length > 1) {
                List<Object> texts = new ArrayList<>();
                for (int target : targets) {
                    texts.add(target(c.tSource[t], target));
                }
                out.put("target", texts);
            }
            actionList(out, "actions", c.tActions[t], place + "/actions");
            if (c.tReenter[t]) {
                out.put("reenter", Boolean.TRUE);
            }
            return out;
        }

        /** The shortest text the compiler resolves from {@code source} to {@code target}. */
        private String target(int source, int target) {
            if (c.isDescendant(target, source)) {
                return "." + relative(source, target);
            }
            if (source > 0 && c.isDescendant(target, c.parent[source])) {
                return relative(c.parent[source], target); // a sibling's key, or a path below a sibling
            }
            for (int a = target; a >= 0; a = c.parent[a]) {
                if (!c.stateId[a].contains(".")) {
                    return "#" + c.stateId[a] + (a == target ? "" : "." + relative(a, target));
                }
            }
            throw new MachineException(c.machineId, "machine '" + c.machineId + "': " + where(source, "state") + " targets '"
                    + c.path[target] + "', which an XState config reaches only by '#id', and neither it nor an ancestor has an"
                    + " id without a '.' (the machine's id has one); give '" + c.path[target] + "' an id(...) to export it");
        }

        /** The keys from {@code ancestor} down to {@code s}, joined by dots. */
        private String relative(int ancestor, int s) {
            List<String> keys = new ArrayList<>();
            for (int a = s; a != ancestor; a = c.parent[a]) {
                keys.add(0, c.key[a]);
            }
            return String.join(".", keys);
        }
    }

    /** One namespace of names (guards, actions or delays): each piece of code gets one name, each name one piece of code. */
    private static final class Names {
        final Map<String, Object> byName = new LinkedHashMap<>();
        private final Map<Object, String> assigned = new IdentityHashMap<>();
        private final Map<String, String> firstPlace = new LinkedHashMap<>();
        private final String machineId;
        private final String what;
        /** The name XState's config (and the import) reads as its own built-in of this kind, which takes params. */
        private final String builtIn;

        Names(String machineId, String what, String builtIn) {
            this.machineId = machineId;
            this.what = what;
            this.builtIn = builtIn;
        }

        String name(Object code, String place) {
            String known = assigned.get(code);
            if (known != null) {
                return known;
            }
            String name = Named.nameOf(code);
            if (name != null && name.equals(builtIn)) {
                throw new MachineException(machineId, "machine '" + machineId + "': the " + what + " at " + place + " is named '"
                        + name + "', which XState's config reads as its own built-in " + what + " (and so does the import):"
                        + " the JSON would not read back to this code; rename it");
            }
            if (name != null) {
                Object before = byName.get(name);
                if (before != null && Named.unwrap(before) != Named.unwrap(code)) {
                    throw new MachineException(machineId, "machine '" + machineId + "': two different pieces of code are both"
                            + " the " + what + " named '" + name + "' (at " + firstPlace.get(name) + " and at " + place
                            + "); a name stands for one implementation in XState's config, so rename one of them");
                }
            } else {
                name = place;
                for (int k = 2; byName.containsKey(name); k++) {
                    name = place + "~" + k;
                }
            }
            if (!byName.containsKey(name)) {
                byName.put(name, code);
                firstPlace.put(name, place);
            }
            assigned.put(code, name);
            return name;
        }
    }
}

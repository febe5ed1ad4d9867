package dev.enginestates.devtools;

import com.fasterxml.jackson.core.JsonGenerator;
import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.SerializationFeature;
import com.fasterxml.jackson.databind.SerializerProvider;
import com.fasterxml.jackson.databind.json.JsonMapper;
import com.fasterxml.jackson.databind.module.SimpleModule;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import com.fasterxml.jackson.databind.ser.std.StdSerializer;
import dev.dominion.ecs.api.Dominion;
import dev.dominion.ecs.api.Entity;
import dev.enginestates.algorithm.StyleRuntime;
import dev.enginestates.chart.Chart;
import dev.enginestates.chart.PolledChart;
import dev.enginestates.declare.SavedContext;
import dev.enginestates.declare.StateType;
import dev.enginestates.ecs.StateRecord;
import dev.enginestates.ecs.StateWorld;
import dev.enginestates.ecs.States;
import dev.enginestates.records.Access;
import dev.enginestates.records.MachineRecord;
import dev.enginestates.records.StateValue;

import java.io.IOException;
import java.util.ArrayList;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * Builds the page's snapshot of a world as JSON text, on the world's thread: the machines with
 * their state trees, the entities with their records, and the fact lines. Also names the
 * entities ({@link EntityNames}) and says a record as a fact line. The text is immutable, so the
 * server's threads hand it out without touching the world.
 */
final class Snapshots {
    static final String FORMAT = "engine-states/devtools";
    static final int VERSION = 1;

    private final EntityNames names;
    private final ObjectMapper json;
    private final JsonNodeFactory nodes = JsonNodeFactory.instance;

    Snapshots(EntityNames names) {
        this.names = names;
        SimpleModule shown = new SimpleModule("engine-states-devtools");
        // a context may hold entities, records or the world: show them by name, never walk into them
        shown.addSerializer(Entity.class, new ByText<>(Entity.class, names::describe));
        shown.addSerializer(StateWorld.class, new ByText<>(StateWorld.class, StateWorld::toString));
        shown.addSerializer(Dominion.class, new ByText<>(Dominion.class, d -> "Dominion(" + d.getName() + ")"));
        @SuppressWarnings({"unchecked", "rawtypes"})
        Class<StateRecord<?>> recordType = (Class) StateRecord.class;
        shown.addSerializer(recordType, new ByText<>(recordType, StateRecord::toString));
        this.json = JsonMapper.builder()
                .disable(SerializationFeature.FAIL_ON_EMPTY_BEANS)
                .disable(SerializationFeature.FAIL_ON_SELF_REFERENCES)
                .disable(SerializationFeature.WRITE_DATES_AS_TIMESTAMPS)
                .addModule(shown)
                .build();
    }

    ObjectMapper json() {
        return json;
    }

    /** The snapshot of {@code world} now, numbered {@code seq}, of a loop that does not go through the page. On the world's thread. */
    String build(StateWorld world, long seq, boolean writable) {
        return build(world, seq, writable, false, false);
    }

    /**
     * The snapshot of {@code world} now, numbered {@code seq}, saying whether the game's loop goes
     * through the page ({@code loop}) and whether the page paused it. On the world's thread.
     */
    String build(StateWorld world, long seq, boolean writable, boolean loop, boolean paused) {
        names.forgetDeleted();
        ObjectNode root = nodes.objectNode();
        root.put("format", FORMAT);
        root.put("version", VERSION);
        root.put("snapshot", seq);
        root.put("world", world.dominion().getName());
        root.put("time", round(world.time()));
        root.put("steps", world.steps());
        root.put("writable", writable);
        root.put("loop", loop);
        root.put("paused", paused);

        List<States<?>> machines = world.machines();
        // the entities holding machines: the world's own first, then in the order their records joined
        Map<Entity, List<StateRecord<?>>> held = new IdentityHashMap<>();
        List<Entity> order = new ArrayList<>();
        Entity self = world.entity();
        for (States<?> m : machines) {
            StateRecord<?> r = self.get(m.recordType());
            if (r != null && r.world() == world) {
                hold(held, order, self, r);
            }
        }
        ArrayNode machineList = root.putArray("machines");
        for (States<?> m : machines) {
            List<? extends StateRecord<?>> records = world.records(m);
            if (replaced(world, machines, m, records)) {
                continue;
            }
            Chart c = Access.chart(m.machine());
            ObjectNode mo = machineList.addObject();
            mo.put("id", m.id());
            mo.put("version", m.machine().version());
            mo.put("fingerprint", m.machine().fingerprint());
            mo.put("style", c.style.name().toLowerCase(Locale.ROOT));
            mo.put("tags", m.machine().tags());
            mo.putPOJO("events", m.machine().events());
            mo.set("root", tree(c, 0));
            ArrayNode settable = mo.putArray("states");
            for (int s = 1; s < c.size; s++) {
                if (c.type[s] != StateType.HISTORY) {
                    settable.add(c.path[s]);
                }
            }
            int[] count = new int[c.size];
            ArrayNode holders = mo.putArray("entities");
            StateRecord<?> worlds = null;
            for (StateRecord<?> r : records) {
                Entity e = r.entity();
                if (e != self) {
                    hold(held, order, e, r);
                } else {
                    worlds = r;
                }
                holders.add(names.nameOf(e));
                MachineRecord rec = Access.record(r);
                for (int i = 0; i < rec.activeCount(); i++) {
                    count[rec.activeAt(i)]++;
                }
            }
            ObjectNode counts = mo.putObject("counts");
            for (int s = 1; s < c.size; s++) {
                if (count[s] > 0) {
                    counts.put(c.path[s], count[s]);
                }
            }
            if (worlds != null) {
                ObjectNode w = mo.putObject("worldState");
                w.set("value", json.valueToTree(worlds.value()));
                w.putPOJO("active", StateValue.activePaths(Access.record(worlds)));
                w.put("fact", fact(worlds));
            } else {
                mo.putNull("worldState");
            }
        }

        ArrayNode entityList = root.putArray("entities");
        ArrayNode facts = root.putArray("facts");
        for (Entity e : order) {
            List<StateRecord<?>> rs = held.get(e);
            String name = names.nameOf(e);
            ObjectNode eo = entityList.addObject();
            eo.put("name", name);
            eo.put("world", e == self);
            ArrayNode ms = eo.putArray("machines");
            for (StateRecord<?> r : rs) {
                ObjectNode ro = record(r);
                ms.add(ro);
                ObjectNode f = facts.addObject();
                f.put("entity", name);
                f.put("machine", r.machineId());
                f.put("text", ro.get("fact").asText());
            }
        }
        try {
            return json.writeValueAsString(root);
        } catch (JsonProcessingException e) {
            throw new IllegalStateException("the devtools snapshot of " + world + " could not be written: " + e.getOriginalMessage(), e);
        }
    }

    /**
     * Whether definition {@code m}, which holds {@code records}, is left off the machine list: after a
     * swap the world knows both definitions of an id, and the page lists one per id, the one holding
     * records (when none does, the one the world learned last).
     */
    private static boolean replaced(StateWorld world, List<States<?>> machines, States<?> m, List<? extends StateRecord<?>> records) {
        if (!records.isEmpty()) {
            return false;
        }
        boolean later = false;
        for (States<?> other : machines) {
            if (other == m) {
                later = true;
            } else if (other.id().equals(m.id()) && (later || !world.records(other).isEmpty())) {
                return true;
            }
        }
        return false;
    }

    private static void hold(Map<Entity, List<StateRecord<?>>> held, List<Entity> order, Entity e, StateRecord<?> r) {
        List<StateRecord<?>> rs = held.get(e);
        if (rs == null) {
            rs = new ArrayList<>(2);
            held.put(e, rs);
            order.add(e);
        }
        rs.add(r);
    }

    /** The page's answer to a state set by hand or an event sent ({@code taken} not {@code null}): the record as it is now. */
    String setAnswer(String entity, StateRecord<?> r, Boolean taken) {
        ObjectNode o = nodes.objectNode();
        o.put("ok", true);
        if (taken != null) {
            o.put("taken", taken);
        }
        o.put("entity", entity);
        o.put("machine", r.machineId());
        o.set("record", record(r));
        try {
            return json.writeValueAsString(o);
        } catch (JsonProcessingException e) {
            throw new IllegalStateException("the devtools answer could not be written: " + e.getOriginalMessage(), e);
        }
    }

    /** One record as the inspector shows it, with the record it is a child of and the children it runs. */
    ObjectNode record(StateRecord<?> r) {
        MachineRecord rec = Access.record(r);
        Chart c = rec.chart();
        ObjectNode o = nodes.objectNode();
        o.put("machine", r.machineId());
        o.set("value", json.valueToTree(r.value()));
        o.put("state", r.state());
        o.putPOJO("active", StateValue.activePaths(rec));
        o.putPOJO("leaves", r.leaves());
        if (r.isWaiting()) {
            o.put("waiting", r.waitingIn());
            o.put("waited", round(r.waited()));
        } else {
            o.putNull("waiting");
            o.putNull("waited");
        }
        double left = left(r);
        if (Double.isNaN(left)) {
            o.putNull("left");
        } else {
            o.put("left", round(left));
        }
        o.put("held", r.isHeld());
        o.put("done", r.isDone());
        o.put("time", round(r.time()));
        if (c.recordsPrevious) {
            o.put("previous", r.previous());
        }
        if (c.hasDurations) {
            o.put("progress", round(r.progress()));
        }
        o.set("context", context(r.context()));
        o.put("fact", fact(r));
        family(o, r);
        return o;
    }

    /**
     * The record's place among child machines: {@code parent} (the parent's {@code entity},
     * {@code machine} and this child's {@code id}; or {@code null}) and {@code children} (each
     * child's {@code id}, {@code entity}, {@code machine}, {@code state} and {@code fact}, in the
     * order they started; a child on this record's own entity names that entity).
     */
    private void family(ObjectNode o, StateRecord<?> r) {
        StateRecord<?> up = r.parentRecord();
        if (up == null) {
            o.putNull("parent");
        } else {
            ObjectNode p = o.putObject("parent");
            p.put("entity", names.nameOf(up.entity()));
            p.put("machine", up.machineId());
            p.put("id", r.childId());
        }
        ArrayNode children = o.putArray("children");
        for (String id : r.children()) {
            StateRecord<?> c = r.childRecord(id);
            ObjectNode co = children.addObject();
            co.put("id", id);
            co.put("entity", names.nameOf(c.entity()));
            co.put("machine", c.machineId());
            co.put("state", c.state());
            co.put("fact", fact(c));
        }
    }

    /** The context as JSON, or a sentence with its {@code toString()} when Jackson cannot write it. */
    JsonNode context(Object context) {
        if (context == null) {
            return nodes.nullNode();
        }
        try {
            // a context that saves itself (an SCXML datamodel) is shown as it saves, as checkpoints hold it
            return json.valueToTree(context instanceof SavedContext saved ? saved.save() : context);
        } catch (RuntimeException | Error e) {
            // the getters and toString() are the game's code: whatever they throw (an AssertionError
            // too, which Jackson passes on unwrapped) is shown here, never thrown into the game's loop
            String text;
            try {
                text = String.valueOf(context);
            } catch (RuntimeException | Error again) {
                text = "a " + context.getClass().getName();
            }
            ObjectNode o = nodes.objectNode();
            o.put("$unshown", "this context cannot be written as JSON (" + e.getClass().getSimpleName() + "); its toString() follows");
            o.put("$text", text);
            return o;
        }
    }

    /**
     * A record as a fact line, such as {@code "siege: breather, 8 s left"}: the machine's id, its
     * active leaf (the leaves of a parallel state joined by {@code " + "}), then {@code done},
     * {@code held} and the seconds its wait (a polled machine's {@code after}) has left, each when
     * it applies. A held wait counts no seconds, so a held guard reads
     * {@code "guard: patrol.watch, held, 2.8 s left"} until the hold comes off.
     */
    static String fact(StateRecord<?> r) {
        StringBuilder sb = new StringBuilder(r.machineId()).append(": ");
        List<String> leaves = r.leaves();
        sb.append(leaves.isEmpty() ? "(not started)" : String.join(" + ", leaves));
        if (r.isDone()) {
            sb.append(", done");
        }
        if (r.isHeld()) {
            sb.append(", held");
        }
        double left = left(r);
        if (!Double.isNaN(left)) {
            sb.append(", ").append(seconds(left)).append(" left");
        }
        return sb.toString();
    }

    /** Seconds the record's wait (or a polled machine's innermost unfired {@code after}) has left, or NaN when none counts. */
    static double left(StateRecord<?> r) {
        MachineRecord rec = Access.record(r);
        return StyleRuntime.of(rec.chart()).countsDown(rec) ? r.secondsLeft() : Double.NaN;
    }

    /** Seconds for a fact line: tenths rounded up (a wait with 0.04 s left has not ended), whole numbers without ".0". */
    static String seconds(double s) {
        double tenths = Math.ceil(s * 10 - 1e-6) / 10;
        if (tenths <= 0) {
            return "0 s";
        }
        return (tenths == Math.rint(tenths) ? String.valueOf((long) tenths) : String.valueOf(tenths)) + " s";
    }

    private static double round(double seconds) {
        return Math.round(seconds * 1000) / 1000.0;
    }

    // ------------------------------------------------------------------ the state tree

    /** A state and its children, with what moves out of it, for the page's tree and diagram. */
    private ObjectNode tree(Chart c, int s) {
        ObjectNode o = nodes.objectNode();
        o.put("key", s == 0 ? "" : c.key[s]);
        o.put("path", c.path[s]);
        o.put("type", c.type[s].name().toLowerCase(Locale.ROOT));
        if (s > 0 && c.type[c.parent[s]] == StateType.COMPOUND && c.initial[c.parent[s]] == s) {
            o.put("initial", true);
        }
        if (c.type[s] == StateType.HISTORY) {
            o.put("history", c.deepHistory[s] ? "deep" : "shallow");
        }
        ArrayNode moves = o.putArray("transitions");
        for (int t = 0; t < c.transitionCount; t++) {
            if (c.tSource[t] == s) {
                move(moves, label(c, t, s), targets(c, c.tTargets[t]));
            }
        }
        c.byStyle(NO_TABLE, POLLED_TABLE, NO_TABLE).add(c, s, moves);
        if (c.duration(s) > 0) {
            o.put("duration", c.duration(s));
        }
        ArrayNode children = o.putArray("children");
        for (int child : c.children[s]) {
            children.add(tree(c, child));
        }
        return o;
    }

    /** The moves a style's own table declares beside the chart's transitions, added to a state's list. */
    private interface TableMoves {
        void add(Chart c, int s, ArrayNode moves);
    }

    private static final TableMoves NO_TABLE = (c, s, moves) -> { };
    private static final TableMoves POLLED_TABLE = Snapshots::polledMoves;

    /** The polled table's moves out of {@code s}: its {@code to} guards in priority order, its {@code after}, its events. */
    private static void polledMoves(Chart c, int s, ArrayNode moves) {
        PolledChart p = c.polled;
        for (int to : p.toTarget[s] == null ? new int[0] : p.toTarget[s]) {
            move(moves, "to", polledTarget(c, to));
        }
        if (!Double.isNaN(p.afterSeconds[s])) {
            move(moves, "after " + seconds(p.afterSeconds[s]), polledTarget(c, p.afterTarget[s]));
        }
        if (p.onKind[s] != null) {
            for (int ev = 0; ev < p.onKind[s].length; ev++) {
                if (p.onKind[s][ev] == PolledChart.ON_TARGET) {
                    move(moves, p.eventTypes[ev], polledTarget(c, p.onTarget[s][ev]));
                } else if (p.onKind[s][ev] == PolledChart.ON_HANDLER) {
                    move(moves, p.eventTypes[ev], new ArrayList<>());
                }
            }
        }
    }

    private static String label(Chart c, int t, int s) {
        String l = c.tLabel[t];
        if (l.startsWith("on ")) {
            return l.substring(3);
        }
        if (l.equals("wait")) {
            return Double.isNaN(c.waitSeconds[s]) ? "after (computed) s" : "after " + seconds(c.waitSeconds[s]);
        }
        return l;
    }

    private static List<String> targets(Chart c, int[] ts) {
        List<String> out = new ArrayList<>();
        for (int t : ts) {
            out.add(t == 0 ? "(root)" : c.path[t]);
        }
        return out;
    }

    private static List<String> polledTarget(Chart c, int t) {
        List<String> out = new ArrayList<>();
        out.add(t == PolledChart.BACK ? "$back" : t < 0 ? "(none)" : c.path[t]);
        return out;
    }

    private static void move(ArrayNode moves, String label, List<String> targets) {
        ObjectNode m = moves.addObject();
        m.put("label", label);
        ArrayNode to = m.putArray("targets");
        targets.forEach(to::add);
    }

    /**
     * Writes a value of type {@code T} as a JSON string of some text of it.
     *
     * @param <T> the type written
     */
    private static final class ByText<T> extends StdSerializer<T> {
        private static final long serialVersionUID = 1L;
        private final transient java.util.function.Function<T, String> text;

        ByText(Class<T> type, java.util.function.Function<T, String> text) {
            super(type);
            this.text = text;
        }

        @Override
        public void serialize(T value, JsonGenerator gen, SerializerProvider provider) throws IOException {
            gen.writeString(text.apply(value));
        }
    }
}

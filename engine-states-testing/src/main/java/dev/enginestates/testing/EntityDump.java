package dev.enginestates.testing;

import dev.enginestates.records.Access;
import com.fasterxml.jackson.annotation.JsonAutoDetect;
import com.fasterxml.jackson.annotation.PropertyAccessor;
import com.fasterxml.jackson.core.JsonGenerator;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.SerializationFeature;
import com.fasterxml.jackson.databind.SerializerProvider;
import com.fasterxml.jackson.databind.module.SimpleModule;
import com.fasterxml.jackson.databind.ser.std.StdSerializer;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.DecimalNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.dominion.ecs.api.Entity;
import dev.enginestates.chart.Chart;
import dev.enginestates.declare.SavedContext;
import dev.enginestates.declare.StateType;
import dev.enginestates.ecs.EntityKey;
import dev.enginestates.ecs.StateRecord;
import dev.enginestates.ecs.StateWorld;
import dev.enginestates.ecs.States;
import dev.enginestates.records.MachineRecord;

import java.io.IOException;
import java.math.BigDecimal;
import java.math.RoundingMode;
import java.util.ArrayList;
import java.util.List;

/**
 * A JSON picture of the machines on one entity, as the library's {@code Saves.dump} draws a
 * whole world: for each machine its state as XState writes it, its status, its wait (state,
 * seconds waited and left, held), the paused seconds by state, what each history state
 * remembers, its context and the entity's tags of that machine. It is what a failing
 * assertion of this kit prints.
 *
 * <p>Unlike {@code Saves}, it needs no list of machines and accepts any context: a context
 * that Jackson cannot write (a cycle, a handle to the world) is shown by its
 * {@code toString()}. Fields of any visibility are shown, so a test's package-private context
 * reads as it is. Seconds are rounded to the microsecond.
 *
 * <p>Stateless and thread-safe; the world it reads belongs to one thread.
 */
public final class EntityDump {
    private static final int MAX_CONTEXT_CHARS = 4_000;
    private static final ObjectMapper JSON = new ObjectMapper()
            .setVisibility(PropertyAccessor.ALL, JsonAutoDetect.Visibility.NONE)
            .setVisibility(PropertyAccessor.FIELD, JsonAutoDetect.Visibility.ANY)
            .disable(SerializationFeature.FAIL_ON_EMPTY_BEANS)
            .enable(JsonGenerator.Feature.WRITE_BIGDECIMAL_AS_PLAIN)
            .registerModule(new SimpleModule("engine-states-testing").addSerializer(Entity.class, new EntityName()));

    private EntityDump() {
    }

    /**
     * The entity's machines as pretty-printed JSON.
     *
     * @return the JSON text: the entity's name, the world's time and steps, and each machine it holds
     * @param world the world the entity lives in (its clock is printed too)
     * @param entity the entity; the world's own entity shows the world-level machines
     */
    public static String of(StateWorld world, Entity entity) {
        return write(tree(world, entity, null));
    }

    /** The dump with the given machine listed first (the one an assertion is about). */
    static String of(StateWorld world, Entity entity, States<?> first) {
        return write(tree(world, entity, first));
    }

    /**
     * The dump as a JSON tree.
     *
     * @param world the world the entity lives in
     * @param entity the entity; the world's own entity shows the world-level machines
     * @return a new JSON object, for a test or tool to read or extend
     */
    public static ObjectNode tree(StateWorld world, Entity entity) {
        return tree(world, entity, null);
    }

    private static ObjectNode tree(StateWorld world, Entity entity, States<?> first) {
        ObjectNode root = JsonNodeFactory.instance.objectNode();
        root.put("entity", name(world, entity));
        root.set("time", seconds(world.time()));
        root.put("steps", world.steps());
        ObjectNode machines = root.putObject("machines");
        if (entity.isDeleted()) {
            root.put("deleted", true);
            return root;
        }
        List<States<?>> order = new ArrayList<>(world.machines());
        if (first != null) {
            order.remove(first);
            order.add(0, first);
        }
        for (States<?> m : order) {
            StateRecord<?> r = entity.get(m.recordType());
            if (r != null) {
                machines.set(m.id(), machine(entity, m, r));
            }
        }
        return root;
    }

    /** One machine's record as JSON. */
    static ObjectNode machine(Entity entity, States<?> m, StateRecord<?> r) {
        MachineRecord rec = Access.record(r);
        Chart c = rec.chart();
        ObjectNode o = JsonNodeFactory.instance.objectNode();
        o.set("state", JSON.valueToTree(r.value()));
        o.put("status", rec.isDone() ? "done" : "active");
        if (r.isWaiting()) {
            ObjectNode w = o.putObject("wait");
            w.put("state", r.waitingIn());
            w.set("waited", seconds(r.waited()));
            w.set("left", seconds(r.secondsLeft()));
            w.put("held", r.isHeld());
        } else {
            o.putNull("wait");
        }
        ObjectNode paused = o.putObject("paused");
        ObjectNode history = o.putObject("history");
        for (int s = 1; s < c.size; s++) {
            if (c.waitTransition[s] >= 0 && !Double.isNaN(rec.paused(s))) {
                paused.set(c.path[s], seconds(rec.paused(s)));
            }
            if (c.type[s] == StateType.HISTORY && rec.historySize(s) > 0) {
                ArrayNode remembered = history.putArray(c.path[s]);
                for (int i = 0; i < rec.historySize(s); i++) {
                    remembered.add(c.path[rec.historyAt(s, i)]);
                }
            }
        }
        if (BuilderView.is(rec)) {
            o.setAll(BuilderView.tree(rec)); // previous, time in state, duration, progress, tag, windows
        }
        o.set("context", context(r.context()));
        o.put("held", r.isHeld());
        if (m.machine().tags()) {
            ArrayNode tags = o.putArray("tags");
            for (int s = 1; s < c.size; s++) {
                if (c.type[s] != StateType.HISTORY && entity.has(m.is(c.path[s]))) {
                    tags.add(m.id() + "." + c.path[s]);
                }
            }
        }
        return o;
    }

    /** A context as JSON, or its {@code toString()} when Jackson cannot write it (or writes too much). */
    static JsonNode context(Object context) {
        if (context == null) {
            return JsonNodeFactory.instance.nullNode();
        }
        try {
            // a context that saves itself (an SCXML datamodel) is shown as a checkpoint holds it
            JsonNode node = JSON.valueToTree(context instanceof SavedContext saved ? saved.save() : context);
            if (node.toString().length() <= MAX_CONTEXT_CHARS) {
                return node;
            }
        } catch (RuntimeException | StackOverflowError e) {
            // shown by toString below
        }
        return JsonNodeFactory.instance.textNode(String.valueOf(context));
    }

    /** A state value as one line of JSON ({@code "breather"}, {@code {"patrol":"watch"}}). */
    static String value(Object value) {
        return JSON.valueToTree(value).toString();
    }

    /** An entity for messages: its name ({@link StateWorld#nameOf}: its key, {@code "world"}, or {@code guard#3}). */
    static String name(StateWorld world, Entity entity) {
        if (entity == world.entity()) {
            return EntityKey.WORLD;
        }
        if (entity.isDeleted()) {
            return "a deleted entity";
        }
        String name = StateWorld.nameOf(entity);
        return name != null ? name : "an entity without a key or a machine";
    }

    private static JsonNode seconds(double s) {
        if (Double.isNaN(s) || Double.isInfinite(s)) {
            return JsonNodeFactory.instance.textNode(Double.toString(s));
        }
        return DecimalNode.valueOf(BigDecimal.valueOf(s).setScale(6, RoundingMode.HALF_EVEN).stripTrailingZeros());
    }

    static String write(JsonNode node) {
        try {
            return JSON.writerWithDefaultPrettyPrinter().writeValueAsString(node);
        } catch (com.fasterxml.jackson.core.JsonProcessingException e) {
            return node.toString();
        }
    }

    /**
     * An entity in a context (a builder-style context's {@code entity()}) is written as its name,
     * not walked into: Dominion's entity holds its whole chunk.
     */
    private static final class EntityName extends StdSerializer<Entity> {
        EntityName() {
            super(Entity.class);
        }

        @Override
        public void serialize(Entity entity, JsonGenerator gen, SerializerProvider provider) throws IOException {
            String name = StateWorld.nameOf(entity);
            gen.writeString(entity.isDeleted() ? "a deleted entity" : name != null ? name : "an entity without a key");
        }
    }
}

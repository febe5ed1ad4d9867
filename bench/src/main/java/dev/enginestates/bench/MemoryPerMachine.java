package dev.enginestates.bench;

import com.badlogic.gdx.ai.fsm.DefaultStateMachine;
import com.badlogic.gdx.ai.fsm.State;
import com.badlogic.gdx.ai.msg.Telegram;
import dev.dominion.ecs.api.Entity;
import dev.enginestates.Machine;
import dev.enginestates.ecs.StateRecord;
import dev.enginestates.ecs.StateWorld;
import dev.enginestates.ecs.States;
import org.openjdk.jol.vm.VM;

import java.lang.management.ManagementFactory;
import java.lang.reflect.Field;
import java.lang.reflect.Modifier;
import java.util.ArrayList;
import java.util.IdentityHashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Bytes per machine instance (issue 14), two ways. (1) What a record owns, object by object:
 * two records of one machine are walked side by side and what they share (the world, the chart,
 * the binding, Dominion's chunks, the tag instances) is left out; sizes from JOL. (2) The heap
 * a world grows by per machine: 100,000 entities spawned after a warm-up, used heap after full
 * GCs before and after (run with {@code -XX:+UseSerialGC} so a GC compacts), less what the same
 * number of bare entities costs Dominion. gdx-ai's {@code DefaultStateMachine} the same way, and
 * Spring Statemachine's instances (built and started by its builder) over {@link #N_SPRING} of
 * them, as each is tens of kilobytes.
 *
 * <pre>{@code java -XX:+UseSerialGC -Xms1g -Xmx1g -cp bench/target/benchmarks.jar dev.enginestates.bench.MemoryPerMachine}</pre>
 */
public final class MemoryPerMachine {
    static final int N = 100_000;
    /** Spring's instances counted: fewer, as each holds its own states and transitions (tens of KB). */
    static final int N_SPRING = 5_000;

    /** A component shared by every bare entity: Dominion's own cost per entity. */
    static final class Mark {
    }

    static final Mark MARK = new Mark();

    static Machine<Object> flat3(boolean tags) {
        return Machine.define(tags ? "mem-flat3" : "mem-flat3-untagged", () -> null, m -> m
                .tags(tags)
                .initial("idle")
                .state("idle", s -> s.on("GO", "walk"))
                .state("walk", s -> s.on("GO", "run"))
                .state("run", s -> s.on("GO", "idle")));
    }

    private MemoryPerMachine() {
    }

    public static void main(String[] args) throws Exception {
        System.out.println("JVM: " + System.getProperty("java.vm.name") + " " + System.getProperty("java.version")
                + ", " + VM.current().details().split("\n")[0]);
        Map<String, States<?>> machines = new LinkedHashMap<>();
        machines.put("flat 3-state, no context, tags", States.of(flat3(true)));
        machines.put("flat 3-state, no context, tags(false)", States.of(flat3(false)));
        machines.put("3-level guard, empty context, tags", States.of(Machines.GUARD));
        machines.put("3-level guard, empty context, tags(false)", States.of(Machines.GUARD_UNTAGGED));

        System.out.println("\n(1) what one record owns (JOL sizes; shared objects left out)");
        for (Map.Entry<String, States<?>> e : machines.entrySet()) {
            owned(e.getKey(), e.getValue());
        }

        System.out.println("\n(2) heap per machine over " + N + " entities (used heap after full GCs)");
        long bare = perEntity(w -> w.dominion().createEntity(MARK));
        System.out.printf("  %-46s %6d B%n", "a bare Dominion entity (one shared component)", bare);
        for (Map.Entry<String, States<?>> e : machines.entrySet()) {
            States<?> s = e.getValue();
            long per = perEntity(w -> w.spawn(s.trait()));
            System.out.printf("  %-46s %6d B, %d B beyond a bare entity%n", e.getKey(), per, per - bare);
        }
        long gdx = perObject(() -> new DefaultStateMachine<Object, State<Object>>(MARK, Idle.INSTANCE));
        System.out.printf("  %-46s %6d B (JOL: %d B)%n", "gdx-ai 1.8.2 DefaultStateMachine", gdx,
                VM.current().sizeOf(new DefaultStateMachine<Object, State<Object>>(MARK, Idle.INSTANCE)));
        SpringMachines.check();
        for (int i = 0; i < 200; i++) {
            SpringMachines.flat3(); // its classes loaded and its caches filled before the count
            SpringMachines.guard();
        }
        System.out.printf("  %-46s %6d B%n", "Spring Statemachine 4.0.0, flat 3-state", perObject(SpringMachines::flat3, N_SPRING));
        System.out.printf("  %-46s %6d B%n", "Spring Statemachine 4.0.0, 3-level guard", perObject(SpringMachines::guard, N_SPRING));
    }

    /** A gdx-ai state shared by every machine, as an enum state would be. */
    enum Idle implements State<Object> {
        INSTANCE;

        @Override
        public void enter(Object o) {
        }

        @Override
        public void update(Object o) {
        }

        @Override
        public void exit(Object o) {
        }

        @Override
        public boolean onMessage(Object o, Telegram telegram) {
            return false;
        }
    }

    private static void owned(String name, States<?> machine) throws Exception {
        try (StateWorld world = StateWorld.create()) {
            Entity a = world.spawn(machine.trait());
            Entity b = world.spawn(machine.trait());
            world.step(1 / 60.0);
            StateRecord<?> ra = machine.read(a);
            StateRecord<?> rb = machine.read(b);
            Map<String, Long> byPart = new LinkedHashMap<>();
            IdentityHashMap<Object, Boolean> seen = new IdentityHashMap<>();
            long self = VM.current().sizeOf(ra);
            byPart.put("the record (face and snapshot in one)", self);
            seen.put(ra, true);
            for (Field f : fields(ra.getClass())) {
                Object va = f.get(ra);
                Object vb = f.get(rb);
                if (va instanceof Entity) {
                    byPart.merge("the entity (Dominion's IntEntity)", VM.current().sizeOf(va), Long::sum);
                    continue;
                }
                long n = walk(va, vb, seen);
                if (n > 0) {
                    byPart.merge(f.getName(), n, Long::sum); // its arrays, by field
                }
            }
            long total = 0;
            StringBuilder parts = new StringBuilder();
            for (Map.Entry<String, Long> p : byPart.entrySet()) {
                total += p.getValue();
                parts.append(String.format("%n      %-36s %5d B", p.getKey(), p.getValue()));
            }
            System.out.printf("  %-46s %6d B%s%n", name, total, parts);
        }
    }

    /** Bytes of the objects reachable from {@code a} that its twin {@code b} does not share. */
    private static long walk(Object a, Object b, IdentityHashMap<Object, Boolean> seen) throws Exception {
        if (a == null || a == b || a instanceof Class || a instanceof Enum || seen.containsKey(a)) {
            return 0;
        }
        seen.put(a, true);
        long n = VM.current().sizeOf(a);
        Class<?> c = a.getClass();
        if (c.isArray()) {
            if (!c.getComponentType().isPrimitive()) {
                Object[] xa = (Object[]) a;
                Object[] xb = b instanceof Object[] ob && ob.length == xa.length ? ob : null;
                for (int i = 0; i < xa.length; i++) {
                    n += walk(xa[i], xb == null ? null : xb[i], seen);
                }
            }
            return n;
        }
        if (c.getName().startsWith("java.")) {
            return n; // a JDK object: counted, not opened (no access without --add-opens)
        }
        for (Field f : fields(c)) {
            Object vb = b != null && b.getClass() == c ? f.get(b) : null;
            n += walk(f.get(a), vb, seen);
        }
        return n;
    }

    private static List<Field> fields(Class<?> c) {
        List<Field> out = new ArrayList<>();
        for (Class<?> k = c; k != null && k != Object.class; k = k.getSuperclass()) {
            for (Field f : k.getDeclaredFields()) {
                if (!Modifier.isStatic(f.getModifiers()) && !f.getType().isPrimitive()) {
                    f.setAccessible(true);
                    out.add(f);
                }
            }
        }
        return out;
    }

    interface Spawn {
        void spawn(StateWorld world);
    }

    /** The heap a world grows by per entity spawned, after a warm-up spawn. */
    private static long perEntity(Spawn spawn) {
        try (StateWorld world = StateWorld.create()) {
            for (int i = 0; i < 1_000; i++) {
                spawn.spawn(world); // the compositions, chunks and tables exist before the count
            }
            long before = used();
            for (int i = 0; i < N; i++) {
                spawn.spawn(world);
            }
            world.step(1 / 60.0);
            long after = used();
            long per = Math.round((after - before) / (double) N);
            java.lang.ref.Reference.reachabilityFence(world);
            return per;
        }
    }

    private static long perObject(java.util.function.Supplier<?> make) {
        return perObject(make, N);
    }

    private static long perObject(java.util.function.Supplier<?> make, int n) {
        Object[] keep = new Object[n];
        long before = used();
        for (int i = 0; i < n; i++) {
            keep[i] = make.get();
        }
        long after = used();
        java.lang.ref.Reference.reachabilityFence(keep);
        return Math.round((after - before) / (double) n);
    }

    private static long used() {
        for (int i = 0; i < 4; i++) {
            System.gc();
        }
        return ManagementFactory.getMemoryMXBean().getHeapMemoryUsage().getUsed();
    }
}

package dev.enginestates.samples;

import dev.dominion.ecs.api.Entity;
import dev.enginestates.Machine;
import dev.enginestates.devtools.Devtools;
import dev.enginestates.devtools.DevtoolsOptions;
import dev.enginestates.plain.StateMachine;
import dev.enginestates.ecs.EntityKey;
import dev.enginestates.ecs.StateRecord;
import dev.enginestates.ecs.StateWorld;
import dev.enginestates.ecs.States;

import java.io.IOException;
import java.io.InputStream;
import java.util.ArrayList;
import java.util.List;
import java.util.SplittableRandom;
import java.util.concurrent.locks.LockSupport;

import static dev.enginestates.samples.Guard.GuardEvent.BELL;
import static dev.enginestates.samples.Guard.GuardEvent.RESTART;
import static dev.enginestates.samples.Guard.GuardEvent.RESUME;
import static dev.enginestates.samples.Guard.GuardState.ANSWER;
import static dev.enginestates.samples.Guard.GuardState.REST;
import static dev.enginestates.samples.Guard.GuardState.WATCH;

/**
 * The samples' main job. First one siege and one guard of the {@code 003} document driven by
 * events, each move printed; then a headless room of the same machines: 1,000
 * guards patrol (watch 4 s, rest 10 s), a bell calls a hundred of them every ten seconds and
 * RESUME sends them back to where they were (deep history, the wait resumed); the siege is the
 * room's own machine (waiting, fight, breather, over). One minute of game time at 60 Hz,
 * printing once per game second how many guards are in each state (counted with tag queries)
 * and what a step cost.
 *
 * <p>Run: {@code mvn -q install -DskipTests && mvn -q -pl samples exec:java}
 *
 * <p>With {@code -Ddevtools.port=8080} the room is also served as a devtools page (printing its
 * address), and steps in real time so the page can be watched; the page stays up after the
 * minute until Enter is pressed. {@code -Ddevtools.write=true} lets the page set states by hand.
 */
public final class Main {
    private static final double DT = 1.0 / 60;
    private static final int GUARDS = 1_000;
    private static final int SECONDS = 60;

    private Main() {
    }

    /** Runs the room for a minute of game time and prints a line per game second. */
    public static void main(String[] args) {
        walkThrough();
        System.out.println();
        room();
    }

    /** The siege and the guard moved by events, one move per line (plain-object machines). */
    static void walkThrough() {
        System.out.println("== siege (003: Declaring a machine) ==");
        StateMachine<Siege> siege = new StateMachine<>(Siege.MACHINE);
        print(siege, "start");
        drive(siege, "START", "WAVE_HELD", "ALL_DOWN");
        System.out.println("  (ALL_DOWN is not taken in breather: only fight names it; breather's 12 s wait leads back to fight)");
        StateMachine<Siege> lost = new StateMachine<>(Siege.MACHINE);
        drive(lost, "START", "ALL_DOWN");
        System.out.println("  waves held: " + siege.context().wave + " and " + lost.context().wave);

        System.out.println();
        System.out.println("== guard (003: Waiting, deep history) ==");
        StateMachine<Guard> guard = new StateMachine<>(Guard.MACHINE);
        print(guard, "start");
        drive(guard, BELL, RESUME, BELL, RESTART);
        System.out.println("  bells answered: " + guard.context().bells);
        System.out.println();
    }

    /** 1,000 guards and a siege in a world, a minute of game time at 60 Hz; served as a devtools page with {@code -Ddevtools.port}. */
    static void room() {
        String port = System.getProperty("devtools.port");
        room(port, port != null, System.in);
    }

    /**
     * The room; with a devtools port (0 for any free one), also served as a devtools page, in real
     * time or not, staying up afterwards until a line (or the end) of {@code stay}.
     */
    static void room(String devtoolsPort, boolean realTime, InputStream stay) {
        States<Guard> guards = States.of(Guard.MACHINE);
        States<Siege> siege = States.of(Siege.MACHINE);
        SplittableRandom random = new SplittableRandom(7);
        try (StateWorld world = StateWorld.create("room"); Devtools devtools = serve(world, devtoolsPort)) {
            StateRecord<Siege> phases = world.add(siege);
            List<Entity> all = new ArrayList<>();
            for (int i = 0; i < GUARDS; i++) {
                StateRecord<Guard> g = guards.trait();
                Entity e = world.spawn(EntityKey.of("guard-" + i), g);
                g.setWaited(random.nextDouble() * 4); // guards start their watch at different moments
                all.add(e);
            }
            System.out.printf("%d guards and a siege, %d s of game time at 60 Hz%n", GUARDS, SECONDS);
            System.out.printf("%4s  %-9s %5s  %6s %6s %6s  %12s%n", "t", "siege", "waves", "watch", "rest", "answer",
                    "step mean");
            Class<?> watch = guards.is(WATCH);
            Class<?> rest = guards.is(REST);
            Class<?> answer = guards.is(ANSWER);
            long totalNanos = 0;
            long steps = 0;
            long start = System.nanoTime();
            for (int second = 1; second <= SECONDS; second++) {
                if (second == 2) {
                    siege.send(world, "START");
                }
                if (second % 20 == 0 && phases.matches("fight")) {
                    siege.send(world, "WAVE_HELD");
                }
                if (second == 55) {
                    siege.send(world, "ALL_DOWN");
                }
                if (second % 10 == 0) {
                    for (int k = 0; k < 100; k++) {
                        guards.send(all.get(random.nextInt(GUARDS)), BELL);
                    }
                }
                if (second % 10 == 3) {
                    for (Entity e : world.query(answer)) {
                        guards.send(e, RESUME);
                    }
                }
                long secondNanos = 0;
                for (int i = 0; i < 60; i++) {
                    long t0 = System.nanoTime();
                    world.step(DT);
                    secondNanos += System.nanoTime() - t0;
                    if (devtools != null) {
                        devtools.publish();
                        if (realTime) {
                            waitUntil(start + Math.round((steps + i + 1) * DT * 1e9));
                        }
                    }
                }
                totalNanos += secondNanos;
                steps += 60;
                System.out.printf("%4d  %-9s %5d  %6d %6d %6d  %9.1f µs%n", second, phases.value(), phases.context().wave,
                        world.query(watch).count(), world.query(rest).count(), world.query(answer).count(),
                        secondNanos / 60 / 1000.0);
            }
            System.out.printf("%d steps, mean %.1f µs per step for %d guards and a siege%n", steps, totalNanos / (double) steps / 1000.0,
                    GUARDS);
            if (devtools != null) {
                System.out.println("devtools: the room has run its minute; the page stays up until you press Enter");
                linger(devtools, stay);
            }
        }
    }

    /** The devtools page for the room, or {@code null} without a port. */
    private static Devtools serve(StateWorld world, String port) {
        if (port == null) {
            return null;
        }
        int p;
        try {
            p = Integer.parseInt(port.strip());
        } catch (NumberFormatException e) {
            throw new IllegalArgumentException("-Ddevtools.port=" + port + ": expected a TCP port, such as 8080 (0 for any free one)");
        }
        boolean write = Boolean.getBoolean("devtools.write");
        Devtools devtools = Devtools.serve(world, DevtoolsOptions.onPort(p).writable(write));
        System.out.println("devtools: " + devtools.address() + (write ? " (the page may set states by hand)"
                : " (read-only; -Ddevtools.write=true lets the page set states by hand)"));
        return devtools;
    }

    private static void waitUntil(long nanoTime) {
        for (long left = nanoTime - System.nanoTime(); left > 0; left = nanoTime - System.nanoTime()) {
            LockSupport.parkNanos(left);
        }
    }

    /** Keeps publishing (the page's hand-set states are applied on this, the world's, thread) until a line or the end of {@code in}. */
    private static void linger(Devtools devtools, InputStream in) {
        java.util.concurrent.CountDownLatch enter = new java.util.concurrent.CountDownLatch(1);
        Thread reader = new Thread(() -> {
            try {
                for (int c = in.read(); c >= 0 && c != '\n'; c = in.read()) {
                    // until Enter, or the end of the input
                }
            } catch (IOException e) {
                // no input to wait on: stop now
            }
            enter.countDown();
        }, "devtools-enter");
        reader.setDaemon(true);
        reader.start();
        try {
            while (!enter.await(50, java.util.concurrent.TimeUnit.MILLISECONDS)) {
                devtools.publish();
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    private static void drive(StateMachine<?> machine, String... events) {
        for (String event : events) {
            String before = json(machine.value());
            boolean taken = machine.send(event);
            System.out.printf("  %-10s %-20s -> %s%s%n", event, before, json(machine.value()), taken ? "" : "  (not taken)");
        }
    }

    /** The typed guard's events, by constant. */
    private static void drive(StateMachine<?> machine, Enum<?>... events) {
        for (Enum<?> event : events) {
            String before = json(machine.value());
            boolean taken = machine.send(event);
            System.out.printf("  %-10s %-20s -> %s%s%n", event, before, json(machine.value()), taken ? "" : "  (not taken)");
        }
    }

    private static void print(StateMachine<?> machine, String what) {
        System.out.printf("  %-10s %s%n", what, json(machine.value()));
    }

    /** A state value as XState prints it: "fight", {"patrol": "watch"}. */
    static String json(Object value) {
        if (value instanceof java.util.Map) {
            StringBuilder sb = new StringBuilder("{");
            for (java.util.Map.Entry<?, ?> e : ((java.util.Map<?, ?>) value).entrySet()) {
                sb.append(sb.length() > 1 ? ", " : "").append('"').append(e.getKey()).append("\": ").append(json(e.getValue()));
            }
            return sb.append('}').toString();
        }
        return "\"" + value + "\"";
    }

    private static String describe(Machine<?> m) {
        return m.id() + " " + m.statePaths();
    }
}

package dev.enginestates.samples;

import dev.dominion.ecs.api.Entity;
import dev.enginestates.devtools.Devtools;
import dev.enginestates.devtools.DevtoolsOptions;
import dev.enginestates.plain.StateMachine;
import dev.enginestates.ecs.EntityKey;
import dev.enginestates.ecs.StateRecord;
import dev.enginestates.ecs.StateWorld;
import dev.enginestates.ecs.States;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.SplittableRandom;
import java.util.concurrent.locks.LockSupport;

import static dev.enginestates.samples.Guard.GuardEvent.BELL;
import static dev.enginestates.samples.Guard.GuardEvent.RESTART;
import static dev.enginestates.samples.Guard.GuardEvent.RESUME;

/**
 * The samples' main job. First a siege and a guard on plain objects, driven by events, each move
 * printed; then a headless room of the same machines on entities: 1,000 guards patrol (watch
 * 4 s, rest 10 s), a bell calls a hundred of them every ten seconds and RESUME sends them back
 * to where they were (deep history, the wait resumed); the siege is the room's own machine
 * (waiting, fight, breather, over). The room runs one minute of game time at 60 Hz unmeasured
 * first, so that the JIT has compiled the step, then the same minute again, printing once per
 * game second how many guards are in each state (counted with tag queries) and what a step cost.
 *
 * <p>Run: {@code mvn -q install -DskipTests && mvn -q -pl samples exec:java}
 *
 * <p>With {@code -Ddevtools.port=8080} the room is also served as a devtools page (printing its
 * address), and steps in real time so the page can be watched; the page stays up after the
 * minute until Enter is pressed. {@code -Ddevtools.write=true} lets the page set states by hand.
 *
 * <p>With {@code -Dguard.file=samples/guard.json} the guards are read from that XState JSON file
 * (the same guard, written as JSON), the room steps in real time, and each edit saved to the
 * file is taken between two steps ({@link HotReload}): the guards keep their states and waits
 * and run the edited definition from then on. An edit the room cannot take is printed and the
 * room keeps the definition it had.
 */
public final class Main {
    private static final double DT = 1.0 / 60;
    private static final int GUARDS = 1_000;
    private static final int SECONDS = 60;

    private Main() {
    }

    /** Walks a siege and a guard through their events, then runs the room for a minute of game time, a line per game second. */
    public static void main(String[] args) {
        walkThrough();
        System.out.println();
        room();
    }

    /** The siege and the guard moved by events, one move per line (plain-object machines). */
    static void walkThrough() {
        System.out.println("== a siege on a plain object: events, a timed breather, a counter in the context ==");
        System.out.println("  each line: the event sent, the state before -> the state after");
        StateMachine<Siege> siege = new StateMachine<>(Siege.MACHINE);
        print(siege, "start");
        drive(siege, "START", "WAVE_HELD", "ALL_DOWN");
        System.out.println("  (ALL_DOWN is not taken in breather: only fight names it; breather's 12 s wait leads back to fight)");
        System.out.println("  a second siege, lost in its first wave: ALL_DOWN during a fight ends it");
        StateMachine<Siege> lost = new StateMachine<>(Siege.MACHINE);
        drive(lost, "START", "ALL_DOWN");
        System.out.println("  waves held: " + siege.context().wave + " and " + lost.context().wave);

        System.out.println();
        System.out.println("== a guard on a plain object: nested states, an interruption, deep history ==");
        System.out.println("  the bell interrupts his patrol, RESUME brings him back to the state he left, RESTART starts the patrol over");
        StateMachine<Guard> guard = new StateMachine<>(Guard.MACHINE);
        print(guard, "start");
        drive(guard, BELL, RESUME, BELL, RESTART);
        System.out.println("  bells answered: " + guard.context().bells);
        System.out.println();
    }

    /**
     * 1,000 guards and a siege in a world, a minute of game time at 60 Hz; served as a devtools page
     * with {@code -Ddevtools.port}, its guards read and reloaded from {@code -Dguard.file}.
     */
    static void room() {
        String port = System.getProperty("devtools.port");
        String guardFile = System.getProperty("guard.file");
        room(port, guardFile == null ? null : Path.of(guardFile.strip()), port != null || guardFile != null, System.in);
    }

    /** The room with the guards of {@link Guard#MACHINE}, as {@link #room(String, Path, boolean, InputStream)} without a file. */
    static void room(String devtoolsPort, boolean realTime, InputStream stay) {
        room(devtoolsPort, null, realTime, stay);
    }

    /**
     * The room; with a devtools port (0 for any free one), also served as a devtools page, in real
     * time or not, staying up afterwards until a line (or the end) of {@code stay}. A first room,
     * neither printed nor served, runs the same minute before, so that the means printed are those
     * of compiled code. With a {@code guardFile}, the guards are that file's machine, and the file
     * is reloaded between steps when it changes.
     */
    static void room(String devtoolsPort, Path guardFile, boolean realTime, InputStream stay) {
        System.out.printf("== a room on the world: %d guards on entities, a siege, timed waits, tag queries ==%n", GUARDS);
        double warmUp = warmUp();
        System.out.printf("warm-up: a first room ran the same %d s unmeasured, %.1f µs a step on average while the JIT compiled the"
                + " step%n", SECONDS, warmUp);
        try (StateWorld world = StateWorld.create("room"); Devtools devtools = serve(world, devtoolsPort);
                HotReload<Guard> reload = watch(world, guardFile)) {
            Room room = new Room(world, reload == null ? States.of(Guard.MACHINE) : reload.current());
            System.out.printf("%d guards and a siege, %d s of game time at 60 Hz%n", GUARDS, SECONDS);
            if (reload != null) {
                System.out.println("hot reload: the guards run " + reload.file() + "; save an edit to it (a wait's seconds, a"
                        + " new state) and the room takes it between two steps");
            }
            System.out.println("each line: one game second, the siege's state and waves held, guards in each state (tag queries),"
                    + " the mean and the slowest of its 60 steps in wall time");
            System.out.println("(a lone slow step among fast ones is most often the JVM or the computer pausing the program,"
                    + " not the room's work)");
            System.out.printf("%4s  %-9s %5s  %6s %6s %6s  %12s %12s%n", "t", "siege", "waves", "watch", "rest", "answer",
                    "step mean", "slowest");
            long[] stepNanos = new long[SECONDS * 60];
            long totalNanos = 0;
            int steps = 0;
            long start = System.nanoTime();
            for (int second = 1; second <= SECONDS; second++) {
                room.script(second);
                long secondNanos = 0;
                long slowest = 0;
                for (int i = 0; i < 60; i++) {
                    long t0 = System.nanoTime();
                    world.step(DT);
                    long took = System.nanoTime() - t0;
                    stepNanos[steps + i] = took;
                    secondNanos += took;
                    slowest = Math.max(slowest, took);
                    if (devtools != null) {
                        devtools.publish();
                    }
                    if (reload != null) {
                        HotReload.Outcome outcome = reload.reloadIfChanged();
                        if (outcome.kind() != HotReload.Kind.UNCHANGED) {
                            System.out.println("hot reload: " + outcome.message());
                        }
                        room.use(reload.current());
                    }
                    if (realTime && (devtools != null || reload != null)) {
                        waitUntil(start + Math.round((steps + i + 1) * DT * 1e9));
                    }
                }
                totalNanos += secondNanos;
                steps += 60;
                System.out.printf("%4d  %-9s %5d  %6s %6s %6s  %9.1f µs %9.1f µs%n", second, room.phases.value(),
                        room.phases.context().wave, room.count(room.watch), room.count(room.rest), room.count(room.answer),
                        secondNanos / 60 / 1000.0, slowest / 1000.0);
            }
            Arrays.sort(stepNanos);
            System.out.printf("%d steps, mean %.1f µs per step (median %.1f µs) for %d guards and a siege, the events sent"
                    + " included%n", steps, totalNanos / (double) steps / 1000.0, stepNanos[steps / 2] / 1000.0, GUARDS);
            if (devtools != null) {
                System.out.println("devtools: the room has run its minute; the page stays up until you press Enter");
                linger(devtools, stay);
            }
        }
    }

    /** Runs the room's minute once in a world of its own, unprinted; returns its mean step in µs. */
    private static double warmUp() {
        try (StateWorld world = StateWorld.create("warm-up")) {
            Room room = new Room(world, States.of(Guard.MACHINE));
            long nanos = 0;
            for (int second = 1; second <= SECONDS; second++) {
                room.script(second);
                for (int i = 0; i < 60; i++) {
                    long t0 = System.nanoTime();
                    world.step(DT);
                    nanos += System.nanoTime() - t0;
                }
            }
            return nanos / (SECONDS * 60.0) / 1000.0;
        }
    }

    /**
     * The room's machines on a world and the events the minute sends them, the same in every run.
     * The guards are named by paths, which {@link Guard#MACHINE} and its JSON share.
     */
    private static final class Room {
        final States<Siege> siege = States.of(Siege.MACHINE);
        final SplittableRandom random = new SplittableRandom(7);
        final StateWorld world;
        final StateRecord<Siege> phases;
        final List<Entity> all = new ArrayList<>();
        States<Guard> guards;
        // tags of the guards' definition, null for a state a reloaded definition no longer has
        Class<?> watch;
        Class<?> rest;
        Class<?> answer;

        Room(StateWorld world, States<Guard> guards) {
            this.world = world;
            use(guards);
            phases = world.add(siege);
            for (int i = 0; i < GUARDS; i++) {
                StateRecord<Guard> g = guards.trait();
                Entity e = world.spawn(EntityKey.of("guard-" + i), g);
                g.setWaited(random.nextDouble() * 4); // guards start their watch at different moments
                all.add(e);
            }
        }

        /** What happens at the start of game second {@code second} (from 1): the siege's events, the bells and RESUME. */
        void script(int second) {
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
                    guards.send(all.get(random.nextInt(GUARDS)), "BELL");
                }
            }
            if (second % 10 == 3 && answer != null) {
                for (Entity e : world.query(answer)) {
                    guards.send(e, "RESUME");
                }
            }
        }

        /** Counts and sends with {@code definition} from now on: after a reload, the tags are the edited definition's. */
        void use(States<Guard> definition) {
            if (definition == guards) {
                return;
            }
            guards = definition;
            watch = tag("PATROL.WATCH");
            rest = tag("PATROL.REST");
            answer = tag("ANSWER");
        }

        private Class<?> tag(String path) {
            try {
                return guards.is(path);
            } catch (dev.enginestates.declare.MachineException e) {
                return null; // an edit removed or renamed it while no guard was in it
            }
        }

        /** The guards in a state, counted with its tag; "-" when the definition has no such state. */
        String count(Class<?> tag) {
            return tag == null ? "-" : Integer.toString(world.query(tag).count());
        }
    }

    /** The reloader of the guards' file, or {@code null} without one. */
    private static HotReload<Guard> watch(StateWorld world, Path file) {
        if (file == null) {
            return null;
        }
        try {
            return HotReload.start(world, file, Guard.fromJson());
        } catch (IOException e) {
            throw new UncheckedIOException("-Dguard.file=" + file + ": cannot read or watch the file; expected an XState JSON"
                    + " file such as samples/guard.json", e);
        } catch (dev.enginestates.declare.MachineException e) {
            throw new IllegalArgumentException("-Dguard.file=" + file + ": the file is not a guard the room can start with: "
                    + e.getMessage(), e);
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
}

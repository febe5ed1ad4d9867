package dev.enginestates.samples;

import dev.dominion.ecs.api.Entity;
import dev.enginestates.ecs.EntityKey;
import dev.enginestates.ecs.StateRecord;
import dev.enginestates.ecs.StateWorld;
import dev.enginestates.ecs.States;

import java.util.Locale;

/**
 * A door opening and closing over time, the builder style's smallest example ({@link BuilderDoorSample}:
 * Closed, Opening for 0.75 s, Open, Closing for 0.75 s, moved by OpenRequested and CloseRequested),
 * written as an XState-style ECS machine: the two motions are waits, the requests are events,
 * and the builder style's {@code progress} (time in state over its duration) is
 * {@code waited() / DOOR_SECONDS}.
 *
 * <p>Two things the builder-style door leaves to its handlers are states' rules here: an open
 * door closes by itself after {@link #HOLD_OPEN_SECONDS} (OPEN while it is open starts that
 * over, a transition with {@code reenter}), and a closing door reopens while something stands
 * in the doorway (a {@code when} rule reading the door's {@link Blocked} component through
 * the holder).
 *
 * <p>Run: {@code mvn -q -pl samples exec:java -Dexec.mainClass=dev.enginestates.samples.DoorSample}
 */
public final class DoorSample {
    /** Seconds the door takes to open or to close (the builder-style door's {@code Duration(0.75f)}). */
    public static final double DOOR_SECONDS = 0.75;
    /** Seconds an open door stays open before it closes by itself. */
    public static final double HOLD_OPEN_SECONDS = 3;

    private DoorSample() {
    }

    /** The door's context: how many times it opened. */
    public static final class Door {
        /** Times the door finished opening. */
        public int opened;
    }

    /** Something stands in the doorway (a game's collision system adds and removes it). */
    public static final class Blocked {
    }

    /** The door machine. */
    public static final States<Door> DOOR = States.define("door", Door::new, m -> m
            .initial("closed")
            .state("closed", s -> s.on("OPEN", "opening"))
            .state("opening", s -> s
                    .waitFor(DOOR_SECONDS, t -> t.target("open").action((d, e) -> d.opened++))
                    .on("CLOSE", "closing"))
            .state("open", s -> s
                    .waitFor(HOLD_OPEN_SECONDS, "closing")
                    .on("OPEN", t -> t.target("open").reenter())
                    .on("CLOSE", "closing"))
            .state("closing", s -> s
                    .waitFor(DOOR_SECONDS, "closed")
                    .when((d, door) -> door.has(Blocked.class), "opening")
                    .on("OPEN", "opening")));

    /** The builder style's progress: 0 to 1 through the current motion, 1 when it rests. */
    public static double progress(StateRecord<Door> door) {
        return door.matches("opening") || door.matches("closing") ? Math.max(0, Math.min(1, door.waited() / DOOR_SECONDS)) : 1;
    }

    /** Opens the door, blocks it while it closes, and lets it close; prints every quarter second. */
    public static void main(String[] args) {
        double dt = 1.0 / 60;
        try (StateWorld world = StateWorld.create("hall")) {
            Entity door = world.spawn(EntityKey.of("door"), DOOR.trait());
            StateRecord<Door> r = DOOR.read(door);
            System.out.println("    t  input      state     progress  left");
            for (int step = 0; step <= 10 * 60; step++) {
                String input = "";
                if (step == 30) {
                    input = DOOR.send(door, "OPEN") ? "OPEN" : "OPEN (no)";
                } else if (step == 4 * 60 + 30) {
                    door.add(new Blocked()); // someone steps into the closing door
                    input = "blocked";
                } else if (step == 5 * 60) {
                    door.removeType(Blocked.class);
                    input = "clear";
                }
                if (step % 15 == 0 || !input.isEmpty()) {
                    System.out.printf(Locale.ROOT, "%5.2f  %-9s  %-8s  %8.2f  %4.2f%n", world.time(), input, r.value(), progress(r),
                            r.secondsLeft());
                }
                world.step(dt);
            }
            System.out.printf(Locale.ROOT, "the door opened %d times and is %s%n", r.context().opened, r.value());
        }
    }
}

package dev.enginestates.samples;

import dev.dominion.ecs.api.Entity;
import dev.enginestates.ecs.EntityKey;
import dev.enginestates.ecs.StateRecord;
import dev.enginestates.ecs.StateWorld;
import dev.enginestates.ecs.States;
import dev.enginestates.fsm.AIContext;
import dev.enginestates.fsm.State;
import dev.enginestates.fsm.StateBehavior;
import dev.enginestates.fsm.StateMachineBuilder;
import dev.enginestates.fsm.StateMachineDefinition;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * Doors in the builder style, its smallest example: an annotated
 * {@code DoorBehavior} whose handlers return the next state's name, with {@code Opening} and
 * {@code Closing} lasting 0.75 s, on entities of a {@link StateWorld}: each door's state is a tag,
 * so the hall counts its doors in motion with a query.
 *
 * <pre>
 * Closed ──[openRequested]──▶ Opening ──[progress &gt;= 1]──▶ Open ──[closeRequested]──▶ Closing ──[progress &gt;= 1]──▶ Closed
 * </pre>
 *
 * <p>The clock is the builder style's float32: at 60 Hz, 45 ticks of {@code 1/60f} add up to
 * {@code 0.74999994f}, a hair short of 0.75, so a door takes 46 ticks to open, not 45. The
 * tick that leaves {@code Closed} does not count toward {@code Opening}: its time starts at 0.
 * {@link DoorSample} is the same door as an XState-style machine, {@link PolledDoorSample} in
 * the polled style.
 *
 * <p>Run: {@code mvn -q -pl samples exec:java -Dexec.mainClass=dev.enginestates.samples.BuilderDoorSample}
 */
public final class BuilderDoorSample {
    /** Seconds a door takes to open or to close (the state's {@code Duration(0.75f)}). */
    public static final float SWING_SECONDS = 0.75f;

    private BuilderDoorSample() {
    }

    /** The door's context: the contract comes from AIContext, the requests are the game's. */
    public static final class DoorStateContext extends AIContext {
        /** Someone asked the door to open (the game's interaction system sets it). */
        public boolean openRequested;
        /** Someone asked the door to close. */
        public boolean closeRequested;
    }

    /** The door's handlers, one per state. */
    @StateBehavior("door")
    public static final class DoorBehavior {
        /** Closed until asked to open. */
        @State(value = "Closed", initial = true, to = "Opening")
        public String closed(DoorStateContext ctx, float dt) {
            return ctx.openRequested ? "Opening" : null;
        }

        /** Opening until its 0.75 s have passed. */
        @State(value = "Opening", to = "Open")
        public String opening(DoorStateContext ctx, float dt) {
            return ctx.progress() >= 1f ? "Open" : null;
        }

        /** Open until asked to close. */
        @State(value = "Open", to = "Closing")
        public String open(DoorStateContext ctx, float dt) {
            return ctx.closeRequested ? "Closing" : null;
        }

        /** Closing until its 0.75 s have passed. */
        @State(value = "Closing", to = "Closed")
        public String closing(DoorStateContext ctx, float dt) {
            return ctx.progress() >= 1f ? "Closed" : null;
        }
    }

    /** The door's definition, shared by every door (the factory serves {@code trait()} and restores). */
    public static final StateMachineDefinition<DoorStateContext> DOOR = new StateMachineBuilder<DoorStateContext>("door",
            DoorStateContext::new)
            .registerHandlers(DoorBehavior.class)
            .configureState("Opening").duration(SWING_SECONDS)
            .configureState("Closing").duration(SWING_SECONDS)
            .build();

    /** The door on entities: a record component, and a tag per state. */
    public static final States<DoorStateContext> DOORS = States.of(DOOR);

    /** Asks a door to open (and no longer to close). */
    public static void requestOpen(StateRecord<DoorStateContext> door) {
        door.context().openRequested = true;
        door.context().closeRequested = false;
    }

    /** Asks a door to close (and no longer to open). */
    public static void requestClose(StateRecord<DoorStateContext> door) {
        door.context().openRequested = false;
        door.context().closeRequested = true;
    }

    /** Three doors of a hall opened and closed at 60 Hz; prints every change, with the hall's counts by tag query. */
    public static void main(String[] args) {
        float dt = 1f / 60;
        try (StateWorld world = StateWorld.create("hall")) {
            Map<String, Entity> doors = new LinkedHashMap<>();
            for (String name : List.of("north", "east", "south")) {
                doors.put(name, world.spawn(EntityKey.of(name), DOORS.trait()));
            }
            Map<String, String> last = new LinkedHashMap<>();
            Map<String, Long> enteredAt = new LinkedHashMap<>();
            doors.forEach((name, e) -> {
                last.put(name, DOORS.read(e).state());
                enteredAt.put(name, 0L);
            });
            System.out.println("    t  step  door   change                       moving  open");
            for (int step = 1; step <= 5 * 60; step++) {
                String ask = switch (step) {
                    case 30 -> "north: open, please";
                    case 50 -> "east: open, please";
                    case 150 -> "north: close, please";
                    case 160 -> "east: close, please";
                    default -> null;
                };
                if (ask != null) {
                    StateRecord<DoorStateContext> door = DOORS.read(doors.get(ask.substring(0, ask.indexOf(':'))));
                    if (ask.contains("open")) {
                        requestOpen(door);
                    } else {
                        requestClose(door);
                    }
                    System.out.printf(Locale.ROOT, "%5.2f  %4d  %s%n", world.time(), world.steps(), ask);
                }
                world.step(dt);
                for (Map.Entry<String, Entity> d : doors.entrySet()) {
                    StateRecord<DoorStateContext> r = DOORS.read(d.getValue());
                    String now = r.state();
                    if (!now.equals(last.get(d.getKey()))) {
                        long ticks = world.steps() - enteredAt.get(d.getKey());
                        String change = last.get(d.getKey()) + " > " + now
                                + (r.previous().equals("Opening") || r.previous().equals("Closing") ? " (" + ticks + " ticks)" : "");
                        System.out.printf(Locale.ROOT, "%5.2f  %4d  %-5s  %-27s  %6d  %4d%n", world.time(), world.steps(), d.getKey(),
                                change, moving(world), world.query(DOORS.is("Open")).count());
                        last.put(d.getKey(), now);
                        enteredAt.put(d.getKey(), world.steps());
                    }
                }
            }
            System.out.printf(Locale.ROOT, "after %.0f s: %d closed, %d open, %d moving; a swing takes 46 ticks at 60 Hz"
                    + " (45 x 1/60f = %sf < 0.75f)%n", world.time(), world.query(DOORS.is("Closed")).count(),
                    world.query(DOORS.is("Open")).count(), moving(world), fortyFiveTicks());
        }
    }

    /** Doors opening or closing, counted by their tags. */
    public static int moving(StateWorld world) {
        return world.query(DOORS.is("Opening")).count() + world.query(DOORS.is("Closing")).count();
    }

    /** What 45 float additions of 1/60 s make. */
    static float fortyFiveTicks() {
        float t = 0f;
        for (int i = 0; i < 45; i++) {
            t += 1f / 60;
        }
        return t;
    }
}

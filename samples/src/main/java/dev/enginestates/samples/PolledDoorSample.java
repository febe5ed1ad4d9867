package dev.enginestates.samples;

import dev.enginestates.StatesDef;
import dev.enginestates.plain.StateMachine;

import java.util.Locale;

/**
 * A door in the polled style, with {@code on}, {@code after}, {@code update} and
 * {@code '$back'}. {@link DoorSample} is the builder-style door of {@link BuilderDoorSample} as
 * an XState-style ECS machine.
 *
 * <pre>
 * closed ──use [unlocked]──▶ opening ──(update: fully open)──▶ open ──after 3 s──▶ closing ──(update: shut)──▶ closed
 *                            opening ◀──────────────use──────────────────────────── closing
 *                            opening / closing ──[blocked]──▶ stopped ──(update: clear)──▶ $back
 * open ──use──▶ closing
 * </pre>
 *
 * <p>The swing is {@code update} moving {@code openness}, not an {@code after}: a door used
 * while it closes turns back from where it is, and takes only as long as the way back.
 * Something in the doorway stops the swing; when it clears, {@code '$back'} resumes the swing
 * that was interrupted, opening or closing, from where it stopped. A locked door handles
 * {@code use} and stays shut: the handler returns no name.
 *
 * <p>Run: {@code mvn -q -pl samples exec:java -Dexec.mainClass=dev.enginestates.samples.PolledDoorSample}
 */
public final class PolledDoorSample {
    /** Seconds of a full swing, closed to open or back. */
    public static final double SWING_SECONDS = 0.75;
    /** Seconds an open door stays open before it closes by itself. */
    public static final double HOLD_OPEN_SECONDS = 3;

    private PolledDoorSample() {
    }

    /** The door's context. */
    public static final class Door {
        /** 0 shut, 1 fully open: what the renderer draws. */
        public double openness;
        /** A locked door does not open. */
        public boolean locked;
        /** Something stands in the doorway (written by the game's collision system). */
        public boolean blocked;
    }

    /** The door table, shared by every door. */
    public static final StatesDef<Door> DOOR = StatesDef.define("polled-door", Door::new, d -> d
            .initial("closed")
            .state("closed", s -> s
                    .enter((door, from) -> door.openness = 0)
                    .on("use", (door, args) -> door.locked ? null : "opening"))
            .state("opening", s -> s
                    .to("stopped", (door, t) -> door.blocked)
                    .update((door, dt, t) -> swing(door, dt / SWING_SECONDS) ? "open" : null)
                    .on("use", "closing"))
            .state("open", s -> s
                    .enter((door, from) -> door.openness = 1)
                    .after(HOLD_OPEN_SECONDS, "closing")
                    .on("use", "closing"))
            .state("closing", s -> s
                    .to("stopped", (door, t) -> door.blocked)
                    .update((door, dt, t) -> swing(door, -dt / SWING_SECONDS) ? "closed" : null)
                    .on("use", "opening"))
            .state("stopped", s -> s.update((door, dt, t) -> door.blocked ? null : "$back")));

    /**
     * Moves the door by a share of its swing and tells whether it reached the end. "Reached"
     * allows a hair: 45 steps of 1/60 s make 0.75 s only up to rounding.
     */
    static boolean swing(Door door, double by) {
        door.openness = Math.max(0, Math.min(1, door.openness + by));
        return by > 0 ? door.openness >= 1 - 1e-9 : door.openness <= 1e-9;
    }

    /** A locked door is tried, unlocked and opened; it closes on someone, waits for them, and is turned back once. */
    public static void main(String[] args) {
        double dt = 1.0 / 60;
        Door door = new Door();
        door.locked = true;
        StateMachine<Door> fsm = new StateMachine<>(DOOR, door);
        fsm.on("change", (to, from) -> System.out.printf(Locale.ROOT, "%5.2f  %-8s > %-8s  openness %.2f%n", fsm.totalTime(), from, to,
                door.openness));
        System.out.println("    t  what");
        for (int step = 0; step < 9 * 60; step++) {
            if (step == 30 || step == 60 || step == 7 * 60 || step == 7 * 60 + 18) {
                door.locked = step < 60;
                System.out.printf(Locale.ROOT, "%5.2f  use%s%n", fsm.totalTime(), door.locked ? " (locked: handled, the door stays shut)" : "");
                fsm.send("use");
            } else if (step == 5 * 60 || step == 5 * 60 + 30) {
                door.blocked = step == 5 * 60;
                System.out.printf(Locale.ROOT, "%5.2f  %s%n", fsm.totalTime(), door.blocked ? "someone steps into the doorway" : "the doorway is clear");
            }
            fsm.step(dt);
        }
        System.out.printf(Locale.ROOT, "the door is %s, openness %.2f%n", fsm.state(), door.openness);
    }
}

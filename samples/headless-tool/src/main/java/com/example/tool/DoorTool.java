package com.example.tool;

import dev.enginestates.StatesDef;
import dev.enginestates.plain.StateMachine;

/** A headless tool: a polled door on a plain object, stepped at 10 Hz, with only engine-states-core on its class path. */
public final class DoorTool {
    /** The door the machine reads: the tool sets {@code pushed}. */
    public static final class Door {
        public boolean pushed;
    }

    /** Shut until pushed; open for two seconds, then shut again. */
    public static final StatesDef<Door> DOOR = StatesDef.define("door", Door::new, d -> d
            .state("shut", s -> s.to("open", (door, t) -> door.pushed))
            .state("open", s -> s
                    .enter((door, from) -> door.pushed = false)
                    .to("shut", (door, t) -> t >= 2)));

    private DoorTool() {
    }

    /** Pushes the door, then steps it for {@code seconds} at 10 Hz, and returns its state. */
    public static String run(double seconds) {
        StateMachine<Door> door = new StateMachine<>(DOOR, new Door());
        door.context().pushed = true;
        for (int i = 0; i < Math.round(seconds * 10); i++) {
            door.step(0.1);
        }
        return door.state();
    }

    public static void main(String[] args) {
        System.out.println("after 1 s: " + run(1) + ", after 3 s: " + run(3));
    }
}

package dev.enginestates.scxml;

import dev.enginestates.declare.Event;
import dev.enginestates.declare.Self;

/** The engine's queue operations an imported machine's code uses (issue 17): raise, sends to itself, cancel, In. */
final class Engine {
    private Engine() {
    }

    static void raise(Self self, Event event) {
        self.raise(event);
    }

    static void sendSelf(Self self, Event event, double delaySeconds, String id) {
        self.sendSelf(event, delaySeconds, id);
    }

    static void cancel(Self self, String id) {
        self.cancel(id);
    }

    /** Whether the state (an engine path) is active. */
    static boolean isIn(Self self, String path) {
        return self.isIn(path);
    }
}

package dev.enginestates.samples.docs;

import dev.enginestates.MachineListener;
import dev.enginestates.ecs.EntityKey;
import dev.enginestates.ecs.Rewind;
import dev.enginestates.ecs.StateRecord;
import dev.enginestates.ecs.StateWorld;
import dev.enginestates.ecs.States;
import dev.enginestates.io.Saves;
import dev.enginestates.samples.Guard;

import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.List;

/**
 * The rewind page's code (docs/rewind.md): a rollback client that steps ahead with the inputs it
 * has, then goes back and steps again when a late one arrives, and ends as a world that had every
 * input on time.
 */
public final class RollbackClient {
    private RollbackClient() {
    }

    static final States<Guard> GUARD = States.of(Guard.MACHINE);

    /** The guard's context: the bells it answered. */
    static final Rewind.ContextBytes<Guard> BELLS = new Rewind.ContextBytes<>() {
        @Override
        public void write(Guard guard, ByteBuffer out) {
            out.putInt(guard.bells);
        }

        @Override
        public Guard read(Guard guard, ByteBuffer in) {
            guard.bells = in.getInt();
            return guard;
        }
    };

    /** An input of a tick: the bell rings for one guard, found by its key. */
    static Rewind.Input bell(String key) {
        return world -> GUARD.send(world.entity(key), Guard.GuardEvent.BELL);
    }

    /** What a client saw and how it ended, beside a world that had the bell on time. */
    public record Seen(String clientBefore, String clientAfter, String onTime, List<String> heard, String checkpointOfTick3) {
    }

    /** Runs a client that hears of a bell rung at tick 3 only at tick 8, and a world that heard it on time. */
    public static Seen run() {
        try (StateWorld client = StateWorld.create(); StateWorld onTime = StateWorld.create()) {
            client.spawn(EntityKey.of("guard-1"), GUARD.trait());
            onTime.spawn(EntityKey.of("guard-1"), GUARD.trait());
            Rewind rewind = Rewind.keep(client, 10);
            rewind.contexts(GUARD, BELLS);
            List<String> heard = new ArrayList<>();
            client.addListener(new MachineListener<StateRecord<?>>() {
                @Override
                public void stateChanged(StateRecord<?> machine, String from, String to, String event) {
                    heard.add(from + " -> " + to + " (" + event + ")");
                }
            });

            for (int tick = 0; tick < 8; tick++) {
                rewind.step(1 / 60.0);                          // tick 3's bell has not arrived yet
                if (tick == 3) {
                    GUARD.send(onTime.entity("guard-1"), Guard.GuardEvent.BELL);
                }
                onTime.step(1 / 60.0);
            }
            String before = GUARD.read(client.entity("guard-1")).state();

            rewind.input(3, bell("guard-1"));                  // the bell of tick 3 arrives late
            rewind.resimulate();                                // back to tick 3, then ticks 3 to 7 again

            String checkpoint = Saves.of(GUARD).checkpoint(rewind, 3);
            return new Seen(before, GUARD.read(client.entity("guard-1")).state(),
                    GUARD.read(onTime.entity("guard-1")).state(), heard, checkpoint);
        }
    }
}

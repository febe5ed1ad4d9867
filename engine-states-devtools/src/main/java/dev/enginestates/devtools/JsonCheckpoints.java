package dev.enginestates.devtools;

import dev.enginestates.ecs.StateWorld;
import dev.enginestates.ecs.States;
import dev.enginestates.io.Saves;

import java.util.List;

/**
 * The first {@link TickSource}: a JSON checkpoint ({@link Saves#checkpoint}) of every machine the
 * world has met, made again when the world meets a new one.
 */
final class JsonCheckpoints implements TickSource {
    private Saves saves;
    /** Why the machines cannot be saved (a context type Saves refuses), kept so the refusal is not worked out at every tick. */
    private String unsaved;
    private int machines = -1;

    @Override
    public String checkpoint(StateWorld world) {
        List<States<?>> all = world.machines();
        if (all.size() != machines) {
            machines = all.size();
            saves = null;
            unsaved = null;
            try {
                saves = Saves.of(all.toArray(new States<?>[0]));
            } catch (RuntimeException e) {
                unsaved = e.getMessage();
            }
        }
        if (saves == null) {
            throw new IllegalStateException(unsaved);
        }
        return saves.checkpoint(world);
    }
}

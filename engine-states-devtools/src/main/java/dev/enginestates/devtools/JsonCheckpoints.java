package dev.enginestates.devtools;

import dev.enginestates.ecs.StateWorld;
import dev.enginestates.ecs.States;
import dev.enginestates.io.Saves;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The first {@link TickSource}: a JSON checkpoint ({@link Saves#checkpoint}) of every machine the
 * world has met, made again when the world meets a new one. After a swap the world has met two
 * definitions of one machine, and the saves hold both (several versions of one id), or the later
 * one when they share a version.
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
            // saves hold one definition per id and version: after a swap to a definition edited at the same version,
            // the one the world learned last, which holds the records, takes the other's place
            Map<String, States<?>> held = new LinkedHashMap<>();
            for (States<?> m : all) {
                held.put(m.id() + "@" + m.machine().version(), m);
            }
            try {
                saves = Saves.of(held.values().toArray(new States<?>[0]));
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

package dev.enginestates.ecs;

/**
 * The paused marker: while an entity has it, every machine on the entity is held where it
 * is: waits count no seconds and {@code when} rules are not tested; events still move the
 * machines (as through a cutscene).
 *
 * <pre>{@code entity.add(MachinePaused.INSTANCE); ... entity.removeType(MachinePaused.class);}</pre>
 */
public final class MachinePaused {
    /** The marker; it holds no data, so one instance serves every entity. */
    public static final MachinePaused INSTANCE = new MachinePaused();

    private MachinePaused() {
    }

    @Override
    public String toString() {
        return "MachinePaused";
    }
}

package dev.enginestates.ecs;

/**
 * A state's tag component: an entity has it while its machine is in that state (a compound
 * state's tag stays while its children change). Each state has a class of its own, which
 * {@link States#is(String)} returns for queries; the tags follow the record and are never
 * written by hand.
 */
public abstract class StateTag {
    private String machineId;
    private String path;

    StateTag() {
    }

    final void init(String machineId, String path) {
        this.machineId = machineId;
        this.path = path;
    }

    /**
     * The machine's id.
     *
     * @return the id of the machine whose state this tag marks, as declared
     */
    public final String machineId() {
        return machineId;
    }

    /**
     * The state's dotted path.
     *
     * @return the path from the machine's root, such as {@code "patrol.watch"}
     */
    public final String path() {
        return path;
    }

    /** {@code <machine id>.<state path>}, as the dump names tags. */
    @Override
    public final String toString() {
        return machineId + "." + path;
    }
}

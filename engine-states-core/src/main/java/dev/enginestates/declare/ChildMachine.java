package dev.enginestates.declare;

/**
 * A machine as another machine's declaration names it, to run it as a child ({@code invoke},
 * {@code spawns}, {@code spawnChild}): a declared {@code dev.enginestates.Machine} is one. It lets
 * a declaration name a compiled machine without depending on it.
 *
 * @param <C> the machine's context type
 */
public interface ChildMachine<C> {
    /**
     * The machine's id.
     *
     * @return the id it was declared with
     */
    String id();

    /**
     * A fresh context from the machine's factory.
     *
     * @return a new context
     */
    C newContext();
}

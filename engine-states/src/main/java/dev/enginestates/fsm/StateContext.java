package dev.enginestates.fsm;

import dev.enginestates.declare.StateContextCore;
import dev.dominion.ecs.api.Entity;

/**
 * A builder-style context that belongs to a world object: the contract plus the entity. On an
 * entity ({@code States.of(definition)}), the world sets the entity when the machine is spawned
 * or attached, and after a restore; it sets {@code null} when the entity is despawned or the
 * machine detached. {@code trait(ctx)} enters the initial state before there is an entity, so
 * the initial state's enter hook sees none.
 *
 * <p>The static helpers read like the document's TypeScript twin:
 * {@code StateContext.windowEntered(ctx, "commit")}.
 */
public interface StateContext extends StateContextCore {
    /** The entity the machine lives on, or {@code null} while it is not on one. */
    Entity entity();

    void setEntity(Entity entity);

    /** {@code ctx.progress()}. */
    static float progress(StateContextCore ctx) {
        return ctx.progress();
    }

    /** {@code ctx.inWindow(name)}. */
    static boolean inWindow(StateContextCore ctx, String name) {
        return ctx.inWindow(name);
    }

    /** {@code ctx.windowEntered(name)}. */
    static boolean windowEntered(StateContextCore ctx, String name) {
        return ctx.windowEntered(name);
    }

    /** {@code ctx.windowExited(name)}. */
    static boolean windowExited(StateContextCore ctx, String name) {
        return ctx.windowExited(name);
    }
}

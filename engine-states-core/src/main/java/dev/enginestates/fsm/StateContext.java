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
 * <p>The static helpers read as a TypeScript port would write them:
 * {@code StateContext.windowEntered(ctx, "commit")}.
 */
public interface StateContext extends StateContextCore {
    /**
     * The entity the machine lives on, or {@code null} while it is not on one.
     *
     * @return the entity, or {@code null}
     */
    // Dominion's API is optional for the core (requires static): a game on entities reads it through dev.enginestates.ecs
    @SuppressWarnings("exports")
    Entity entity();

    /**
     * Called by the world, not by game code: with the entity when the machine is spawned,
     * attached or restored, with {@code null} when it is despawned or detached.
     *
     * @param entity the entity the machine now lives on, or {@code null}
     */
    @SuppressWarnings("exports")
    void setEntity(Entity entity);

    /**
     * {@code ctx.progress()}.
     *
     * @param ctx the machine's context
     * @return time in state over the state's duration, 0 without a duration; unclamped: 1 when the duration has
     *         passed, more after it
     */
    static float progress(StateContextCore ctx) {
        return ctx.progress();
    }

    /**
     * {@code ctx.inWindow(name)}.
     *
     * @param ctx  the machine's context
     * @param name the window's name, as configured on the current state
     * @return whether the current state has the window and the progress lies in it
     */
    static boolean inWindow(StateContextCore ctx, String name) {
        return ctx.inWindow(name);
    }

    /**
     * {@code ctx.windowEntered(name)}.
     *
     * @param ctx  the machine's context
     * @param name the window's name, as configured on the current state
     * @return whether the last advance opened the window; {@code false} when the state has none by that name
     */
    static boolean windowEntered(StateContextCore ctx, String name) {
        return ctx.windowEntered(name);
    }

    /**
     * {@code ctx.windowExited(name)}.
     *
     * @param ctx  the machine's context
     * @param name the window's name, as configured on the current state
     * @return whether the last advance closed the window; {@code false} when the state has none by that name
     */
    static boolean windowExited(StateContextCore ctx, String name) {
        return ctx.windowExited(name);
    }
}

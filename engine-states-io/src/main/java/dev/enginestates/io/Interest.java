package dev.enginestates.io;

import dev.dominion.ecs.api.Entity;

/**
 * Which entities a player's stream carries: the game's rule of interest management (a team, an
 * area around the player, what the player can see), set with {@link RoomStream#interest}.
 *
 * <pre>{@code
 * stream.interest((player, entity) -> {
 *     Position me = positions.get(player);                 // the game's own lookup
 *     Position it = entity.get(Position.class);
 *     return it == null || me.distanceTo(it) < 30;         // what has no position is seen by all
 * });
 * }</pre>
 *
 * <p>It is one rule for the room, asked with the player's id, rather than a predicate given per
 * player at {@code join}: a game server's rule is nearly always the same for every player and
 * reads the player's own state (position, team) from its world, a player who reloads keeps it
 * without the game giving it again, and replacing the rule for everybody (a fog of war lifted)
 * is one call.
 *
 * <p>The stream asks it on the room's thread during {@link RoomStream#frames()} and
 * {@link RoomStream#frame(String)}, once per player per frame for each entity holding a
 * streamed record that player may otherwise see ({@code ownerOnly} is applied first), after
 * the pass that read the records and before any player's frame is written. So it should be
 * quick and allocate nothing, and answer from the world as it is: what it changes in the world
 * (a send, a spawn, a step) reaches the players in the next frame, not this one. An entity it
 * answers {@code false} for sends that player not a byte: not its key, not its records. When
 * the answer turns to {@code true} the entity arrives whole in that player's next frame; when
 * it turns to {@code false}, its records are removed there, and a replica despawns the entity
 * it spawned for them.
 */
@FunctionalInterface
public interface Interest {
    /**
     * Whether a player's frames carry an entity now.
     *
     * @param player the player's id, as given to {@link RoomStream#join}
     * @param entity an entity of the room holding a streamed record (it has an {@code EntityKey})
     * @return {@code true} to stream the entity's records to the player, {@code false} to keep every byte of it from them
     */
    boolean sees(String player, Entity entity);
}

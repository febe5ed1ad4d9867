package dev.enginestates.ecs;

import java.util.Objects;

/**
 * The player an entity belongs to, as a component the game adds:
 * {@code world.spawn(EntityKey.of("hero-1"), new Owner("alice"), TALK.trait())}. A machine
 * declared {@code ownerOnly()} on that entity is streamed to {@code "alice"} and to nobody
 * else; machines not so declared are streamed to everyone. The player's id is the recipient
 * name the game gives {@code RoomStream.join}. To hand the entity to another player, replace
 * the component; the stream follows at its next frame.
 *
 * @param player the owning player's id, compared exactly; not empty
 */
public record Owner(String player) {
    /**
     * An owner.
     *
     * @param player the owning player's id, compared exactly; not empty
     * @throws NullPointerException     if {@code player} is {@code null}
     * @throws IllegalArgumentException if {@code player} is empty
     */
    public Owner {
        Objects.requireNonNull(player, "player");
        if (player.isEmpty()) {
            throw new IllegalArgumentException("an owner's player id must not be empty");
        }
    }
}

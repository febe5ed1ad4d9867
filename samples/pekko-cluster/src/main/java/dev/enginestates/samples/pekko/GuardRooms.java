package dev.enginestates.samples.pekko;

import dev.dominion.ecs.api.Entity;
import dev.enginestates.ecs.EntityKey;
import dev.enginestates.ecs.MachinePaused;
import dev.enginestates.ecs.StateTag;
import dev.enginestates.ecs.StateWorld;
import dev.enginestates.pekko.RoomKind;
import dev.enginestates.pekko.RoomListener;
import dev.enginestates.pekko.Rooms;
import org.apache.pekko.actor.typed.ActorSystem;

import java.util.List;
import java.util.Locale;

import static dev.enginestates.samples.pekko.RoomGuard.GUARD;

/**
 * The sample's game on engine-states-pekko: what a room of guards is, how its commands apply,
 * and what its snapshots keep besides the checkpoint (the held guards). The library does the rest.
 */
public final class GuardRooms {
    /** The tag of a guard answering the bell, whom every player sees. */
    private static final Class<? extends StateTag> ANSWERING = GUARD.is("answer");

    private GuardRooms() {
    }

    /**
     * Rooms of guards: ten steps a second, looked for every 100 ms, a snapshot every 50 steps.
     *
     * @param guards the guards a room opens with, keyed {@code guard-000} up
     * @return the rooms' kind
     */
    public static RoomKind<RoomInput> kind(int guards) {
        return RoomKind.of("room", RoomInput.class, GUARD)
                .opens(world -> {
                    for (int i = 0; i < guards; i++) {
                        world.spawn(EntityKey.of(String.format(Locale.ROOT, "guard-%03d", i)), GUARD.trait());
                    }
                })
                .applies(GuardRooms::apply)
                .keeps(Held.class, GuardRooms::held, (world, held) -> held.keys().forEach(k -> world.entity(k).add(MachinePaused.INSTANCE)))
                .interest(GuardRooms::sees)
                .stepSeconds(0.1).tickMillis(100).snapshotEvery(50).maxCatchUp(100);
    }

    /**
     * Makes this node a home for the rooms; any room's commands then go through the handle, from any node.
     *
     * @param system   the node's actor system ({@link RoomNode#config})
     * @param guards   the guards per room
     * @param listener told of this node's rooms' recoveries and written steps
     * @return the handle
     */
    public static Rooms<RoomInput> start(ActorSystem<?> system, int guards, RoomListener listener) {
        return Rooms.start(system, kind(guards), listener);
    }

    /**
     * Applies a command. One the room cannot take (an unknown guard, a key taken, a hold already
     * on) changes nothing and answers false, the same on every replay.
     *
     * @param world the room's world
     * @param input the command
     * @return whether it changed the room
     */
    static boolean apply(StateWorld world, RoomInput input) {
        if (input instanceof RoomInput.Spawn s) {
            if (world.entity(s.key()) != null || EntityKey.WORLD.equals(s.key())) {
                return false;
            }
            world.spawn(EntityKey.of(s.key()), GUARD.trait());
            return true;
        }
        Entity guard = world.entity(input instanceof RoomInput.Send s ? s.key() : ((RoomInput.Hold) input).key());
        if (guard == null || guard == world.entity()) {
            return false;
        }
        if (input instanceof RoomInput.Send s) {
            return GUARD.send(guard, s.event());
        }
        RoomInput.Hold h = (RoomInput.Hold) input;
        if (h.on() == guard.has(MachinePaused.class)) {
            return false;
        }
        if (h.on()) {
            guard.add(MachinePaused.INSTANCE);
        } else {
            guard.removeType(MachinePaused.class);
        }
        return true;
    }

    /**
     * What a player's frames carry: the guards of the player's wing, and every guard answering the bell. A player
     * {@code east-...} has the guards whose keys end in an even digit ({@code guard-004}, {@code extra-2}),
     * {@code west-...} the odd ones; any other player is a spectator and sees every guard.
     *
     * @param player the player's id
     * @param guard  a guard of the room
     * @return whether the player sees the guard now
     */
    public static boolean sees(String player, Entity guard) {
        String key = StateWorld.keyOf(guard);
        int wing = player.startsWith("east-") ? 0 : player.startsWith("west-") ? 1 : -1;
        return wing < 0 || guard.has(ANSWERING) || (key.charAt(key.length() - 1) - '0') % 2 == wing;
    }

    /**
     * The held guards: a game component, which a checkpoint does not carry, so the snapshots keep it.
     *
     * @param keys the held guards' keys, sorted
     */
    public record Held(List<String> keys) {
    }

    static Held held(StateWorld world) {
        return new Held(world.query(MachinePaused.class).list().stream().map(StateWorld::keyOf).sorted().toList());
    }
}

package dev.enginestates.pekko;

import com.fasterxml.jackson.annotation.JsonSubTypes;
import com.fasterxml.jackson.annotation.JsonTypeInfo;
import dev.dominion.ecs.api.Entity;
import dev.enginestates.ecs.EntityKey;
import dev.enginestates.ecs.MachinePaused;
import dev.enginestates.ecs.StateWorld;
import dev.enginestates.ecs.States;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/**
 * The tests' game: rooms of lamps that go on after 3 s off and off after 2 s on, flipped by a
 * command, and held by another (a game component, which the kind keeps in its snapshots).
 */
final class Lamps {
    private Lamps() {
    }

    /** A lamp: how often it went on. */
    static final class Lamp {
        int lit;
    }

    static final States<Lamp> LAMP = States.define("lamp", Lamp::new, m -> m
            .initial("off")
            .state("off", s -> s.waitFor(3, "on").on("FLIP", "on"))
            .state("on", s -> s.entry((lamp, e) -> lamp.lit++).waitFor(2, "off").on("FLIP", "off")));

    /** The game's commands. */
    @JsonTypeInfo(use = JsonTypeInfo.Id.NAME, property = "type")
    @JsonSubTypes({
            @JsonSubTypes.Type(value = Flip.class, name = "flip"),
            @JsonSubTypes.Type(value = Hold.class, name = "hold")})
    sealed interface Command {
    }

    /** Flips a lamp. */
    record Flip(String key) implements Command {
    }

    /** Holds a lamp where it is (its waits count no seconds) or lets it go on. */
    record Hold(String key, boolean on) implements Command {
    }

    /** The held lamps: the game's part of a snapshot. */
    record Held(List<String> keys) {
    }

    /** Rooms of this many lamps, ten steps a second, on the given clock. */
    static RoomKind<Command> kind(int lamps, java.util.function.LongSupplier clock) {
        return RoomKind.of("lamps", Command.class, LAMP)
                .opens(world -> {
                    for (int i = 0; i < lamps; i++) {
                        world.spawn(EntityKey.of(String.format(Locale.ROOT, "lamp-%d", i)), LAMP.trait());
                    }
                })
                .applies(Lamps::apply)
                .keeps(Held.class, Lamps::held, (world, held) -> held.keys().forEach(k -> world.entity(k).add(MachinePaused.INSTANCE)))
                .stepSeconds(0.1)
                .tickMillis(20)
                .clock(clock);
    }

    static boolean apply(StateWorld world, Command command) {
        String key = command instanceof Flip f ? f.key() : ((Hold) command).key();
        Entity lamp = world.entity(key);
        if (lamp == null || lamp == world.entity()) {
            return false;
        }
        if (command instanceof Flip) {
            return LAMP.send(lamp, "FLIP");
        }
        Hold h = (Hold) command;
        if (h.on() == lamp.has(MachinePaused.class)) {
            return false;
        }
        if (h.on()) {
            lamp.add(MachinePaused.INSTANCE);
        } else {
            lamp.removeType(MachinePaused.class);
        }
        return true;
    }

    static Held held(StateWorld world) {
        List<String> keys = new ArrayList<>();
        for (Entity e : world.query(MachinePaused.class)) {
            keys.add(StateWorld.keyOf(e));
        }
        keys.sort(null);
        return new Held(keys);
    }
}

package dev.enginestates.pekko;

import com.fasterxml.jackson.annotation.JsonSubTypes;
import com.fasterxml.jackson.annotation.JsonTypeInfo;
import dev.dominion.ecs.api.Entity;
import dev.enginestates.ecs.EntityKey;
import dev.enginestates.ecs.MachinePaused;
import dev.enginestates.ecs.Owner;
import dev.enginestates.ecs.StateWorld;
import dev.enginestates.ecs.States;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.TreeMap;

/**
 * The tests' game: rooms of lamps that go on after 3 s off and off after 2 s on, flipped by a
 * command, and held by another (a game component, which the kind keeps in its snapshots).
 */
final class Lamps {
    private Lamps() {
    }

    /** A lamp: how often it went on. */
    static final class Lamp {
        public int lit;
    }

    static final States<Lamp> LAMP = States.define("lamp", Lamp::new, m -> m
            .initial("off")
            .state("off", s -> s.waitFor(3, "on").on("FLIP", "on"))
            .state("on", s -> s.entry((lamp, e) -> lamp.lit++).waitFor(2, "off").on("FLIP", "off")));

    /** A player's pocket: how many coins it found. */
    static final class Pocket {
        public int coins;
    }

    /** A pocket fills after 1 s and empties after 2 s; its owner's alone. */
    static final States<Pocket> POCKET = States.define("pocket", Pocket::new, m -> m
            .ownerOnly()
            .initial("empty")
            .state("empty", s -> s.waitFor(1, "full"))
            .state("full", s -> s.entry((pocket, e) -> pocket.coins++).waitFor(2, "empty")));

    /** A scroll: a long text that never changes, making a room's whole frame bigger than one cluster message. */
    static final class Scroll {
        /** Public: a context's fields are written as Jackson sees them. */
        public String text = "";
    }

    static final States<Scroll> SCROLL = States.define("scroll", Scroll::new, m -> m
            .initial("rolled")
            .state("rolled", s -> s.on("UNROLL", "rolled")));

    /**
     * Rooms of lamps and one scroll of this many characters drawn at random (the same in every room
     * and at every recovery), which gzip, as Pekko's Jackson serializer applies, hardly shrinks.
     */
    static RoomKind<Command> withScroll(int lamps, int chars, java.util.function.LongSupplier clock) {
        return RoomKind.of("scrolls", Command.class, LAMP, SCROLL)
                .opens(world -> {
                    for (int i = 0; i < lamps; i++) {
                        world.spawn(EntityKey.of(String.format(Locale.ROOT, "lamp-%d", i)), LAMP.trait());
                    }
                    java.util.Random random = new java.util.Random(42);
                    StringBuilder text = new StringBuilder(chars);
                    String letters = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";
                    for (int i = 0; i < chars; i++) {
                        text.append(letters.charAt(random.nextInt(letters.length())));
                    }
                    Scroll scroll = new Scroll();
                    scroll.text = text.toString();
                    world.spawn(EntityKey.of("scroll"), SCROLL.trait(scroll));
                })
                .applies(Lamps::apply)
                .keeps(Held.class, Lamps::held, (world, held) -> held.keys().forEach(k -> world.entity(k).add(MachinePaused.INSTANCE)))
                .stepSeconds(0.1)
                .tickMillis(20)
                .clock(clock);
    }

    /** What the snapshots of rooms with pockets keep: the held lamps and each pocket's owner (game components). */
    record Kept(List<String> held, Map<String, String> owners) {
    }

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

    /**
     * Rooms of lamps and one pocket per player (keyed {@code pocket-<player>}, owned by the player),
     * ten steps a second, on the given clock.
     */
    static RoomKind<Command> withPockets(int lamps, List<String> players, java.util.function.LongSupplier clock) {
        return RoomKind.of("pockets", Command.class, LAMP, POCKET)
                .opens(world -> {
                    for (int i = 0; i < lamps; i++) {
                        world.spawn(EntityKey.of(String.format(Locale.ROOT, "lamp-%d", i)), LAMP.trait());
                    }
                    for (String p : players) {
                        world.spawn(EntityKey.of("pocket-" + p), new Owner(p), POCKET.trait());
                    }
                })
                .applies(Lamps::apply)
                .keeps(Kept.class, world -> {
                    Map<String, String> owners = new TreeMap<>();
                    for (var r : world.query(Owner.class)) {
                        owners.put(StateWorld.keyOf(r), r.get(Owner.class).player());
                    }
                    return new Kept(held(world).keys(), owners);
                }, (world, kept) -> {
                    kept.held().forEach(k -> world.entity(k).add(MachinePaused.INSTANCE));
                    kept.owners().forEach((k, p) -> world.entity(k).add(new Owner(p)));
                })
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

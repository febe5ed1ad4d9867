package dev.enginestates.samples.readme;

import dev.dominion.ecs.api.Entity;
import dev.enginestates.declare.Self;
import dev.enginestates.ecs.StateWorld;
import dev.enginestates.ecs.States;
import dev.enginestates.plain.StateMachine;

/**
 * The README's "code that sees its entity" section, compiled ({@code ReadmeCodeTest} checks
 * its lines and runs it): actions, guards, {@code when} tests and wait-seconds functions written
 * {@code (ctx, event, self)}.
 */
public final class SelfTour {
    private SelfTour() {
    }

    /** A tree's context: nothing the fire needs, it reads the entity. */
    public static final class Tree {
    }

    /** How much wood a tree holds: it burns 100 kg a second. */
    public static final class Wood {
        /** Kilograms of wood. */
        public final double kilos;

        /** A tree of that many kilograms. */
        public Wood(double kilos) {
            this.kilos = kilos;
        }
    }

    /** The tree the fire spreads to. */
    public static final class Neighbour {
        /** The neighbouring tree's entity. */
        public final Entity entity;

        /** The neighbour at {@code entity}. */
        public Neighbour(Entity entity) {
            this.entity = entity;
        }
    }

    /** Put on a burning tree by its own entry action. */
    public static final class OnFire {
    }

    /** Rain: a wet tree does not catch fire, and a burning one goes out. */
    public static final class Wet {
    }

    /** A fire spreading along a row of trees. */
    public static final States<Tree> TREE = States.define("tree", Tree::new, m -> m
        .initial("standing")
        .state("standing", s -> s
            .on("IGNITE", t -> t.guard((tree, e, self) -> !self.has(Wet.class)).target("burning")))
        .state("burning", s -> s
            .entry((tree, e, self) -> self.add(new OnFire()))                 // a component on its own entity
            .exit((tree, e, self) -> self.remove(OnFire.class))
            .when((tree, e, self) -> self.has(Wet.class), "standing")         // the rain puts it out
            .waitFor((tree, e, self) -> self.get(Wood.class).kilos / 100, t -> t
                .target("ash")
                .action((tree, e, self) -> {                                  // and the fire spreads
                    Neighbour next = self.get(Neighbour.class);
                    if (next != null) self.send(next.entity, "IGNITE");
                })))
        .state("ash"));

    /** What the tour saw, for its test. */
    public static final class Seen {
        /** Whether the near tree had its {@code OnFire} component once lit. */
        public boolean nearOnFire;
        /** How many entities Dominion's own query found on fire then. */
        public int onFire;
        /** Whether the far tree burned two seconds later. */
        public boolean farBurning;
        /** The far tree's state after the rain. */
        public String farAfterRain;
        /** Whether the far tree still had its {@code OnFire} component after the rain. */
        public boolean farOnFireAfterRain;
        /** What a plain machine's action saw as its entity, world and attachment. */
        public Object plainEntity = "unset";
        /** As above. */
        public Object plainWorld = "unset";
        /** As above. */
        public boolean plainAttached = true;
        /** Whether the entity and world read with their types were the tree's own. */
        public boolean typed;
        /** Whether the object said it was on no entity after despawn. */
        public boolean detachedAfterDespawn;
    }

    /** The tour: light one tree, let the fire spread, then rain on it. */
    public static Seen tour() {
        Seen seen = new Seen();
        try (StateWorld world = StateWorld.create()) {
            Entity far = world.spawn(TREE.trait(), new Wood(300));
            Entity near = world.spawn(TREE.trait(), new Wood(200), new Neighbour(far));
            TREE.send(near, "IGNITE");                                // near.has(OnFire.class): true
            seen.nearOnFire = near.has(OnFire.class);
            world.query(OnFire.class).count();                        // 1: Dominion's own query finds it
            seen.onFire = world.query(OnFire.class).count();
            for (int i = 0; i < 120; i++) world.step(1.0 / 60);       // 2 s: near burns out and lights far
            TREE.read(far).matches("burning");                        // true
            seen.farBurning = TREE.read(far).matches("burning");
            far.add(new Wet());
            world.step(1.0 / 60);                                     // far's when test sees the rain: "standing"
            seen.farAfterRain = TREE.read(far).state();
            seen.farOnFireAfterRain = far.has(OnFire.class);
            Self[] kept = new Self[1];
            States<Tree> typed = States.define("typed-self", Tree::new, m -> m
                .state("a", s -> s.on("LOOK", t -> t.action((tree, e, self) -> {
                    Entity me = self.entity();
                    StateWorld in = self.world();
                    kept[0] = self;
                    seen.typed = me != null && in == world;
                }))));
            Entity e = world.spawn(typed.trait());
            typed.send(e, "LOOK");
            world.despawn(e);
            seen.detachedAfterDespawn = !kept[0].attached() && kept[0].entity() == null;
        }
        States<Tree> plain = States.define("plain-self", Tree::new, m -> m
            .state("a", s -> s.on("LOOK", t -> t.action((tree, e, self) -> {
                seen.plainEntity = self.entity();
                seen.plainWorld = self.world();
                seen.plainAttached = self.attached();
            }))));
        new StateMachine<>(plain.machine()).send("LOOK");
        return seen;
    }
}

package dev.enginestates.samples;

import dev.dominion.ecs.api.Entity;
import dev.enginestates.ecs.EntityKey;
import dev.enginestates.ecs.StateRecord;
import dev.enginestates.ecs.StateWorld;
import dev.enginestates.ecs.States;

import java.util.Locale;

/**
 * A rider stalling on a hill: a {@code when} rule tests the rider's
 * {@link TrackMover} speed each step, and a stall that lasts {@link #STALL_SECONDS} ends in
 * {@code stalled}:
 *
 * <pre>
 * sliding:  { when: [[isSlow, "stalling"]] },
 * stalling: { when: [[(rider) =&gt; !isSlow(rider), "sliding"]], wait: { seconds: stallSeconds, then: "stalled" } },
 * </pre>
 *
 * <p>A {@code when} rule is for a condition that holds over time, such as a speed under a line;
 * {@code send} is for what happens once, such as a hit. A wait that a {@code when} enters counts that step's
 * seconds. The game's physics system ({@link #physics}) moves the riders: Rue makes it over
 * the hill (slow for 1.2 s), Tam, on a steeper climb, stalls until a friend pushes him (PUSH).
 *
 * <p>Run: {@code mvn -q -pl samples exec:java -Dexec.mainClass=dev.enginestates.samples.RiderSample}
 */
public final class RiderSample {
    /** Below this speed a rider is slow. */
    public static final double STALL_SPEED = 2;
    /** Seconds a rider may stay slow before it has stalled. */
    public static final double STALL_SECONDS = 1.5;

    private RiderSample() {
    }

    /** The rider's movement along its track, a component of its own. */
    public static final class TrackMover {
        /** Speed along the track, in metres a second. */
        public double speed;
        /** Metres along the track. */
        public double position;
        /** Speed lost each second climbing the hill, and gained each second coming down. */
        public final double slope;

        /** A mover at a speed, on a hill that takes {@code slope} metres a second each second. */
        public TrackMover(double speed, double slope) {
            this.speed = speed;
            this.slope = slope;
        }
    }

    /** The rider's context: stalls counted. */
    public static final class Rider {
        /** Times the rider stalled for good. */
        public int stalls;
    }

    /** The rider machine. */
    public static final States<Rider> RIDER = States.define("rider", Rider::new, m -> m
            .initial("sliding")
            .state("sliding", s -> s.when((ctx, rider) -> rider.get(TrackMover.class).speed < STALL_SPEED, "stalling"))
            .state("stalling", s -> s
                    .when((ctx, rider) -> rider.get(TrackMover.class).speed >= STALL_SPEED, "sliding")
                    .waitFor(STALL_SECONDS, t -> t.target("stalled").action((ctx, e) -> ctx.stalls++)))
            .state("stalled", s -> s.on("PUSH", "sliding")));

    /**
     * The game's physics for a step: climbing the hill (metres 5 to 10) a mover loses
     * {@code slope} m/s each second (down to a crawl of 0.5 m/s), coming down (10 to 15) it gains
     * them back; a stalled rider stands still.
     */
    public static void physics(Entity rider, double dt) {
        TrackMover m = rider.get(TrackMover.class);
        if (RIDER.read(rider).matches("stalled")) {
            m.speed = 0;
            return;
        }
        double accel = m.position >= 5 && m.position < 10 ? -m.slope : m.position >= 10 && m.position < 15 ? m.slope : 0;
        m.speed = Math.max(0.5, m.speed + accel * dt);
        m.position += m.speed * dt;
    }

    /** Two riders take the hill; prints each move of their machines. */
    public static void main(String[] args) {
        double dt = 1.0 / 60;
        try (StateWorld world = StateWorld.create("track")) {
            Entity rue = world.spawn(EntityKey.of("rue"), new TrackMover(5, 2.5), RIDER.trait());
            Entity tam = world.spawn(EntityKey.of("tam"), new TrackMover(5, 3), RIDER.trait());
            Object[] last = {"sliding", "sliding"};
            Entity[] riders = {rue, tam};
            for (int step = 0; step < 12 * 60; step++) {
                if (step == 8 * 60 && RIDER.read(tam).matches("stalled")) {
                    tam.get(TrackMover.class).speed = 4; // a friend pushes Tam over the top
                    RIDER.send(tam, "PUSH");
                    System.out.printf(Locale.ROOT, "%5.2f  tam  pushed%n", world.time());
                }
                for (Entity r : riders) {
                    physics(r, dt);
                }
                world.step(dt);
                for (int i = 0; i < riders.length; i++) {
                    StateRecord<Rider> r = RIDER.read(riders[i]);
                    if (!r.value().equals(last[i])) {
                        last[i] = r.value();
                        TrackMover m = riders[i].get(TrackMover.class);
                        System.out.printf(Locale.ROOT, "%5.2f  %s  %-8s at %5.1f m, %.2f m/s%s%n", world.time(), StateWorld.keyOf(riders[i]),
                                r.value(), m.position, m.speed,
                                r.isWaiting() ? String.format(Locale.ROOT, " (%.2f s to stall)", r.secondsLeft()) : "");
                    }
                }
            }
            System.out.printf(Locale.ROOT, "rue is %s at %.1f m; tam is %s at %.1f m%n", RIDER.read(rue).value(),
                    rue.get(TrackMover.class).position, RIDER.read(tam).value(), tam.get(TrackMover.class).position);
        }
    }
}

package dev.enginestates.samples;

import dev.dominion.ecs.api.Entity;
import dev.enginestates.ecs.EntityKey;
import dev.enginestates.ecs.StateWorld;
import dev.enginestates.ecs.States;

import java.util.List;
import java.util.Locale;

import static dev.enginestates.samples.Guard.GuardEvent.BELL;
import static dev.enginestates.samples.Guard.GuardEvent.RESTART;
import static dev.enginestates.samples.Guard.GuardEvent.RESUME;
import static dev.enginestates.samples.Guard.GuardState.ANSWER;
import static dev.enginestates.samples.Guard.GuardState.REST;
import static dev.enginestates.samples.Guard.GuardState.WATCH;

/**
 * The guard with a deep history state and the bell. A guard watches for 4 seconds and rests
 * for 10; the bell calls him to answer it; RESUME brings him back through the history state
 * to where he was, with the seconds his wait had left (three seconds into his watch when the
 * bell rings, he comes back to the watch with one second left); RESTART starts the patrol
 * over. The declaration is {@link Guard#MACHINE}.
 *
 * <p>Three guards: Ada hears the bell three seconds into her watch and resumes; Bo hears it two
 * seconds into his rest and resumes; Cy hears it with Ada and restarts. Every second the
 * sample prints each guard's state and the seconds left, and counts the guards in each state
 * with tag queries ({@code world.query(GUARD.is(ANSWER))}). The guard's states and events are
 * enums ({@link Guard.GuardState}, {@link Guard.GuardEvent}): each use below is checked by the
 * Java compiler.
 *
 * <p>Run: {@code mvn -q -pl samples exec:java -Dexec.mainClass=dev.enginestates.samples.GuardSample}
 */
public final class GuardSample {
    /** The guard machine bound to the ECS. */
    public static final States<Guard> GUARD = States.of(Guard.MACHINE);

    private GuardSample() {
    }

    /** Rings the bell and sends RESUME and RESTART at set moments, printing the guards once a second. */
    public static void main(String[] args) {
        double dt = 1.0 / 60;
        try (StateWorld world = StateWorld.create("keep")) {
            Entity ada = world.spawn(EntityKey.of("ada"), GUARD.trait());
            Entity bo = world.spawn(EntityKey.of("bo"), GUARD.trait().setState(REST)); // Bo starts his shift resting
            Entity cy = world.spawn(EntityKey.of("cy"), GUARD.trait());
            List<Entity> guards = List.of(ada, bo, cy);
            System.out.printf(Locale.ROOT, "%4s  %-27s  %-27s  %-27s  %5s %4s %6s%n", "t", "ada", "bo", "cy", "watch", "rest", "answer");
            for (int second = 0; second <= 12; second++) {
                switch (second) {
                    case 2:
                        GUARD.send(bo, BELL);   // two seconds into his rest
                        break;
                    case 3:
                        GUARD.send(ada, BELL);  // three seconds into her watch
                        GUARD.send(cy, BELL);
                        break;
                    case 5:
                        GUARD.send(ada, RESUME); // back to the watch with one second left
                        GUARD.send(bo, RESUME);  // back to his rest with eight seconds left
                        GUARD.send(cy, RESTART); // the patrol starts over: a fresh 4 s watch
                        break;
                    default:
                        break;
                }
                StringBuilder line = new StringBuilder(String.format(Locale.ROOT, "%4d", second));
                for (Entity g : guards) {
                    String state = GUARD.read(g).state();
                    double left = GUARD.read(g).secondsLeft();
                    line.append(String.format(Locale.ROOT, "  %-27s", state + (left > 0 ? String.format(Locale.ROOT, " (%.2f s left)", left) : "")));
                }
                line.append(String.format(Locale.ROOT, "  %5d %4d %6d", world.query(GUARD.is(WATCH)).count(),
                        world.query(GUARD.is(REST)).count(), world.query(GUARD.is(ANSWER)).count()));
                System.out.println(line);
                for (int i = 0; i < 60; i++) {
                    world.step(dt);
                }
            }
            System.out.printf(Locale.ROOT, "bells answered: ada %d, bo %d, cy %d%n", GUARD.read(ada).context().bells,
                    GUARD.read(bo).context().bells, GUARD.read(cy).context().bells);
        }
    }
}

package dev.enginestates.samples;

import dev.dominion.ecs.api.Entity;
import dev.enginestates.ecs.EntityKey;
import dev.enginestates.ecs.StateRecord;
import dev.enginestates.ecs.StateWorld;
import dev.enginestates.io.InputLog;
import dev.enginestates.io.Saves;
import dev.enginestates.samples.WeaponSample.Weapon;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.SplittableRandom;

import static dev.enginestates.samples.WeaponSample.WEAPON;

/**
 * A bug seen once, reproduced from a saved input log ({@link InputLog}): a world replays its
 * machines as it does any of its components, and a replay brings a machine back mid-wait.
 *
 * <p>Three players mash the FIRE and RELOAD buttons of {@link WeaponSample}'s weapon at
 * random. A player reports: "I pulled the trigger with rounds in the magazine and nothing
 * happened". The sample watches for exactly that (FIRE refused while the magazine is not
 * empty and the weapon is reloading), and when it happens writes the input log to a file. A
 * fresh world replays the file and ends with the same records, bit for bit (its checkpoint
 * text is equal), in the same surprising state, which a debugger or a test can now step
 * through at will. The cause is in the log: a RELOAD pressed with a part-full magazine a
 * moment before, which the weapon takes ({@code RELOAD [ammo < magazine]}), and a reload
 * refuses FIRE until it ends.
 *
 * <p>Run (a random seed, or give one): {@code mvn -q -pl samples exec:java
 * -Dexec.mainClass=dev.enginestates.samples.ReplaySample -Dexec.args="42"}
 */
public final class ReplaySample {
    /** What the log saves and replays: the weapon machine. */
    public static final Saves SAVES = Saves.of(WEAPON);
    /** The fixed step. */
    public static final double DT = 1.0 / 60;

    private ReplaySample() {
    }

    /** A run that found the surprise: where and when, and the log that leads there. */
    public static final class Surprise {
        /** The seed of the players' random presses. */
        public final long seed;
        /** The key of the player whose FIRE was refused. */
        public final String player;
        /** The step (0-based) at whose start the FIRE was refused. */
        public final long step;
        /** The input log from the start of the run to the refused FIRE. */
        public final String log;
        /** The world's checkpoint at the refused FIRE: the records the replay must reproduce. */
        public final String checkpoint;
        /** What the player saw, in one line. */
        public final String description;
        /** The player's last presses before it, oldest first, as {@code "step 93: RELOAD (taken)"}. */
        public final List<String> lastPresses;

        Surprise(long seed, String player, long step, String log, String checkpoint, String description, List<String> lastPresses) {
            this.seed = seed;
            this.player = player;
            this.step = step;
            this.log = log;
            this.checkpoint = checkpoint;
            this.description = description;
            this.lastPresses = List.copyOf(lastPresses);
        }
    }

    /**
     * Plays random presses in the world until a FIRE is refused with rounds in the magazine
     * during a reload (or {@code maxSteps} pass).
     *
     * @return the surprise, or {@code null} when none came
     */
    public static Surprise play(StateWorld world, long seed, int maxSteps) {
        SplittableRandom random = new SplittableRandom(seed);
        List<Entity> players = new ArrayList<>();
        for (int i = 1; i <= 3; i++) {
            players.add(world.spawn(EntityKey.of("player-" + i), WEAPON.trait()));
        }
        List<List<String>> presses = new ArrayList<>();
        players.forEach(p -> presses.add(new ArrayList<>()));
        InputLog log = InputLog.start(SAVES, world);
        try {
            for (int step = 0; step < maxSteps; step++) {
                for (int i = 0; i < players.size(); i++) {
                    Entity p = players.get(i);
                    double press = random.nextDouble();
                    if (press < 0.01) {
                        boolean taken = WEAPON.send(p, "RELOAD");
                        presses.get(i).add("step " + step + ": RELOAD (" + (taken ? "taken" : "refused") + ")");
                    } else if (press < 0.15) {
                        StateRecord<Weapon> w = WEAPON.read(p);
                        boolean fired = WEAPON.send(p, "FIRE");
                        presses.get(i).add("step " + step + ": FIRE (" + (fired ? "taken" : "refused") + ")");
                        if (!fired && w.context().ammo > 0 && w.matches("reload")) {
                            String what = String.format(Locale.ROOT, "at %.3f s (step %d) %s pulled the trigger with %d of %d rounds and"
                                    + " nothing happened: the weapon is reloading, %.3f s left", world.time(), step,
                                    StateWorld.keyOf(p), w.context().ammo, w.context().magazine, w.secondsLeft());
                            List<String> mine = presses.get(i);
                            return new Surprise(seed, StateWorld.keyOf(p), step, log.text(), SAVES.checkpoint(world), what,
                                    mine.subList(Math.max(0, mine.size() - 5), mine.size()));
                        }
                    }
                }
                world.step(DT);
            }
            return null;
        } finally {
            log.stop();
        }
    }

    /** Replays a log file into a fresh world and returns that world's checkpoint. */
    public static String replay(Path logFile) throws IOException {
        try (StateWorld fresh = StateWorld.create("replay")) {
            InputLog.replay(SAVES, fresh, Files.readString(logFile));
            return SAVES.checkpoint(fresh);
        }
    }

    /** Plays until the surprise, saves the log, replays it and compares the records. Arguments: [seed] [log file]. */
    public static void main(String[] args) throws IOException {
        long seed = args.length > 0 ? Long.parseLong(args[0]) : System.nanoTime();
        Surprise s;
        try (StateWorld world = StateWorld.create("range")) {
            s = play(world, seed, 60 * 60);
        }
        if (s == null) {
            System.out.println("seed " + seed + ": nothing surprising in a minute of play");
            return;
        }
        Path file = args.length > 1 ? Path.of(args[1]) : Files.createTempFile("weapon-bug-" + seed + "-", ".json");
        Files.writeString(file, s.log);
        System.out.println("seed " + seed + ": " + s.description);
        System.out.println("the input log (" + s.log.length() + " characters) is in " + file);
        String replayed = replay(file);
        System.out.println("replayed into a fresh world: the records are " + (replayed.equals(s.checkpoint) ? "identical" : "DIFFERENT"));
        System.out.println(s.player + "'s last presses (the log has them all):");
        for (String line : s.lastPresses) {
            System.out.println("  " + line);
        }
    }
}

package ${package};

import dev.dominion.ecs.api.Entity;
import dev.enginestates.MachineListener;
import dev.enginestates.ecs.EntityKey;
import dev.enginestates.ecs.StateWorld;
import dev.enginestates.io.Saves;

import java.util.Locale;

import static ${package}.Guard.GUARD;
import static ${package}.Siege.SIEGE;

/**
 * A small game server: a keep with the siege on its world and guards on entities, moved by a
 * fixed-step loop, saved to a checkpoint and brought back from it.
 *
 * <p>Run it with {@code mvn -q compile exec:java -Dexec.mainClass=${package}.GameServer}.
 */
public final class GameServer implements AutoCloseable {
    /** The fixed step: 60 ticks a second of game time. */
    public static final double STEP = 1.0 / 60;
    /** What a checkpoint holds: every record of both machines, and the world's clock. */
    public static final Saves SAVES = Saves.of(SIEGE, GUARD);

    private final StateWorld world;

    private GameServer(StateWorld world) {
        this.world = world;
        // The guards follow the siege: each time its phase changes, the game's own rule gives them their orders.
        world.addListener(SIEGE, MachineListener.onTopState((siege, from, to) -> orderGuards(to)));
    }

    /** A new keep: the siege on the world, waiting for START, and guards named guard-1 to guard-n on patrol. */
    public static GameServer open(int guards) {
        StateWorld world = StateWorld.create("keep");
        world.add(SIEGE);
        for (int i = 1; i <= guards; i++) {
            // the key names the guard in messages and finds his record again in a checkpoint
            world.spawn(EntityKey.of("guard-" + i), GUARD.trait());
        }
        return new GameServer(world);
    }

    /** The keep brought back from a checkpoint, as after a restart: the new world spawns a guard for each key it lacks. */
    public static GameServer restore(String checkpoint) {
        StateWorld world = StateWorld.create("keep");
        SAVES.restoreSpawningMissing(world, checkpoint);
        return new GameServer(world);
    }

    /** The world, for queries and for the test kit's assertions. */
    public StateWorld world() {
        return world;
    }

    /** The players are ready: the first wave comes. */
    public void startSiege() {
        SIEGE.send(world, "START");
    }

    /** One tick: every machine moves by one fixed step. */
    public void tick() {
        world.step(STEP);
    }

    /** The siege's phase: waiting, fight, breather or over. */
    public String phase() {
        return SIEGE.topState(world);
    }

    /** How many guards are in a state (a path such as "post" or "patrol.watch"), counted by its tag. */
    public int guardsIn(String state) {
        return world.query(GUARD.is(state)).count();
    }

    /** The exact records and clock, as JSON text to keep until the next start. */
    public String checkpoint() {
        return SAVES.checkpoint(world);
    }

    /** One line about the keep: the time, the siege's phase and wave, and the guards in each state. */
    public String describe() {
        return String.format(Locale.ROOT, "%5.1f s  siege: %-8s wave %d  guards: %3d at their post, %3d watching, %3d resting",
                world.time(), phase(), SIEGE.read(world).context().wave,
                guardsIn("post"), guardsIn("patrol.watch"), guardsIn("patrol.rest"));
    }

    @Override
    public void close() {
        world.close();
    }

    /** The game's own rule: a wave calls the guards on patrol to their posts, and its end sends them back. */
    private void orderGuards(String phase) {
        if (phase.equals("fight")) {
            order("patrol", "ALARM");
        } else {
            order("post", "ALL_CLEAR");
        }
    }

    private void order(String state, String event) {
        // list() takes the guards first, so the orders can move their tags while the loop runs
        for (Entity guard : world.query(GUARD.is(state)).list()) {
            GUARD.send(guard, event);
        }
    }

    /**
     * Runs a siege on a keep of 100 guards for a number of ticks (the first argument; 6,000, or
     * 100 seconds of game time, by default) and prints the keep every 10 seconds. Then it saves
     * the keep and restores it into a fresh server, as a restart would. A real server waits for
     * each tick's time, and writes its checkpoints to disk; this one runs the ticks back to back.
     */
    public static void main(String[] args) {
        int ticks = args.length > 0 ? Integer.parseInt(args[0]) : 6_000;
        String checkpoint;
        try (GameServer server = GameServer.open(100)) {
            server.startSiege();
            for (int tick = 1; tick <= ticks; tick++) {
                server.tick();
                if (tick % 600 == 0) {
                    System.out.println(server.describe());
                }
            }
            checkpoint = server.checkpoint();
        }
        try (GameServer restored = GameServer.restore(checkpoint)) {
            System.out.println("restored: " + restored.describe());
        }
    }
}

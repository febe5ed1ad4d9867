package ${package};

import dev.enginestates.ecs.States;

/**
 * The siege: the world's own machine, the phase the whole keep is in. It waits for START, then
 * fights a wave, catches its breath, and fights the next, until the last wave is over.
 * The context counts the waves, so every system, a dump and a checkpoint read it.
 */
public final class Siege {
    /** How many waves the siege throws at the keep. */
    public static final int WAVES = 3;
    /** Seconds each wave lasts. */
    public static final double WAVE_SECONDS = 20;
    /** Seconds of quiet between two waves. */
    public static final double BREATHER_SECONDS = 10;

    /** Waves begun so far: the machine's context is a plain class of the game's. */
    public int wave;

    /** The machine, declared once and shared by every world: one record type, one tag per state. */
    public static final States<Siege> SIEGE = States.define("siege", Siege::new, m -> m
            .initial("waiting")
            .state("waiting", s -> s.on("START", "fight"))
            .state("fight", s -> s
                    .entry((siege, event) -> siege.wave++)
                    .waitFor(WAVE_SECONDS, "breather"))
            .state("breather", s -> s
                    .when(siege -> siege.wave >= WAVES, "over")
                    .waitFor(BREATHER_SECONDS, "fight"))
            .finalState("over"));
}

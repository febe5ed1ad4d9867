package dev.enginestates.samples;

import dev.enginestates.Machine;

/**
 * A siege: it waits, fights, breathes for 12
 * seconds between waves and ends. The wave count lives in the context.
 */
public final class Siege {
    /** The siege's context: how many waves were held. */
    public int wave;

    /** The machine, shared by every siege. */
    public static final Machine<Siege> MACHINE = Machine.define("siege", Siege::new, m -> m
            .initial("waiting")
            .state("waiting", s -> s.on("START", "fight"))
            .state("fight", s -> s
                    .on("WAVE_HELD", t -> t.target("breather").action((siege, e) -> siege.wave++))
                    .on("ALL_DOWN", "over"))
            .state("breather", s -> s.waitFor(12, "fight"))
            .state("over"));
}

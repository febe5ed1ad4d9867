package dev.enginestates;

import dev.enginestates.ecs.States;

import java.util.ArrayList;
import java.util.List;

/** A machine that draws random numbers, for the tests that its draws reproduce: a random wait, a roll, a random choice. */
public final class Wanderers {
    private Wanderers() {
    }

    /** What a wanderer drew: its waits' seconds, its die rolls and where each choice sent it. */
    public static final class Walk {
        public List<Double> waits = new ArrayList<>();
        public List<Integer> rolls = new ArrayList<>();
        public String turns = "";
    }

    /** A random wait (the initial state's, drawn as {@code trait()} makes the record), a random roll on entry and a random choice by a guard. */
    public static States<Walk> wanderer(String id) {
        return wanderer(id, true);
    }

    /**
     * A wanderer; {@code drawsAtStart} false: it rests half a second (a constant wait) before its
     * first random wait, so a record that was only made and spawned has drawn nothing.
     */
    public static States<Walk> wanderer(String id, boolean drawsAtStart) {
        return States.define(id, Walk::new, m -> m
                .initial(drawsAtStart ? "idle" : "rest")
                .state("rest", s -> s.waitFor(0.5, "idle"))
                .state("idle", s -> s.waitFor((w, e, self) -> {
                    double secs = self.random().between(0.2, 1.5);
                    w.waits.add(secs);
                    return secs;
                }, "choose"))
                .state("choose", s -> s
                        .entry((w, e, self) -> w.rolls.add(self.random().nextInt(1, 7)))
                        .always(t -> t.guard((w, e, self) -> self.random().chance(0.5)).target("left"))
                        .always("right"))
                .state("left", s -> s.entry((w, e, self) -> w.turns += "L").waitFor(0.25, "idle"))
                .state("right", s -> s.entry((w, e, self) -> w.turns += "R").waitFor(0.25, "idle")));
    }

    /** The walk as one line, to compare two runs. */
    public static String walked(Walk w) {
        return w.waits + " " + w.rolls + " " + w.turns;
    }
}

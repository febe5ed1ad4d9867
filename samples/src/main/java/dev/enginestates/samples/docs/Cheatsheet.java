package dev.enginestates.samples.docs;

import dev.dominion.ecs.api.Entity;
import dev.enginestates.Machine;
import dev.enginestates.StatesDef;
import dev.enginestates.ecs.StateWorld;
import dev.enginestates.ecs.States;
import dev.enginestates.fsm.AIContext;
import dev.enginestates.fsm.StateMachineBuilder;
import dev.enginestates.fsm.StateMachineDefinition;

import java.util.ArrayList;
import java.util.List;

/**
 * The code of docs/cheatsheet.md, compiled: one sentry written in the three styles, then run
 * side by side on entities ({@code DocsCodeTest} checks the page's lines against this file and
 * runs {@link #sideBySide()}).
 */
public final class Cheatsheet {
    private Cheatsheet() {
    }

    /** The sentry's context, shared by the three styles. */
    public static final class Sentry extends AIContext {   // the builder style needs AIContext; the others take any class
        /** Whether the sentry sees an intruder. */
        public boolean intruder;
    }

    /** The XState style. */
    static final Machine<Sentry> SENTRY = Machine.define("sentry", Sentry::new, m -> m
        .initial("watch")
        .state("watch", s -> s.when(sentry -> sentry.intruder, "alert"))   // tested at each step, after the waits
        .state("alert", s -> s.waitFor(5, "watch")));                     // back to the watch 5 s later

    /** The polled style. */
    static final StatesDef<Sentry> SENTRY_TABLE = StatesDef.define("sentry-table", Sentry::new, d -> d
        .initial("watch")
        .state("watch", s -> s.to("alert", (sentry, t) -> sentry.intruder))   // tested every tick
        .state("alert", s -> s.after(5, "watch")));                          // back to the watch 5 s later

    /** The builder style. */
    static final StateMachineDefinition<Sentry> SENTRY_FSM = new StateMachineBuilder<Sentry>("sentry-fsm", Sentry::new)
        .configureState("watch").asInitial().transitionsTo("alert").handler((sentry, dt) -> sentry.intruder ? "alert" : null)
        .configureState("alert").transitionsTo("watch").handler((sentry, dt) -> sentry.timeInState() >= 5f ? "watch" : null)
        .build();

    /** The three on entities of one world: the state of each after an intruder shows up, then after 6 s without one. */
    public static List<String> sideBySide() {
        List<String> seen = new ArrayList<>();
        List<Entity> sentries = new ArrayList<>();
        StateWorld world = StateWorld.create();
        List<States<Sentry>> styles = List.of(States.of(SENTRY), States.of(SENTRY_TABLE), States.of(SENTRY_FSM));
        for (States<Sentry> style : styles) {
            Entity sentry = world.spawn(style.trait());                       // one sentry of each style
            style.read(sentry).context().intruder = true;                     // the same change to each context
            sentries.add(sentry);
        }
        world.step(1.0 / 60);                                                 // each moves by its own rules
        for (States<Sentry> style : styles) {
            long alert = world.query(style.is("alert")).count();              // 1 for each: every style's states are tags
            seen.add(style.id() + " " + alert);
        }
        for (int i = 0; i < 3; i++) {
            styles.get(i).read(sentries.get(i)).context().intruder = false;
        }
        for (int i = 0; i < 360; i++) world.step(1.0 / 60);                  // six seconds
        for (int i = 0; i < 3; i++) {
            seen.add(styles.get(i).id() + " " + styles.get(i).read(sentries.get(i)).state());
        }
        world.close();
        return seen;
    }
}

package dev.enginestates.samples.docs;

import dev.enginestates.declare.Event;
import dev.enginestates.declare.Named;
import dev.enginestates.ecs.States;
import dev.enginestates.testing.MachinePaths;
import dev.enginestates.testing.Unreached;

import java.util.List;

/** docs/testing.md's vault: guards that need an event's field and a change of the context, given to the path generator. */
final class PathsWithGuards {
    public static final class Vault {
        public boolean alarm;
    }

    static final States<Vault> VAULT = States.define("vault", Vault::new, m -> m
        .initial("locked")
        .state("locked", s -> s
            .on("CODE", t -> t.target("open").guard(Named.guard("rightCode", (v, e) -> e.number("code") == 1234)))
            .when(Named.condition("alarmRaised", v -> v.alarm), "lockdown"))
        .state("open", s -> s.on("CLOSE", "locked"))
        .state("lockdown", s -> s.waitFor(30, "locked").entry((v, e) -> v.alarm = false)));

    private PathsWithGuards() {
    }

    /** What no path reaches without the game's inputs, then with them. */
    static List<List<Unreached>> unreachedWithoutAndWith() {
        List<Unreached> alone = MachinePaths.of(VAULT).unreached();
        // "locked –CODE [rightCode]→ open: 'locked' was reached, but its guard 'rightCode' threw for the CODE events tried
        //  (event 'CODE': field 'code' is missing, expected a number); give the generator an event with the fields it reads ..."
        MachinePaths<Vault> paths = MachinePaths.of(VAULT)
            .event(Event.of("CODE").with("code", 1234))                // an event whose field passes the guard
            .given("the alarm goes off", vault -> vault.alarm = true); // a change of the context the game makes
        List<Unreached> given = paths.unreached();                      // empty: every state and transition is reached
        return List.of(alone, given);
    }
}

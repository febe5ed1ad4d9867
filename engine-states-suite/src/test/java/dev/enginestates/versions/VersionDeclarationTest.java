package dev.enginestates.versions;

import dev.enginestates.Machine;
import dev.enginestates.StatesDef;
import dev.enginestates.declare.InvalidMachineException;
import dev.enginestates.declare.MachineException;
import dev.enginestates.declare.Migration;
import dev.enginestates.fsm.AIContext;
import dev.enginestates.fsm.StateMachineBuilder;
import dev.enginestates.fsm.StateMachineDefinition;
import org.junit.jupiter.api.Test;

import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * A definition's identity: a version the game declares and a fingerprint of its structure that
 * ignores its code; migrations declared with the version, checked when the machine is built, and
 * chained from any older version. Bad declarations are refused with what was expected.
 */
class VersionDeclarationTest {
    public static final class Ctx {
        public int n;
    }

    static Machine<Ctx> guard(double watch, String rest) {
        return Machine.define("fp-guard", Ctx::new, m -> m
                .initial("patrol")
                .state("patrol", p -> p.initial("watch")
                        .state("watch", s -> s.waitFor(watch, rest).entry((c, e) -> c.n++))
                        .state(rest, s -> s.waitFor(10, "watch")))
                .state("answer"));
    }

    @Test
    void theFingerprintDigestsTheStructureNotTheCode() {
        Machine<Ctx> a = guard(4, "rest");
        Machine<Ctx> sameShapeOtherCode = Machine.define("fp-guard", Ctx::new, m -> m
                .initial("patrol")
                .state("patrol", p -> p.initial("watch")
                        .state("watch", s -> s.waitFor(4, "rest").entry((c, e) -> c.n += 2))
                        .state("rest", s -> s.waitFor(10, "watch")))
                .state("answer"));
        assertTrue(a.fingerprint().matches("[0-9a-f]{16}"), a.fingerprint());
        assertEquals(a.fingerprint(), guard(4, "rest").fingerprint(), "the same definition built twice");
        assertEquals(a.fingerprint(), sameShapeOtherCode.fingerprint(), "another action: the same structure");
        assertNotEquals(a.fingerprint(), guard(5, "rest").fingerprint(), "another wait");
        assertNotEquals(a.fingerprint(), guard(4, "nap").fingerprint(), "a renamed state");
        assertEquals(0, a.version(), "no version declared: 0");
        assertTrue(a.migrations().isEmpty());
    }

    @Test
    void eachStyleDeclaresItsVersionAndMigrations() {
        Migration m = Migration.from(1).rename("a", "b");
        StatesDef<Ctx> polled = StatesDef.define("fp-bot", Ctx::new, d -> d.version(2, m).state("b").state("c"));
        assertEquals(2, polled.machine().version());
        assertEquals(List.of(m), polled.machine().migrationsFrom(1));
        StateMachineDefinition<Door> builder = new StateMachineBuilder<Door>("fp-door", Door::new).version(2, m)
                .configureState("b").asInitial().handler((d, dt) -> null).build();
        assertEquals(2, builder.machine().version());
        assertTrue(builder.machine().fingerprint().matches("[0-9a-f]{16}"));
        assertNotEquals(polled.machine().fingerprint(), builder.machine().fingerprint());
    }

    public static final class Door extends AIContext {
    }

    @Test
    void migrationsChainFromAnyOlderVersionAndSayWhichStepIsMissing() {
        Migration one = Migration.from(1).rename("a", "b");
        Migration two = Migration.from(2).remove("b", "c");
        Machine<Ctx> v3 = Machine.define("chain", Ctx::new, m -> m.version(3, two, one).initial("c").state("c"));
        assertEquals(List.of(one, two), v3.migrationsFrom(1));
        assertEquals(List.of(two), v3.migrationsFrom(2));
        assertEquals(List.of(), v3.migrationsFrom(3), "the current version: nothing to do");
        MachineException missing = assertThrows(MachineException.class, () -> v3.migrationsFrom(0));
        assertTrue(missing.getMessage().contains("no migration from version 0 to 1"), missing.getMessage());
        MachineException newer = assertThrows(MachineException.class, () -> v3.migrationsFrom(4));
        assertTrue(newer.getMessage().contains("newer"), newer.getMessage());
    }

    @Test
    void aPathRenamedCarriesItsSubtreeARemovalTakesItAllAndTheLongestRuleWins() {
        Migration m = Migration.from(1).rename("patrol", "duty").rename("patrol.rest", "duty.nap").remove("alarm", "duty").forget("duty.h");
        assertEquals("duty.watch", m.pathOf("patrol.watch"));
        assertEquals("duty.nap.deep", m.pathOf("patrol.rest.deep"), "the longest rule names the subtree");
        assertEquals("duty", m.pathOf("alarm.ringing"), "a removal takes its whole subtree to one state");
        assertTrue(m.removes("alarm.ringing"));
        assertEquals("answer", m.pathOf("answer"), "a state not named keeps its path");
        assertEquals("patrolman", m.pathOf("patrolman"), "a rule names whole path segments only");
        assertNull(m.pathOf("duty.h"));
    }

    @Test
    void badDeclarationsAreRefusedWithWhatWasExpected() {
        assertTrue(assertThrows(IllegalArgumentException.class, () -> Migration.from(-1)).getMessage().contains("0 or more"));
        assertTrue(assertThrows(IllegalArgumentException.class, () -> Migration.from(1).rename("a", "a")).getMessage()
                .contains("expected a new name"));
        assertTrue(assertThrows(IllegalArgumentException.class, () -> Migration.from(1).rename("a", "b").remove("a", "c")).getMessage()
                .contains("each older state named once"));
        assertTrue(assertThrows(IllegalArgumentException.class, () -> Migration.from(1).rename("a.", "b")).getMessage()
                .contains("dotted path"));
        assertThrows(IllegalStateException.class, () -> Migration.from(1).context(Ctx::new, c -> c).context(Ctx::new, c -> c));

        InvalidMachineException e = assertThrows(InvalidMachineException.class, () -> Machine.define("bad", Ctx::new, m -> m
                .version(2, Migration.from(1).rename("a", "nowhere"), Migration.from(2), Migration.from(0), Migration.from(0))
                .initial("a").state("a")));
        String msg = e.getMessage();
        assertTrue(msg.contains("names 'nowhere', which is no state of version 2"), msg);
        assertTrue(msg.contains("the migration from version 2 leads to version 3, but the machine is version 2"), msg);
        assertTrue(msg.contains("two migrations from version 0"), msg);
        assertTrue(assertThrows(InvalidMachineException.class, () -> Machine.define("neg", Ctx::new, m -> m.version(-1)
                .initial("a").state("a"))).getMessage().contains("expected a version 0 or more"));
    }
}

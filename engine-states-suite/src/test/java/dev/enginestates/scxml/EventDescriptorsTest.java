package dev.enginestates.scxml;

import dev.enginestates.Machine;
import dev.enginestates.declare.Event;
import dev.enginestates.declare.InvalidMachineException;
import dev.enginestates.declare.MachineBuilder;
import dev.enginestates.declare.Semantics;
import dev.enginestates.declare.UnknownEventException;
import dev.enginestates.plain.StateMachine;
import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.List;
import java.util.function.Consumer;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Event descriptors: an exact type, {@code *}, {@code prefix.*} by whole dot-separated tokens
 * (XState v5's partial descriptors; SCXML 3.12.1's matching, which the importer writes as
 * {@code prefix.*}). Under {@code Semantics.SCXML} candidates keep document order whatever their
 * descriptor (SCXML 3.13); XState's order is pinned in {@code SemanticsTest}.
 */
class EventDescriptorsTest {
    static StateMachine<List<String>> start(Consumer<MachineBuilder<List<String>>> body) {
        return new StateMachine<>(Machine.define("d", ArrayList::new, body));
    }

    @Test
    void anExactType_matchesOnlyItself() {
        StateMachine<List<String>> sm = start(m -> m.state("a", s -> s.on("foo", "b").on("foo.bar", t -> t.action((l, e) -> l.add("fb"))))
                .state("b"));
        assertTrue(sm.send("foo.bar"));
        assertEquals("a", sm.state());
        assertTrue(sm.send("foo"));
        assertEquals("b", sm.state());
    }

    @Test
    void star_matchesEveryEvent_andTheMachineKnowsEveryEvent() {
        StateMachine<List<String>> sm = start(m -> m.state("a", s -> s.on("*", t -> t.action((l, e) -> l.add(e.type())))));
        assertTrue(sm.send("anything"));
        assertTrue(sm.send(Event.of("x.y.z")));
        assertEquals(List.of("anything", "x.y.z"), sm.context());
    }

    @Test
    void prefixStar_matchesThePrefixAndEveryEventBelowIt_byWholeTokens() {
        StateMachine<List<String>> sm = start(m -> m.state("a", s -> s.on("foo.*", t -> t.action((l, e) -> l.add(e.type()))))
                .on("other", t -> t.action((l, e) -> { })));
        assertTrue(sm.send("foo"));
        assertTrue(sm.send("foo.bar"));
        assertTrue(sm.send("foo.bar.baz"));
        assertEquals(List.of("foo", "foo.bar", "foo.bar.baz"), sm.context(), "the event received keeps its own type");
        assertThrows(UnknownEventException.class, () -> sm.send("foobar"), "not a token prefix");
    }

    @Test
    void underScxml_mixedDescriptors_keepDocumentOrder_theFirstEnabledWins() {
        StateMachine<List<String>> wildFirst = start(m -> m.semantics(Semantics.SCXML)
                .state("a", s -> s.on("foo.*", "w").on("foo.bar", "x").on("*", "s"))
                .state("w").state("x").state("s"));
        wildFirst.send("foo.bar");
        assertEquals("w", wildFirst.state());
        StateMachine<List<String>> exactFirst = start(m -> m.semantics(Semantics.SCXML)
                .state("a", s -> s.on("foo.bar", "x").on("foo.*", "w").on("*", "s"))
                .state("w").state("x").state("s"));
        exactFirst.send("foo.bar");
        assertEquals("x", exactFirst.state());
        StateMachine<List<String>> guarded = start(m -> m.semantics(Semantics.SCXML)
                .state("a", s -> s.on("*", t -> t.target("s").guard((l, e) -> false)).on("foo.bar", t -> t.target("x").guard((l, e) -> false))
                        .on("foo.*", "w"))
                .state("w").state("x").state("s"));
        guarded.send("foo.bar");
        assertEquals("w", guarded.state());
    }

    @Test
    void underScxml_theLongerPrefix_andTheShorterOne_bothMatch_inDocumentOrder() {
        StateMachine<List<String>> sm = start(m -> m.semantics(Semantics.SCXML)
                .state("a", s -> s.on("a.*", t -> t.target("short").guard((l, e) -> !e.type().equals("a.b.c"))).on("a.b.*", "long"))
                .state("short").state("long"));
        sm.send("a.b.c");
        assertEquals("long", sm.state());
        StateMachine<List<String>> sm2 = start(m -> m.semantics(Semantics.SCXML)
                .state("a", s -> s.on("a.*", t -> t.target("short").guard((l, e) -> !e.type().equals("a.b.c"))).on("a.b.*", "long"))
                .state("short").state("long"));
        sm2.send("a.b.d");
        assertEquals("short", sm2.state());
    }

    @Test
    void aDescendantsWildcard_winsOverAnAncestorsExactType() {
        StateMachine<List<String>> sm = start(m -> m
                .state("p", p -> p.on("go", "q").state("c", s -> s.on("*", t -> t.action((l, e) -> l.add("c")))))
                .state("q"));
        sm.send("go");
        assertEquals("p.c", sm.state(), "the deepest state that takes the event wins, whatever its descriptor");
    }

    @Test
    void theUnknownEventError_listsTheDescriptorsAsWritten() {
        StateMachine<List<String>> sm = start(m -> m.state("a", s -> s.on("foo.*", "b").on("BAR", "b")).state("b"));
        UnknownEventException e = assertThrows(UnknownEventException.class, () -> sm.send("baz"));
        assertEquals(List.of("foo.*", "BAR"), e.knownEvents());
        assertEquals("a", sm.state());
    }

    @Test
    void aWildcardAnywhereButAtTheEndOfAPrefix_isInvalid() {
        InvalidMachineException e = assertThrows(InvalidMachineException.class,
                () -> Machine.define("d", ArrayList::new, m -> m.state("a", s -> s.on("foo*", "b").on("*.bar", "b").on("a.*.c", "b"))
                        .state("b")));
        assertEquals(3, e.problems().size(), e.getMessage());
        assertTrue(e.getMessage().contains("'foo*'") && e.getMessage().contains("'prefix.*'"), e.getMessage());
    }

    @Test
    void aStarTransition_alsoSeesInternalDoneEvents_afterOnDone() {
        // XState v5 selects done events like any event, so '*' matches xstate.done.state.<id>
        StateMachine<List<String>> sm = start(m -> m
                .state("p", p -> p.initial("f").finalState("f"))
                .on("*", t -> t.action((l, e) -> l.add(e.type()))));
        assertEquals(List.of("xstate.done.state.d.p"), sm.context());
        assertFalse(sm.isDone());
    }
}

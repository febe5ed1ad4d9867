package dev.enginestates;

import dev.enginestates.declare.MachineBuilder;
import dev.enginestates.declare.Semantics;
import dev.enginestates.declare.UserCodeException;
import dev.enginestates.plain.StateMachine;
import dev.enginestates.scxml.Datamodel;
import dev.enginestates.scxml.ScxmlImport;
import dev.enginestates.xstate.XStateExport;
import dev.enginestates.xstate.XStateImport;
import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.List;
import java.util.function.Consumer;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Issue 17: the two rules where XState v5 and SCXML differ ({@link Semantics}), each pinned under
 * both. XState's order is its {@code getCandidates} ({@code packages/core/src/stateUtils.ts}) as
 * published in xstate 5.33.3, the release the conformance traces were recorded with: the exact
 * type's transitions, then every matching partial descriptor's, longest first. (Older v5 sources,
 * 5.20 for one, took the wildcards only when the state had no transition for the exact type.) The
 * machine {@link #MIXED} was run on xstate 5.33.3 with node: {@code foo} went to {@code c},
 * {@code foo.bar} to {@code b}, {@code foo.baz} to {@code c}, {@code x} to {@code a}. SCXML's order
 * is W3C SCXML 1.0 section 3.13 ({@code selectTransitions}: the first enabled transition in
 * document order).
 */
class SemanticsTest {
    private static StateMachine<List<String>> start(Semantics semantics, Consumer<MachineBuilder<List<String>>> body) {
        return new StateMachine<>(Machine.define("sem", ArrayList::new, m -> {
            if (semantics != null) {
                m.semantics(semantics);
            }
            body.accept(m);
        }));
    }

    private static String after(Semantics semantics, Consumer<MachineBuilder<List<String>>> body, String event) {
        StateMachine<List<String>> sm = start(semantics, body);
        sm.send(event);
        return sm.state();
    }

    /** A wildcard, a partial descriptor, an exact type whose only transition is refused, another exact type. */
    private static final Consumer<MachineBuilder<List<String>>> MIXED = m -> m
            .state("s", s -> s.on("*", "a").on("foo.*", "c").on("foo", t -> t.target("d").guard((l, e) -> false)).on("foo.bar", "b"))
            .state("a").state("b").state("c").state("d");

    @Test
    void xstate_tries_exact_type_before_wildcards_longest_first() {
        assertEquals("b", after(null, MIXED, "foo.bar"), "the exact type, though written last");
        assertEquals("c", after(null, MIXED, "foo"), "the exact type's guard refused: then foo.*, longer than *");
        assertEquals("c", after(null, MIXED, "foo.baz"), "no exact type: foo.* before *");
        assertEquals("a", after(null, MIXED, "x"), "only * matches");
        assertEquals("b", after(Semantics.XSTATE, MIXED, "foo.bar"), "XSTATE is the default");
        Consumer<MachineBuilder<List<String>>> shortFirst = m -> m
                .state("s", s -> s.on("a.*", "short").on("a.b.*", "long")).state("short").state("long");
        assertEquals("long", after(null, shortFirst, "a.b.c"), "the longer descriptor, though written after");
        Consumer<MachineBuilder<List<String>>> exactTwice = m -> m
                .state("s", s -> s.on("*", "star").on("go", t -> t.target("first").guard((l, e) -> false)).on("go", "second"))
                .state("star").state("first").state("second");
        assertEquals("second", after(null, exactTwice, "go"), "an exact type's own transitions in the order written");
    }

    @Test
    void scxml_tries_transitions_in_document_order() {
        assertEquals("a", after(Semantics.SCXML, MIXED, "foo.bar"), "* is written first and matches everything");
        Consumer<MachineBuilder<List<String>>> starLast = m -> m
                .state("s", s -> s.on("foo.*", "c").on("foo", t -> t.target("d").guard((l, e) -> false)).on("foo.bar", "b").on("*", "a"))
                .state("a").state("b").state("c").state("d");
        assertEquals("c", after(Semantics.SCXML, starLast, "foo.bar"), "foo.* comes before the exact type in the document");
        assertEquals("b", after(Semantics.XSTATE, starLast, "foo.bar"));
        assertEquals("a", after(Semantics.SCXML, starLast, "x"));
        Consumer<MachineBuilder<List<String>>> shortFirst = m -> m
                .state("s", s -> s.on("a.*", "short").on("a.b.*", "long")).state("short").state("long");
        assertEquals("short", after(Semantics.SCXML, shortFirst, "a.b.c"), "the first written, though shorter");
    }

    @Test
    void both_take_the_deepest_state_first_whatever_its_descriptor() {
        for (Semantics semantics : Semantics.values()) {
            Consumer<MachineBuilder<List<String>>> body = m -> m
                    .state("p", p -> p.on("go", "q").state("c", c -> c.on("*", t -> t.action((l, e) -> l.add("c")))))
                    .state("q");
            assertEquals("p.c", after(semantics, body, "go"), semantics + ": a child's * before its parent's exact type");
        }
    }

    /** A counter that a targetless eventless transition counts up to 3, and a state that leaves at 3. */
    private static Machine<int[]> counter(Semantics semantics) {
        return Machine.define("counter", () -> new int[1], m -> m.semantics(semantics)
                .state("idle", s -> s.on("GO", "counting"))
                .state("counting", s -> s
                        .always(t -> t.guard((n, e) -> n[0] == 3).target("done"))
                        .always(t -> t.guard((n, e) -> n[0] < 3).action((n, e) -> n[0]++)))
                .state("done"));
    }

    @Test
    void xstate_looks_for_eventless_again_only_after_a_microstep_that_changed_the_configuration() {
        StateMachine<int[]> m = new StateMachine<>(counter(Semantics.XSTATE));
        m.send("GO");
        assertEquals(1, m.context()[0], "the targetless step changed no configuration, so no new snapshot to look at");
        assertEquals("counting", m.state());
    }

    @Test
    void scxml_looks_for_eventless_after_every_microstep_that_ran_an_action() {
        // W3C SCXML 3.13 mainEventLoop: eventless transitions are looked for after every microstep
        StateMachine<int[]> m = new StateMachine<>(counter(Semantics.SCXML));
        m.send("GO");
        assertEquals(3, m.context()[0]);
        assertEquals("done", m.state(), "the counting went on within the macrostep");
    }

    /** idle, then p with its child c: each entry action writes what isIn says of the states entered with it. */
    private static StateMachine<List<String>> entering(Semantics semantics, boolean cThrows) {
        return start(semantics, m -> m
                .entry((l, e, self) -> l.add("root sees idle:" + self.isIn("idle")))
                .state("idle", s -> s.on("GO", "p"))
                .state("p", p -> p.initial("c")
                        .entry((l, e, self) -> l.add("p sees p:" + self.isIn("p") + " p.c:" + self.isIn("p.c")))
                        .state("c", c -> c.entry((l, e, self) -> {
                            l.add("c sees p.c:" + self.isIn("p.c"));
                            if (cThrows) {
                                throw new IllegalStateException("c's entry action");
                            }
                        }))));
    }

    @Test
    void by_default_a_microstep_enters_and_leaves_its_whole_configuration_before_its_actions() {
        // not XState's own answer: xstate 5.33.3 answers stateIn in an action (enqueueActions' check) from the
        // snapshot before the microstep (checked with node: p's entry sees neither p nor p.c, p's exit both)
        StateMachine<List<String>> sm = entering(Semantics.XSTATE, false);
        sm.send("GO");
        assertEquals(List.of("root sees idle:true", "p sees p:true p.c:true", "c sees p.c:true"), sm.context());
        StateMachine<List<String>> leaving = leaving(Semantics.XSTATE);
        leaving.send("NEXT");
        assertEquals(List.of("c left sees p:false p.c:false q:true", "p left sees p:false p.c:false q:true", "q sees p:false q:true"),
                leaving.context());
    }

    @Test
    void scxml_adds_each_state_to_the_configuration_just_before_its_own_entry_actions() {
        // W3C SCXML 3.13 enterStates (W3C test 411): an ancestor's onentry does not see the child entered with it
        StateMachine<List<String>> sm = entering(Semantics.SCXML, false);
        assertEquals(List.of("root sees idle:false"), sm.context(), "at the start too: idle joins after the root's entry");
        sm.send("GO");
        assertEquals(List.of("root sees idle:false", "p sees p:true p.c:false", "c sees p.c:true"), sm.context());
        assertTrue(sm.matches("p.c"), "the configuration is whole once the actions have run");
    }

    /** p with its child c, left for q: each exit action and q's entry write what isIn says. */
    private static StateMachine<List<String>> leaving(Semantics semantics) {
        return start(semantics, m -> m
                .state("p", p -> p.initial("c")
                        .exit((l, e, self) -> l.add("p left sees p:" + self.isIn("p") + " p.c:" + self.isIn("p.c") + " q:" + self.isIn("q")))
                        .state("c", c -> c.exit((l, e, self) -> l.add("c left sees p:" + self.isIn("p") + " p.c:" + self.isIn("p.c")
                                + " q:" + self.isIn("q"))))
                        .on("NEXT", "q"))
                .state("q", q -> q.entry((l, e, self) -> l.add("q sees p:" + self.isIn("p") + " q:" + self.isIn("q")))
                        .on("BACK", t -> t.target("q").reenter())
                        .exit((l, e, self) -> l.add("q left sees q:" + self.isIn("q")))));
    }

    @Test
    void scxml_removes_each_state_from_the_configuration_just_after_its_own_exit_actions() {
        // W3C SCXML 3.13 exitStates: a state's onexit runs while it (and its ancestors) are still active
        StateMachine<List<String>> sm = leaving(Semantics.SCXML);
        sm.send("NEXT");
        assertEquals(List.of("c left sees p:true p.c:true q:false", "p left sees p:true p.c:false q:false", "q sees p:false q:true"),
                sm.context());
        sm.context().clear();
        sm.send("BACK");
        assertEquals(List.of("q left sees q:true", "q sees p:false q:true"), sm.context(), "left and entered again in one microstep");
        assertTrue(sm.matches("q"));
    }

    @Test
    void scxml_order_an_entry_or_exit_action_that_throws_leaves_the_configuration_as_the_microstep_made_it() {
        StateMachine<List<String>> sm = start(Semantics.SCXML, m -> m
                .state("idle", s -> s.on("GO", "p"))
                .state("p", p -> p.initial("c")
                        .entry((l, e, self) -> {
                            throw new IllegalStateException("p's entry action");
                        })
                        .state("c", c -> c.state("c1")).on("NEXT", "q"))
                .state("q", q -> q.entry((l, e, self) -> l.add("q sees q:" + self.isIn("q")))));
        UserCodeException e = assertThrows(UserCodeException.class, () -> sm.send("GO"));
        assertTrue(e.getMessage().contains("p's entry") || e.getCause().getMessage().contains("p's entry"), e.getMessage());
        assertTrue(sm.matches("p.c.c1") && sm.matches("p.c") && sm.matches("p"), "the states after the throw are shown again");
        assertTrue(sm.send("NEXT"), "the machine goes on from its whole configuration");
        assertEquals(List.of("q sees q:true"), sm.context());
        StateMachine<List<String>> thrown = entering(Semantics.SCXML, true);
        assertThrows(UserCodeException.class, () -> thrown.send("GO"));
        assertTrue(thrown.matches("p.c"));
        StateMachine<List<String>> exitThrows = start(Semantics.SCXML, m -> m
                .state("p", p -> p.initial("c")
                        .state("c", c -> c.exit((l, ev, self) -> {
                            throw new IllegalStateException("c's exit action");
                        }))
                        .on("NEXT", "q"))
                .state("q"));
        assertThrows(UserCodeException.class, () -> exitThrows.send("NEXT"));
        assertTrue(exitThrows.matches("q") && !exitThrows.matches("p") && !exitThrows.matches("p.c"),
                "the states left after the throw are gone too");
    }

    @Test
    void semantics_null_is_refused_when_declared() {
        NullPointerException e = assertThrows(NullPointerException.class,
                () -> Machine.define("sem", ArrayList::new, m -> m.semantics(null).state("a")));
        assertEquals("semantics", e.getMessage());
    }

    @Test
    void the_xstate_json_import_follows_xstate_and_so_does_what_its_export_reads_back() {
        String json = """
                {"id": "imp", "initial": "s", "states": {
                  "s": {"on": {"*": "a", "foo.*": "c", "foo.bar": "b"}}, "a": {}, "b": {}, "c": {}}}""";
        Machine<List<String>> imported = XStateImport.<List<String>>withContext(ArrayList::new).parse(json);
        StateMachine<List<String>> sm = new StateMachine<>(imported);
        sm.send("foo.bar");
        assertEquals("b", sm.state(), "XState's order: * written first does not win");
        StateMachine<List<String>> again = new StateMachine<>(XStateImport.<List<String>>withContext(ArrayList::new)
                .parse(XStateExport.toJson(imported)));
        again.send("foo.baz");
        assertEquals("c", again.state());
    }

    @Test
    void the_scxml_import_follows_scxml() {
        // event="foo" is SCXML's prefix descriptor (foo.*), longer than * but written after it
        Machine<Datamodel> m = ScxmlImport.create().read("""
                <scxml xmlns="http://www.w3.org/2005/07/scxml" version="1.0" datamodel="null">
                  <state id="s"><transition event="*" target="a"/><transition event="foo" target="f"/></state>
                  <state id="a"/><state id="f"/>
                </scxml>""");
        StateMachine<Datamodel> sm = new StateMachine<>(m);
        sm.send("foo");
        assertEquals("a", ScxmlImport.stateId(sm.state()), "the first in document order");
    }
}

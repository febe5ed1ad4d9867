package dev.enginestates.scxml;

import dev.dominion.ecs.api.Entity;
import dev.enginestates.declare.InvalidMachineException;
import dev.enginestates.ecs.StateWorld;
import dev.enginestates.ecs.States;
import dev.enginestates.plain.StateMachine;
import dev.enginestates.records.Access;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;
import java.util.stream.Collectors;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** Issue 17: {@code <invoke>} of SCXML children (W3C SCXML 6.4, 6.5), on a plain machine. */
class InvokeTest {
    private final List<String> log = new ArrayList<>();

    /** An SCXML document with the ECMAScript datamodel around {@code body} (shared with {@link ResolverFaultsTest}). */
    static String doc(String body) {
        return "<scxml xmlns=\"http://www.w3.org/2005/07/scxml\" version=\"1.0\" datamodel=\"ecmascript\">\n" + body + "\n</scxml>";
    }

    private static String child(String body) {
        return "<content>" + doc(body) + "</content>";
    }

    private StateMachine<Datamodel> run(String body) {
        return new StateMachine<>(ScxmlImport.create().log((l, v) -> log.add(l + "=" + v)).read(doc(body)));
    }

    private static Set<String> leaves(StateMachine<Datamodel> m) {
        return m.leaves().stream().map(ScxmlImport::stateId).collect(Collectors.toCollection(TreeSet::new));
    }

    private static Object value(StateMachine<Datamodel> m, String expr) {
        Datamodel dm = m.context();
        return dm.toJava(dm.evaluate(expr));
    }

    /** The clock jumps from one pending send to the next, as ScxmlSuite's does. */
    private static void idle(StateMachine<Datamodel> m, double seconds) {
        ScxmlSuite.advance(m, seconds);
    }

    @Test
    void aChildsEventsReachItsParentWithTheInvokeidAndItsOrigin() {
        StateMachine<Datamodel> m = run("""
                <datamodel><data id="inv"/><data id="origin"/></datamodel>
                <state id="s0">
                  <invoke id="kid">""" + child("""
                    <state id="c"><onentry><send target="#_parent" event="hello"/></onentry></state>
                  """) + """
                  </invoke>
                  <transition event="hello" target="ok">
                    <assign location="inv" expr="_event.invokeid"/><assign location="origin" expr="_event.origin"/>
                  </transition>
                </state>
                <state id="ok"/>
                """);
        assertEquals(Set.of("ok"), leaves(m), "SCXML 6.4: #_parent puts the event on the parent's external queue");
        assertEquals("kid", value(m, "inv"), "SCXML 5.10.1: _event.invokeid names the child");
        assertTrue(String.valueOf(value(m, "origin")).startsWith("#_scxml_s"), "the child's own session id");
        assertTrue(!value(m, "origin").equals("#_scxml_" + value(m, "_sessionid")), "not the parent's");
    }

    @Test
    void aChildStartsAfterTheMacrostepThatEnteredItsStateBeforeTheNextExternalEvent() {
        // SCXML 3.13 mainEventLoop: invokes of the states entered start once the macrostep is over, before the
        // next external event (here one the parent sent itself from the same onentry); a state entered and left
        // in one macrostep starts none (W3C test 250's order)
        StateMachine<Datamodel> m = run("""
                <state id="passing">
                  <invoke>""" + child("""
                    <state id="c"><onentry><log label="never" expr="1"/></onentry></state>
                  """) + """
                  </invoke>
                  <transition target="s0"/>
                </state>
                <state id="s0">
                  <onentry><send event="foo"/><log label="parent entered" expr="1"/></onentry>
                  <invoke>""" + child("""
                    <state id="c">
                      <onentry><log label="child started" expr="1"/></onentry>
                      <onexit><log label="child cancelled" expr="1"/></onexit>
                    </state>
                  """) + """
                  </invoke>
                  <transition event="foo" target="done"><log label="foo" expr="1"/></transition>
                </state>
                <state id="done"/>
                """);
        assertEquals(Set.of("done"), leaves(m));
        assertEquals(List.of("parent entered=1.0", "child started=1.0", "child cancelled=1.0", "foo=1.0"), log);
    }

    @Test
    void leavingTheStateCancelsTheChildAndWhatItHasNotYetDelivered() {
        // SCXML 6.4: the invoking state exits, the child is cancelled; its later events are ignored (W3C 187, 237)
        StateMachine<Datamodel> m = run("""
                <state id="s0">
                  <onentry><send event="leave" delay="1s"/></onentry>
                  <invoke>""" + child("""
                    <state id="c">
                      <onentry><send target="#_parent" event="late" delay="2s"/><send event="tick" delay="1.5s"/></onentry>
                      <transition event="tick" target="f"/>
                    </state>
                    <final id="f"/>
                  """) + """
                  </invoke>
                  <transition event="leave" target="s1"/>
                </state>
                <state id="s1">
                  <transition event="late" target="wrong"/>
                  <transition event="done.invoke" target="wrong"/>
                </state>
                <state id="wrong"/>
                """);
        assertEquals(3, Access.record(m).sendCount(), "leave, and the child's two sends, all on the top machine's clock");
        idle(m, 5);
        assertEquals(Set.of("s1"), leaves(m), "neither the child's delayed send nor its done.invoke arrived");
        assertEquals(0, Access.record(m).sendCount());
    }

    @Test
    void doneInvokeComesAfterTheChildsLastEventsWithItsDonedata() {
        // SCXML 6.4: done.invoke.<id> when the child reaches a top-level final; its data is the final's donedata (W3C 232, 236)
        StateMachine<Datamodel> m = run("""
                <datamodel><data id="got"/></datamodel>
                <state id="s0" initial="a">
                  <invoke id="k">""" + child("""
                    <final id="f">
                      <onentry><send target="#_parent" event="one"/></onentry>
                      <onexit><send target="#_parent" event="two"/></onexit>
                      <donedata><param name="n" expr="42"/></donedata>
                    </final>
                  """) + """
                  </invoke>
                  <state id="a"><transition event="one" target="b"/></state>
                  <state id="b"><transition event="two" target="c"/></state>
                  <state id="c"><transition event="done.invoke.k" target="end"><assign location="got" expr="_event.data.n"/></transition></state>
                </state>
                <state id="end"/>
                """);
        assertEquals(Set.of("end"), leaves(m));
        assertEquals(42.0, ((Number) value(m, "got")).doubleValue());
    }

    @Test
    void aSendToTheInvokeidReachesTheChildAndToOneNotRunningIsErrorCommunication() {
        // SCXML 6.2.4: a session that cannot be reached is error.communication: here before the child starts
        // (it starts after the macrostep that entered s0) and after it has ended
        StateMachine<Datamodel> m = run("""
                <datamodel><data id="errors" expr="0"/></datamodel>
                <state id="s0" initial="a">
                  <onentry><send target="#_k" event="early"/></onentry>
                  <invoke id="k">""" + child("""
                    <state id="c">
                      <onentry><send target="#_parent" event="ready"/></onentry>
                      <transition event="ping" target="f"><send target="#_parent" event="pong"/></transition>
                      <transition event="early" target="f"/>
                    </state>
                    <final id="f"/>
                  """) + """
                  </invoke>
                  <transition event="error.communication"><assign location="errors" expr="errors + 1"/></transition>
                  <state id="a"><transition event="ready" target="b"><send target="#_k" event="ping"/></transition></state>
                  <state id="b"><transition event="pong" target="c"/></state>
                  <state id="c"><transition event="done.invoke.k" target="d"/></state>
                  <state id="d">
                    <onentry><send target="#_k" event="ping"/></onentry>
                    <transition event="error.communication" target="end"/>
                  </state>
                </state>
                <state id="end"/>
                """);
        assertEquals(Set.of("end"), leaves(m));
        assertEquals(1.0, ((Number) value(m, "errors")).doubleValue(), "the send before the child started");
    }

    @Test
    void namelistAndParamsReplaceTheChildsDataOfThoseIds() {
        StateMachine<Datamodel> m = run("""
                <datamodel><data id="x" expr="7"/><data id="sum"/></datamodel>
                <state id="s0">
                  <invoke namelist="x"><param name="y" expr="x * 10"/>""" + child("""
                    <datamodel><data id="x" expr="1"/><data id="y" expr="2"/></datamodel>
                    <state id="c"><onentry><send target="#_parent" event="sum"><param name="v" expr="x + y"/></send></onentry></state>
                  """) + """
                  </invoke>
                  <transition event="sum" target="end"><assign location="sum" expr="_event.data.v"/></transition>
                </state>
                <state id="end"/>
                """);
        assertEquals(77.0, ((Number) value(m, "sum")).doubleValue(), "SCXML 6.4.1 (W3C 226, 240)");
    }

    @Test
    void finalizeRunsOnTheChildsEventBeforeItsTransitionsAreSelected() {
        StateMachine<Datamodel> m = run("""
                <datamodel><data id="v" expr="0"/></datamodel>
                <state id="s0">
                  <invoke>""" + child("""
                    <state id="c"><onentry><send target="#_parent" event="update"><param name="v" expr="5"/></send></onentry></state>
                  """) + """
                    <finalize><assign location="v" expr="_event.data.v"/></finalize>
                  </invoke>
                  <transition event="update" cond="v == 5" target="ok"/>
                  <transition event="update" target="wrong"/>
                </state>
                <state id="ok"/><state id="wrong"/>
                """);
        assertEquals(Set.of("ok"), leaves(m), "SCXML 6.5: finalize runs before the event is processed (W3C 233)");
    }

    @Test
    void autoforwardCopiesEveryExternalEventToTheChild() {
        StateMachine<Datamodel> m = run("""
                <state id="s0">
                  <invoke autoforward="true">""" + child("""
                    <state id="c"><transition event="poke" target="f"><send target="#_parent" event="poked"/></transition></state>
                    <final id="f"/>
                  """) + """
                  </invoke>
                  <invoke>""" + child("""
                    <state id="c"><transition event="poke" target="f"><send target="#_parent" event="wrong"/></transition></state>
                    <final id="f"/>
                  """) + """
                  </invoke>
                  <transition event="poked" target="ok"/>
                  <transition event="wrong" target="wrong"/>
                </state>
                <state id="ok"/><state id="wrong"/>
                """);
        m.send("poke");
        assertEquals(Set.of("ok"), leaves(m), "SCXML 6.4: autoforward sends the child a copy; without it, nothing");
    }

    @Test
    void anUnsupportedTypeIsErrorExecutionAndStartsNoChild() {
        StateMachine<Datamodel> m = run("""
                <state id="s0">
                  <invoke type="http://example.com/other">""" + child("""
                    <state id="c"><onentry><send target="#_parent" event="started"/></onentry></state>
                  """) + """
                  </invoke>
                  <transition event="error.execution" target="ok"/>
                  <transition event="started" target="wrong"/>
                </state>
                <state id="ok"/><state id="wrong"/>
                """);
        assertEquals(Set.of("ok"), leaves(m), "SCXML 6.4: a type the processor does not support");
        idle(m, 1);
        assertEquals(Set.of("ok"), leaves(m));
    }

    @Test
    void idlocationGetsStateidDotPlatformid() {
        StateMachine<Datamodel> m = run("""
                <datamodel><data id="where"/></datamodel>
                <state id="s0"><invoke idlocation="where">""" + child("<state id=\"c\"/>") + "</invoke></state>");
        assertTrue(String.valueOf(value(m, "where")).startsWith("s0."), "SCXML 6.4.1 (W3C 224): " + value(m, "where"));
    }

    @Test
    void srcResolvesAgainstTheDocumentThroughTheResolverAndNeverOverTheNetwork(@TempDir Path dir) throws IOException {
        Files.writeString(dir.resolve("kid.scxml"), doc("<state id=\"c\"><onentry><send target=\"#_parent\" event=\"hi\"/></onentry></state>"));
        Path parent = dir.resolve("parent.scxml");
        Files.writeString(parent, doc("""
                <datamodel><data id="name" expr="'kid.scxml'"/></datamodel>
                <state id="s0"><invoke src="file:kid.scxml"/><transition event="hi" target="s1"/></state>
                <state id="s1"><invoke srcexpr="name"/><transition event="hi" target="ok"/></state>
                <state id="ok"/>
                """));
        StateMachine<Datamodel> m = new StateMachine<>(ScxmlImport.create().resolver(ScxmlResolver.files(dir)).read(parent));
        assertEquals(Set.of("ok"), leaves(m), "a static src at import, a srcexpr when the invoke starts");

        InvalidMachineException none = assertThrows(InvalidMachineException.class, () -> ScxmlImport.create().read(parent));
        assertTrue(none.problems().get(0).contains("no resolver"), none.problems()::toString);

        Files.writeString(parent, doc("<state id=\"s0\"><invoke src=\"http://example.com/kid.scxml\"/></state>"));
        List<String> asked = new ArrayList<>();
        InvalidMachineException net = assertThrows(InvalidMachineException.class, () -> ScxmlImport.create()
                .resolver(uri -> {
                    asked.add(uri.toString());
                    return "";
                }).read(parent));
        assertTrue(net.problems().get(0).contains("network address"), net.problems()::toString);
        assertEquals(List.of(), asked, "the resolver is never asked for a network address");
    }

    @Test
    void aSrcexprThatCannotBeLoadedIsErrorExecution(@TempDir Path dir) throws IOException {
        Path parent = dir.resolve("parent.scxml");
        Files.writeString(parent, doc("""
                <state id="s0"><invoke srcexpr="'missing.scxml'"/><transition event="error.execution" target="ok"/></state>
                <state id="ok"/>
                """));
        StateMachine<Datamodel> m = new StateMachine<>(ScxmlImport.create().resolver(ScxmlResolver.files(dir)).read(parent));
        assertEquals(Set.of("ok"), leaves(m));
    }

    @Test
    void anInvalidInlineChildIsRefusedAtImportWithTheInvokesLine() {
        InvalidMachineException e = assertThrows(InvalidMachineException.class, () -> ScxmlImport.create().read(doc("""
                <state id="s0">
                  <invoke>""" + child("<state id=\"c\"><transition event=\"t\" target=\"nowhere\"/></state>") + """
                  </invoke>
                </state>
                """)));
        assertTrue(e.problems().get(0).startsWith("line 3: in the invoked document"), e.problems()::toString);
        assertTrue(e.problems().get(0).contains("'nowhere'"), e.problems()::toString);
    }

    @Test
    void aGrandchildsEventsReachTheChildThroughTheTopMachinesQueue() {
        StateMachine<Datamodel> m = run("""
                <state id="s0">
                  <invoke>""" + child("""
                    <state id="c">
                      <invoke>""" + "<content><scxml xmlns=\"http://www.w3.org/2005/07/scxml\" version=\"1.0\" datamodel=\"ecmascript\">"
                + "<state id=\"g\"><onentry><send target=\"#_parent\" event=\"up\" delay=\"1s\"/></onentry></state></scxml></content>" + """
                      </invoke>
                      <transition event="up" target="f"><send target="#_parent" event="relayed"/></transition>
                    </state>
                    <final id="f"/>
                  """) + """
                  </invoke>
                  <transition event="relayed" target="ok"/>
                </state>
                <state id="ok"/>
                """);
        assertEquals(Set.of("s0"), leaves(m));
        idle(m, 2);
        assertEquals(Set.of("ok"), leaves(m));
    }

    @Test
    void aChildRunsOnAnEntityOnTheWorldsClock() {
        States<Datamodel> door = States.of(ScxmlImport.create().read(doc("""
                <state id="closed"><transition event="open" target="open"/></state>
                <state id="open">
                  <invoke>""" + child("""
                    <state id="c"><onentry><send target="#_parent" event="close" delay="1s"/></onentry></state>
                  """) + """
                  </invoke>
                  <transition event="close" target="closed"/>
                </state>
                """)));
        try (StateWorld world = StateWorld.create()) {
            Entity e = world.spawn(dev.enginestates.ecs.EntityKey.of("door"), door.trait());
            door.send(e, "open");
            world.step(1.0 / 60);
            assertTrue(door.read(e).matches("open"));
            for (int i = 0; i < 70; i++) {
                world.step(1.0 / 60);
            }
            assertTrue(door.read(e).matches("closed"), "the child's delayed send came on the world's clock");
            door.send(e, "open");
            world.step(1.0 / 60);
            dev.enginestates.io.Saves saves = dev.enginestates.io.Saves.of(door);
            assertTrue(saves.checkpoint(world).contains("\"invoked\""), "the running child is in the checkpoint");
            door.send(e, "close");
            assertTrue(saves.checkpoint(world).contains("closed"), "saved again once no invoking state is active");
        }
    }

    @Test
    void aChildWhoseCodeFailsEndsAndItsParentGoesOn() {
        StateMachine<Datamodel> m = run("""
                <datamodel><data id="errors" expr="0"/></datamodel>
                <state id="idle"><transition event="go" target="s0"/></state>
                <state id="s0">
                  <invoke id="k">""" + child("""
                    <state id="a"><transition target="b"/></state>
                    <state id="b"><transition target="a"/></state>
                  """) + """
                  </invoke>
                  <transition event="ping"><send target="#_k" event="x"/></transition>
                  <transition event="error.communication" target="ok"/>
                </state>
                <state id="ok"/>
                """);
        RuntimeException failure = assertThrows(RuntimeException.class, () -> m.send("go"));
        assertTrue(failure.getMessage().contains("machine 'scxml/invoke@5'"), "names the child's machine: " + failure.getMessage());
        assertTrue(failure.getCause() instanceof dev.enginestates.declare.EventlessLoopException, failure::toString);
        assertEquals(Set.of("s0"), leaves(m), "the parent entered s0; its child's cycle ended the child");
        m.send("ping");
        assertEquals(Set.of("ok"), leaves(m), "the ended child cannot be reached: error.communication");
    }
}

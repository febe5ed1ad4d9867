package dev.enginestates.scxml;

import dev.dominion.ecs.api.Entity;
import dev.enginestates.Machine;
import dev.enginestates.declare.Event;
import dev.enginestates.declare.InvalidMachineException;
import dev.enginestates.ecs.StateWorld;
import dev.enginestates.ecs.States;
import dev.enginestates.plain.StateMachine;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.stream.Collectors;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** Issue 17: the SCXML import, its datamodels and what it refuses. */
class ScxmlImportTest {
    private static String doc(String datamodel, String body) {
        return "<scxml xmlns=\"http://www.w3.org/2005/07/scxml\" version=\"1.0\""
                + (datamodel == null ? "" : " datamodel=\"" + datamodel + "\"") + ">\n" + body + "\n</scxml>";
    }

    private static Set<String> leaves(StateMachine<Datamodel> m) {
        return m.leaves().stream().map(ScxmlImport::stateId).collect(Collectors.toCollection(TreeSet::new));
    }

    @Test
    void statesParallelHistoryAndEventlessTransitionsRunAsTheDocumentSays() {
        Machine<Datamodel> m = ScxmlImport.create().read(doc("null", """
                <state id="idle"><transition event="go" target="busy"/></state>
                <parallel id="busy">
                  <state id="left" initial="l1">
                    <history id="lh"/>
                    <state id="l1"><transition event="next" target="l2"/></state>
                    <state id="l2"/>
                  </state>
                  <state id="right"><state id="r1"><transition cond="In('l2')" target="r2"/></state><state id="r2"/></state>
                  <transition event="pause" target="paused"/>
                </parallel>
                <state id="paused"><transition event="resume" target="lh"/></state>
                """));
        StateMachine<Datamodel> sm = new StateMachine<>(m);
        assertEquals(Set.of("idle"), leaves(sm));
        sm.send("go");
        assertEquals(Set.of("l1", "r1"), leaves(sm));
        sm.send("next");
        assertEquals(Set.of("l2", "r2"), leaves(sm), "the eventless transition saw In('l2')");
        sm.send("pause");
        sm.send("resume");
        assertEquals(Set.of("l2", "r2"), leaves(sm), "the left region from its history (l2), so the right one moves on by In('l2')");
    }

    @Test
    void everyUnsupportedElementIsListedWithItsLineInOneError() {
        InvalidMachineException e = assertThrows(InvalidMachineException.class, () -> ScxmlImport.create().read(
                doc("ecmascript", """
                        <datamodel><data id="x" src="x.json"/></datamodel>
                        <state id="a">
                          <invoke type="scxml" src="child.scxml"/>
                          <onentry>
                            <script src="lib.js"/>
                          </onentry>
                          <transition event="t" target="nowhere"/>
                        </state>
                        """)));
        List<String> problems = e.problems();
        assertEquals(4, problems.size(), problems::toString);
        assertTrue(problems.get(0).startsWith("line 2: <data> src 'x.json' cannot be loaded") && problems.get(0).contains("no resolver"), problems::toString);
        assertTrue(problems.stream().anyMatch(p -> p.startsWith("line 4: <invoke>")), problems::toString);
        assertTrue(problems.stream().anyMatch(p -> p.startsWith("line 6: <script src>")));
        assertTrue(problems.stream().anyMatch(p -> p.startsWith("line 8: <transition> target 'nowhere'")));
    }

    @Test
    void anUnsupportedSendTypeIsErrorExecutionWhenItRunsNotAnImportProblem() {
        // SCXML 6.2.4: "If the SCXML Processor does not support the type that is specified, it MUST place the event
        // error.execution on the internal event queue"; the engine has the SCXML event I/O processor only (C.1)
        StateMachine<Datamodel> sm = new StateMachine<>(ScxmlImport.create().read(doc("ecmascript", """
                <datamodel><data id="reason"/></datamodel>
                <state id="a">
                  <onentry>
                    <send event="e" type="http://www.w3.org/TR/scxml/#BasicHTTPEventProcessor" target="http://example.com/"/>
                    <raise event="later"/>
                  </onentry>
                  <transition event="error.execution" target="b"><assign location="reason" expr="_event.data.reason"/></transition>
                  <transition event="*" target="wrong"/>
                </state>
                <state id="b"><transition event="later" target="wrong"/></state><state id="wrong"/>
                """)));
        assertEquals(Set.of("b"), leaves(sm), "error.execution, before the <raise> after it (which the error skipped)");
        Datamodel dm = sm.context();
        assertTrue(String.valueOf(dm.toJava(dm.evaluate("reason"))).contains("BasicHTTPEventProcessor"));
    }

    @Test
    void anUnsupportedSendTargetIsErrorExecutionThatEndsTheBlockWithTheSendid() {
        StateMachine<Datamodel> sm = new StateMachine<>(ScxmlImport.create().read(doc("ecmascript", """
                <datamodel><data id="n" expr="0"/><data id="sid"/><data id="seen"/></datamodel>
                <state id="a">
                  <onentry><send event="e" target="baz" idlocation="sid"/><assign location="n" expr="1"/></onentry>
                  <onentry><assign location="n" expr="n + 10"/></onentry>
                  <transition event="error.execution" target="b"><assign location="seen" expr="_event.sendid"/></transition>
                  <transition event="*" target="wrong"/>
                </state>
                <state id="b"/><state id="wrong"/>
                """)));
        assertEquals(Set.of("b"), leaves(sm), "SCXML 6.2.4: an unsupported target is error.execution at run time");
        Datamodel dm = sm.context();
        assertEquals(10.0, ((Number) dm.toJava(dm.evaluate("n"))).doubleValue(), "the send's block ended; the next ran");
        assertEquals(dm.toJava(dm.evaluate("sid")), dm.toJava(dm.evaluate("seen")), "the error carries the sendid");
    }

    @Test
    void anUnreachableScxmlSessionIsErrorCommunicationBeforeLaterInternalEvents() {
        StateMachine<Datamodel> sm = new StateMachine<>(ScxmlImport.create().read(doc("ecmascript", """
                <state id="a">
                  <onentry><send event="e" target="#_scxml_nobody"/><raise event="later"/></onentry>
                  <transition event="error.communication" target="b"/>
                  <transition event="*" target="wrong"/>
                </state>
                <state id="b"/><state id="wrong"/>
                """)));
        assertEquals(Set.of("b"), leaves(sm));
    }

    @Test
    void aDoctypeOrExternalEntityIsRefused() {
        String xxe = "<?xml version=\"1.0\"?>\n<!DOCTYPE scxml [<!ENTITY x SYSTEM \"file:///etc/passwd\">]>\n"
                + doc("null", "<state id=\"a\"><onentry><log expr=\"&x;\"/></onentry></state>");
        InvalidMachineException e = assertThrows(InvalidMachineException.class, () -> ScxmlImport.create().read(xxe));
        assertTrue(e.getMessage().contains("DOCTYPE"), e.getMessage());
    }

    @Test
    void malformedXmlIsRefusedWithItsLineAndColumn() {
        InvalidMachineException e = assertThrows(InvalidMachineException.class,
                () -> ScxmlImport.create().read(doc("null", "<state id=\"a\">\n</stat>")));
        assertTrue(e.getMessage().contains("line 3, column"), e.getMessage());
    }

    @Test
    void anUnknownDatamodelIsRefusedAndAnotherCanBeSupplied() {
        String text = doc("lua", "<state id=\"a\"><transition event=\"t\" cond=\"In('a')\" target=\"b\"/></state><state id=\"b\"/>");
        InvalidMachineException e = assertThrows(InvalidMachineException.class, () -> ScxmlImport.create().read(text));
        assertTrue(e.getMessage().contains("datamodel 'lua' is not supplied"), e.getMessage());
        StateMachine<Datamodel> sm = new StateMachine<>(ScxmlImport.create().datamodel("lua", NullDatamodel::new).read(text));
        sm.send("t");
        assertEquals(Set.of("b"), leaves(sm));
    }

    @Test
    void theNullDatamodelTestsInAndAnythingElseIsErrorExecution() {
        StateMachine<Datamodel> sm = new StateMachine<>(ScxmlImport.create().read(doc("null", """
                <state id="a">
                  <transition event="t" cond="x &gt; 1" target="wrong"/>
                  <transition event="error.execution" target="b"/>
                </state>
                <state id="b"><transition event="u" cond="!In('a')" target="c"/></state>
                <state id="wrong"/><state id="c"/>
                """)));
        sm.send("t");
        assertEquals(Set.of("b"), leaves(sm), "the cond failed: false, and error.execution raised");
        sm.send("u");
        assertEquals(Set.of("c"), leaves(sm));
    }

    @Test
    void anErrorInExecutableContentRaisesErrorExecutionAndEndsOnlyItsBlock() {
        List<Object> logs = new ArrayList<>();
        StateMachine<Datamodel> sm = new StateMachine<>(ScxmlImport.create().log((label, value) -> logs.add(value))
                .read(doc("ecmascript", """
                        <datamodel><data id="n" expr="0"/></datamodel>
                        <state id="a">
                          <onentry><assign location="n" expr="1"/><assign location="undeclared" expr="2"/><assign location="n" expr="99"/></onentry>
                          <onentry><log expr="n"/></onentry>
                          <transition event="error.execution" cond="_event.data.tagname == 'assign' &amp;&amp; _event.data.line == 4" target="b"/>
                        </state>
                        <state id="b"/>
                        """)));
        assertEquals(List.of(1.0), logs, "the first block stopped at the error; the second ran");
        assertEquals(Set.of("b"), leaves(sm), "error.execution, naming the element and its line");
    }

    @Test
    void theContextIsTheDatamodelAndJavaReadsItsVariables() {
        StateMachine<Datamodel> sm = new StateMachine<>(ScxmlImport.create().read(doc("ecmascript", """
                <datamodel><data id="hits" expr="0"/><data id="cfg">{"max": 2}</data></datamodel>
                <state id="up">
                  <transition event="hit" cond="hits + 1 &lt; cfg.max"><assign location="hits" expr="hits + 1"/></transition>
                  <transition event="hit" target="down"><assign location="hits" expr="hits + 1"/></transition>
                </state>
                <final id="down"/>
                """)));
        sm.send("hit");
        assertEquals(1.0, sm.context().toJava(sm.context().evaluate("hits")));
        sm.send("hit");
        assertTrue(sm.isDone());
        assertEquals(Map.of("max", 2.0), sm.context().toJava(sm.context().evaluate("cfg")));
    }

    @Test
    void anEventsFieldsFromJavaAreItsData() {
        StateMachine<Datamodel> sm = new StateMachine<>(ScxmlImport.create().read(doc("ecmascript", """
                <state id="a"><transition event="hit" cond="_event.data.damage &gt; 10 &amp;&amp; _event.type == 'external'" target="b"/></state>
                <state id="b"/>
                """)));
        sm.send(Event.of("hit", Map.of("damage", 5)));
        assertEquals(Set.of("a"), leaves(sm));
        sm.send(Event.of("hit", Map.of("damage", 20)));
        assertEquals(Set.of("b"), leaves(sm));
    }

    @Test
    void delayedSendsRunOnTheMachinesClockAndCancelRemovesThem() {
        StateMachine<Datamodel> sm = new StateMachine<>(ScxmlImport.create().read(doc("ecmascript", """
                <state id="a">
                  <onentry><send event="late" delay="2s" id="alarm"/><send event="soon" delayexpr="'500ms'"/></onentry>
                  <transition event="soon" target="b"/>
                </state>
                <state id="b">
                  <transition event="stop"><cancel sendid="alarm"/></transition>
                  <transition event="late" target="c"/>
                </state>
                <state id="c"/>
                """)));
        sm.step(0.4);
        assertEquals(Set.of("a"), leaves(sm));
        sm.step(0.2);
        assertEquals(Set.of("b"), leaves(sm));
        sm.send("stop");
        sm.step(5);
        assertEquals(Set.of("b"), leaves(sm), "the cancelled send never came");
    }

    @Test
    void aDescriptorMatchesItsEventAndEveryEventBelowIt() {
        StateMachine<Datamodel> sm = new StateMachine<>(ScxmlImport.create().read(doc("null", """
                <state id="a"><transition event="error" target="b"/></state>
                <state id="b"><transition event="x.y z" target="c"/></state>
                <state id="c"/>
                """)));
        sm.send("errorx");
        assertEquals(Set.of("a"), leaves(sm), "whole tokens only");
        sm.send("error.send.failed");
        assertEquals(Set.of("b"), leaves(sm));
        sm.send("z.q");
        assertEquals(Set.of("c"), leaves(sm), "one descriptor of a list");
    }

    @Test
    void idsWithDotsAreKeptThroughTheEngineKeys() {
        StateMachine<Datamodel> sm = new StateMachine<>(ScxmlImport.create().read(doc(null, """
                <state id="door.open"><transition event="close" target="door.closed"/></state>
                <state id="door.closed"/>
                """)));
        assertEquals(Set.of("door.open"), leaves(sm));
        sm.send("close");
        assertEquals(Set.of("door.closed"), leaves(sm));
        assertEquals("a$b", ScxmlImport.stateId(ScxmlImport.key("a$b")));
    }

    @Test
    void anImportedMachineRunsOnAnEntity() {
        States<Datamodel> door = States.of(ScxmlImport.create().read(doc("ecmascript", """
                <datamodel><data id="opened" expr="0"/></datamodel>
                <state id="closed"><transition event="open" target="open"><assign location="opened" expr="opened + 1"/></transition></state>
                <state id="open"><onentry><send event="close" delay="1s"/></onentry><transition event="close" target="closed"/></state>
                """)));
        try (StateWorld world = StateWorld.create()) {
            Entity e = world.spawn(door.trait());
            door.send(e, "open");
            assertTrue(door.read(e).matches("open"));
            for (int i = 0; i < 70; i++) {
                world.step(1.0 / 60);
            }
            assertTrue(door.read(e).matches("closed"), "the delayed send came on the world's clock");
            assertEquals(1.0, door.read(e).context().toJava(door.read(e).context().evaluate("opened")));
        }
    }

    @Test
    void aFinalWithoutDonedataGivesItsDoneEventNoData() {
        // SCXML 5.5: a done.state event's data comes from the <donedata> of the final that was entered; a sibling
        // final reached before must not leave its data behind
        StateMachine<Datamodel> m = new StateMachine<>(ScxmlImport.create().read(doc("ecmascript", """
                <datamodel><data id="seen" expr="[]"/></datamodel>
                <state id="p">
                  <state id="a"><transition event="one" target="f1"/><transition event="two" target="f2"/></state>
                  <final id="f1"><donedata><content expr="'from f1'"/></donedata></final>
                  <final id="f2"/>
                  <transition event="done.state.p" target="p"><script>seen.push(String(_event.data))</script></transition>
                </state>
                """)));
        m.send("one");
        m.send("two");
        Datamodel dm = m.context();
        assertEquals("from f1|undefined", dm.toJava(dm.evaluate("seen.join('|')")));
    }

    @Test
    void eachDoneEventOfAStateCarriesTheDonedataOfItsOwnEntry() {
        // SCXML 5.5 and 5.7: the donedata is evaluated as the final is entered, and _event is the event being
        // processed; the same state done three times in a row, with no other event between, gives three values
        StateMachine<Datamodel> m = new StateMachine<>(ScxmlImport.create().read(doc("ecmascript", """
                <datamodel><data id="n" expr="0"/><data id="seen" expr="[]"/></datamodel>
                <state id="p">
                  <state id="a"><transition cond="n &gt; 0" target="f"/><transition event="go" target="f"/></state>
                  <final id="f"><donedata><content expr="'n=' + n"/></donedata></final>
                  <transition event="done.state.p" cond="n &lt; 2" target="p"><script>seen.push(String(_event.data)); n++</script></transition>
                  <transition event="done.state.p" target="end"><script>seen.push(String(_event.data))</script></transition>
                </state>
                <final id="end"/>
                """)));
        m.send("go");
        Datamodel dm = m.context();
        assertEquals("n=0|n=1|n=2", dm.toJava(dm.evaluate("seen.join('|')")));
        assertEquals(Set.of("end"), leaves(m));
    }

    /**
     * An id is how targets and initial name a state, and they list ids separated by spaces: an
     * empty id, or one with a space in it, is refused at its line, not left to the compiler to
     * report as an empty key at a path the document never wrote.
     */
    @ParameterizedTest
    @CsvSource(delimiter = '|', value = {
            "<state id=''/>                                 | line 2: <state> id '' is empty",
            "<state id='  '/>                               | line 2: <state> id '  ' has spaces in it",
            "<state id='a b'/>                              | line 2: <state> id 'a b' has spaces in it",
            "<state id='a'><history id=''/><state id='b'/></state> | line 2: <history> id '' is empty",
            "<parallel id=' p'><state id='r'/></parallel>   | line 2: <parallel> id ' p' has spaces in it"})
    void aStateIdThatIsEmptyOrHasSpaces_isRefusedAtItsLine(String state, String problem) {
        InvalidMachineException e = assertThrows(InvalidMachineException.class,
                () -> ScxmlImport.create().read(doc("null", state.replace('\'', '"'))));
        assertEquals(1, e.problems().size(), () -> e.problems().toString());
        assertTrue(e.problems().get(0).startsWith(problem), () -> e.problems().toString());
    }
}

package dev.enginestates.io;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.dominion.ecs.api.Entity;
import dev.enginestates.ecs.EntityKey;
import dev.enginestates.ecs.StateWorld;
import dev.enginestates.ecs.States;
import dev.enginestates.scxml.Datamodel;
import dev.enginestates.scxml.ScxmlImport;
import org.junit.jupiter.api.Test;

import java.util.List;
import java.util.Map;
import java.util.function.Consumer;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Issue 17: an imported machine's datamodel in checkpoints, dumps and streams. Its variables are
 * written as JSON; one that holds anything else refuses the checkpoint with the machine, the
 * entity and the variable named; a checkpoint whose datamodel part is wrong is refused with the
 * field named, and the world is left as it was.
 */
class ScxmlCheckpointTest {
    static final ObjectMapper JSON = new ObjectMapper();

    static {
        RandomWorlds.quiet();
    }

    static States<Datamodel> machine(String name, String datamodel, String body) {
        return States.of(ScxmlImport.create().log((l, v) -> { }).read(
                "<scxml xmlns=\"http://www.w3.org/2005/07/scxml\" version=\"1.0\" datamodel=\"" + datamodel + "\" initial=\"a\" name=\""
                        + name + "\">\n" + body + "\n</scxml>"));
    }

    /** A machine whose one variable is made by {@code expr} when event {@code set} comes. */
    static States<Datamodel> holding(String expr) {
        return machine("holder", "ecmascript", """
                <datamodel><data id="ok" expr="1"/><data id="v"/></datamodel>
                <state id="a"><transition event="set"><script>v = %s;</script></transition></state>
                """.formatted(expr));
    }

    static CheckpointException refusal(String expr) {
        States<Datamodel> m = holding(expr);
        Saves saves = Saves.of(m);
        try (StateWorld w = StateWorld.create()) {
            Entity e = w.spawn(EntityKey.of("crate-7"), m.trait());
            m.send(e, "set");
            return assertThrows(CheckpointException.class, () -> saves.checkpoint(w));
        }
    }

    static void assertNames(CheckpointException e, String... parts) {
        assertEquals(1, e.problems().size(), e.getMessage());
        String p = e.problems().get(0);
        assertTrue(p.startsWith("$.entities.crate-7.holder.context: machine 'holder' on entity 'crate-7'"), p);
        for (String part : parts) {
            assertTrue(p.contains(part), "'" + part + "' in: " + p);
        }
    }

    @Test
    void theVariablesAreWrittenAsJson_withTheSessionAndTheUndefinedOnesByName() throws Exception {
        States<Datamodel> m = machine("door", "ecmascript", """
                <datamodel><data id="n" expr="2"/><data id="cfg">{"max": 3, "names": ["x", null]}</data><data id="later"/>
                <data id="none" expr="null"/><data id="s" expr="'text'"/></datamodel>
                <state id="a"><transition event="go" target="b"><assign location="n" expr="n + 1"/></transition></state>
                <state id="b"/>
                """);
        Saves saves = Saves.of(m);
        try (StateWorld w = StateWorld.create()) {
            Entity e = w.spawn(EntityKey.of("d1"), m.trait());
            m.send(e, "go");
            JsonNode context = JSON.readTree(saves.checkpoint(w)).path("entities").path("d1").path("door").path("context");
            assertEquals(JSON.readTree("""
                    {"n": 3.0, "cfg": {"max": 3.0, "names": ["x", null]}, "none": null, "s": "text"}"""), context.get("variables"));
            assertEquals(JSON.readTree("[\"later\"]"), context.get("undefined"));
            assertEquals(m.read(e).context().evaluate("_sessionid"), context.get("sessionid").asText());
            assertTrue(context.get("started").asBoolean());
            assertEquals(context, JSON.readTree(saves.dump(w)).path("entities").path("d1").path("machines").path("door").path("context"),
                    "a dump shows the same");
        }
    }

    @Test
    void aRestoredDatamodel_hasTheVariablesValuesAndKindsAndTheSessionId_andGoesOn() {
        States<Datamodel> m = machine("door", "ecmascript", """
                <datamodel><data id="n" expr="2"/><data id="later"/><data id="none" expr="null"/>
                <data id="me" expr="_ioprocessors['scxml'].location"/></datamodel>
                <state id="a"><transition event="go" target="b"><assign location="n" expr="n + 1"/></transition></state>
                <state id="b"><transition event="go" target="a" cond="typeof later === 'undefined' &amp;&amp; none === null">
                  <assign location="n" expr="n * 10"/></transition></state>
                """);
        Saves saves = Saves.of(m);
        try (StateWorld w = StateWorld.create(); StateWorld fresh = StateWorld.create()) {
            Entity e = w.spawn(EntityKey.of("d1"), m.trait());
            m.send(e, "go");
            Entity f = fresh.spawn(EntityKey.of("d1"), m.trait());
            saves.restore(fresh, saves.checkpoint(w));
            Datamodel dm = m.read(f).context();
            assertEquals(m.read(e).context().evaluate("_sessionid"), dm.evaluate("_sessionid"), "the session goes on, with its id");
            assertEquals("#_scxml_" + dm.evaluate("_sessionid"), dm.toJava(dm.evaluate("me")));
            assertEquals("#_scxml_" + dm.evaluate("_sessionid"), dm.toJava(dm.evaluate("_ioprocessors['scxml'].location")));
            m.send(f, "go");
            assertTrue(m.read(f).matches("a"), "undefined stayed undefined and null stayed null");
            assertEquals(30.0, dm.toJava(dm.evaluate("n")));
        }
    }

    // ------------------------------------------------------------------ refusals when writing

    @Test
    void aVariableHoldingAFunction_refusesTheCheckpoint_namingMachineEntityAndVariable() {
        assertNames(refusal("function () { return 1; }"), "variable 'v' holds a function", "JSON values only");
    }

    @Test
    void aFunctionInsideAVariablesValue_isNamedByItsPath() {
        assertNames(refusal("{list: [1, {f: function () {}}]}"), "variable 'v'.list[1].f holds a function");
    }

    @Test
    void aVariableHoldingADate_aHostObject_refusesTheCheckpoint() {
        assertNames(refusal("new Date(0)"), "variable 'v' holds a Date object");
    }

    @Test
    void aVariableHoldingAJavaObject_refusesTheCheckpoint() {
        // a script cannot make a Java object (no LiveConnect: ScxmlAttackTest); one can come in an event's fields
        States<Datamodel> m = holding("_event.data.x");
        Saves saves = Saves.of(m);
        try (StateWorld w = StateWorld.create()) {
            Entity e = w.spawn(EntityKey.of("crate-7"), m.trait());
            m.send(e, dev.enginestates.declare.Event.of("set", Map.of("x", new java.io.File("x"))));
            assertNames(assertThrows(CheckpointException.class, () -> saves.checkpoint(w)),
                    "variable 'v' holds the Java object java.io.File");
        }
    }

    @Test
    void aNumberThatIsNotFinite_refusesTheCheckpoint() {
        assertNames(refusal("0 / 0"), "variable 'v' is NaN; expected a finite number");
        assertNames(refusal("{x: 1 / 0}"), "variable 'v'.x is Infinity");
    }

    @Test
    void anUndefinedPartOfAValue_refusesTheCheckpoint_onlyAVariableItselfMayBeUndefined() {
        assertNames(refusal("{x: undefined}"), "variable 'v'.x is undefined");
        assertNames(refusal("[1, , 3]"), "variable 'v'[1] is undefined");
    }

    @Test
    void anObjectThatContainsItself_refusesTheCheckpoint() {
        assertNames(refusal("(function () { var o = {}; o.self = o; return o; })()"), "variable 'v'.self refers to an object that contains it");
    }

    @Test
    void aRefusedContext_refusesTheDumpAndTheStreamToo() {
        States<Datamodel> m = holding("function () {}");
        Saves saves = Saves.of(m);
        try (StateWorld w = StateWorld.create()) {
            Entity e = w.spawn(EntityKey.of("crate-7"), m.trait());
            m.send(e, "set");
            assertNames(assertThrows(CheckpointException.class, () -> saves.dump(w)), "variable 'v' holds a function");
            RoomStream stream = RoomStream.of(w, m);
            stream.join("p1");
            StreamException s = assertThrows(StreamException.class, () -> stream.frame("p1"));
            assertTrue(s.problems().get(0).contains("entity 'crate-7'") && s.problems().get(0).contains("variable 'v' holds a function"),
                    s.getMessage());
        }
    }

    // ------------------------------------------------------------------ refusals when reading

    /** A checkpoint of one door entity, its datamodel part changed by {@code edit}; the restore must refuse, naming {@code expected}. */
    static void assertRefused(Consumer<ObjectNode> edit, String expected) throws Exception {
        States<Datamodel> m = machine("door", "ecmascript", """
                <datamodel><data id="n" expr="2"/><data id="later"/></datamodel>
                <state id="a"><transition event="go" target="b"><assign location="n" expr="n + 1"/></transition></state>
                <state id="b"><transition event="go" target="a"/></state>
                """);
        Saves saves = Saves.of(m);
        try (StateWorld w = StateWorld.create(); StateWorld target = StateWorld.create()) {
            Entity e = w.spawn(EntityKey.of("d1"), m.trait());
            m.send(e, "go");
            ObjectNode cp = (ObjectNode) JSON.readTree(saves.checkpoint(w));
            edit.accept((ObjectNode) cp.path("entities").path("d1").path("door").path("context"));
            Entity t = target.spawn(EntityKey.of("d1"), m.trait());
            m.send(t, "go");
            m.send(t, "go");
            String before = saves.checkpoint(target);
            CheckpointException x = assertThrows(CheckpointException.class, () -> saves.restore(target, cp.toString()));
            assertEquals(1, x.problems().size(), x.getMessage());
            assertTrue(x.problems().get(0).startsWith("$.entities.d1.door.context: machine 'door' cannot restore its context: "),
                    x.problems().get(0));
            assertTrue(x.problems().get(0).contains(expected), "'" + expected + "' in " + x.problems().get(0));
            assertEquals(before, saves.checkpoint(target), "the world is unchanged");
        }
    }

    @Test
    void restore_refusesAnUnknownField() throws Exception {
        assertRefused(c -> c.put("colour", "red"), "colour: not a field of a saved datamodel");
    }

    @Test
    void restore_refusesAMissingField() throws Exception {
        assertRefused(c -> c.remove("undefined"), "undefined: missing");
        assertRefused(c -> c.remove("variables"), "variables: missing");
    }

    @Test
    void restore_refusesVariablesThatAreNotAnObject() throws Exception {
        assertRefused(c -> c.putArray("variables"), "variables: expected an object from variable name to value; found an array");
    }

    @Test
    void restore_refusesASessionIdThatIsNotAString() throws Exception {
        assertRefused(c -> c.put("sessionid", 5), "sessionid: expected the session's id, a non-empty string; found 5");
        assertRefused(c -> c.put("sessionid", ""), "sessionid: expected the session's id, a non-empty string");
    }

    @Test
    void restore_refusesASendCountThatIsNotAWholeNumber() throws Exception {
        assertRefused(c -> c.put("sendidCount", 1.5), "sendidCount: expected the count of generated send ids, a whole number 0 or more; found 1.5");
        assertRefused(c -> c.put("sendidCount", -1), "found -1");
    }

    @Test
    void restore_refusesStartedThatIsNotABoolean() throws Exception {
        assertRefused(c -> c.put("started", "yes"), "started: expected true or false");
    }

    @Test
    void restore_refusesVariablesInADatamodelThatWasNotStarted() throws Exception {
        assertRefused(c -> c.put("started", false), "the datamodel was not started, so it has no variables");
    }

    @Test
    void restore_refusesALateBoundIdThatNamesNoState() throws Exception {
        assertRefused(c -> c.putArray("lateBound").add("nowhere"), "lateBound[0]: expected a state id of machine 'door'; found the string \"nowhere\"");
    }

    @Test
    void restore_refusesDoneDataForNoState() throws Exception {
        assertRefused(c -> c.putObject("doneData").put("nowhere", 1), "doneData.nowhere: not a state id of machine 'door'");
    }

    @Test
    void restore_refusesAnUndefinedNameThatIsAlsoAVariable_orNotAName() throws Exception {
        assertRefused(c -> c.putArray("undefined").add("n"), "undefined[0]: expected a variable's name, given once");
        assertRefused(c -> c.putArray("undefined").add(3), "undefined[0]");
    }

    @Test
    void restore_refusesAContextThatIsNotAnObject() throws Exception {
        States<Datamodel> m = holding("1");
        Saves saves = Saves.of(m);
        try (StateWorld w = StateWorld.create()) {
            w.spawn(EntityKey.of("crate-7"), m.trait());
            ObjectNode cp = (ObjectNode) JSON.readTree(saves.checkpoint(w));
            ((ObjectNode) cp.path("entities").path("crate-7").path("holder")).put("context", "hello");
            CheckpointException x = assertThrows(CheckpointException.class, () -> saves.restore(w, cp.toString()));
            assertTrue(x.problems().get(0).contains("expected the datamodel's session and variables, an object; found the string \"hello\""),
                    x.getMessage());
        }
    }

    @Test
    void theNullDatamodel_savesNoVariables_andRefusesSome() throws Exception {
        States<Datamodel> m = machine("plain", "null", """
                <state id="a"><transition event="go" target="b" cond="In('a')"/></state><state id="b"/>""");
        Saves saves = Saves.of(m);
        try (StateWorld w = StateWorld.create()) {
            Entity e = w.spawn(EntityKey.of("n1"), m.trait());
            m.send(e, "go");
            ObjectNode cp = (ObjectNode) JSON.readTree(saves.checkpoint(w));
            ObjectNode context = (ObjectNode) cp.path("entities").path("n1").path("plain").path("context");
            assertEquals(JSON.readTree("{}"), context.get("variables"));
            saves.restore(w, cp.toString());
            context.putObject("variables").put("x", 1);
            CheckpointException x = assertThrows(CheckpointException.class, () -> saves.restore(w, cp.toString()));
            assertTrue(x.problems().get(0).contains("the null datamodel cannot evaluate variables [x]"), x.getMessage());
        }
    }

    @Test
    void aReplica_getsTheVariablesInItsFrames() {
        States<Datamodel> m = machine("door", "ecmascript", """
                <datamodel><data id="n" expr="2"/><data id="names" expr="['a']"/></datamodel>
                <state id="a"><transition event="go"><assign location="n" expr="n + 1"/><script>names.push('b' + n)</script></transition></state>
                """);
        try (StateWorld room = StateWorld.create(); StateWorld copy = StateWorld.create()) {
            Entity e = room.spawn(EntityKey.of("d1"), m.trait());
            RoomStream stream = RoomStream.of(room, m);
            Replica replica = Replica.of(copy, "p1", m);
            stream.join("p1");
            m.send(e, "go");
            replica.apply(stream.frame("p1"));
            m.send(e, "go");
            replica.apply(stream.frame("p1"));
            Datamodel dm = m.read(copy.entity("d1")).context();
            assertEquals(4.0, dm.toJava(dm.evaluate("n")));
            assertEquals(List.of("a", "b3", "b4"), dm.toJava(dm.evaluate("names")));
            assertEquals(m.read(e).context().save(), dm.save());
        }
    }

    @Test
    void saveAndRestore_areTheSavedContextContract_aFreshDatamodelReadsBackWhatItSaved() {
        States<Datamodel> m = holding("[1, 'x', {y: null}]");
        try (StateWorld w = StateWorld.create()) {
            Entity e = w.spawn(EntityKey.of("crate-7"), m.trait());
            m.send(e, "set");
            Object saved = m.read(e).context().save();
            Datamodel fresh = m.machine().newContext();
            fresh.restore(saved);
            assertEquals(saved, fresh.save());
            @SuppressWarnings("unchecked")
            Map<String, Object> vars = (Map<String, Object>) ((Map<String, Object>) saved).get("variables");
            Map<String, Object> y = new java.util.HashMap<>();
            y.put("y", null);
            assertEquals(List.of(1.0, "x", y), vars.get("v"));
        }
    }
}

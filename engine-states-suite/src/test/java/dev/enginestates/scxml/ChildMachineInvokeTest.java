package dev.enginestates.scxml;

import dev.dominion.ecs.api.Entity;
import dev.enginestates.Machine;
import dev.enginestates.chart.Invocation;
import dev.enginestates.declare.InvalidMachineException;
import dev.enginestates.ecs.EntityKey;
import dev.enginestates.ecs.StateWorld;
import dev.enginestates.ecs.States;
import dev.enginestates.io.Saves;
import dev.enginestates.records.Access;
import org.junit.jupiter.api.Test;

import java.time.Duration;
import java.util.List;
import java.util.Map;

import static dev.enginestates.scxml.InvokeTest.doc;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTimeoutPreemptively;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * SCXML's {@code <invoke>} as the world's child machines ({@link ScxmlImport#childMachines}): each child is
 * an ordinary record on its own entity keyed {@code "<parent key>/<invokeid>"}, started and stopped with
 * its state, checkpointed as a record; done.invoke, donedata, #_parent, #_&lt;invokeid&gt;,
 * {@code _event.invokeid}, finalize, autoforward, params and idlocation map onto it.
 */
class ChildMachineInvokeTest {
    private static final double DT = 0.1;
    private static final Duration GUARD = Duration.ofSeconds(120);

    /** The parent of {@link InvokeCheckpointTest}: a job ticking its parent, with a grandchild answering the job. */
    private static final String PARENT = doc("""
            <datamodel><data id="ticks" expr="0"/><data id="finalized" expr="0"/><data id="result"/><data id="from"/></datamodel>
            <state id="idle"><transition event="go" target="work"/></state>
            <state id="work">
              <invoke id="job">
                <param name="step" expr="10"/>
                <content>
                  <scxml xmlns="http://www.w3.org/2005/07/scxml" version="1.0" datamodel="ecmascript" initial="outer">
                    <datamodel><data id="step" expr="1"/><data id="n" expr="0"/><data id="answer"/></datamodel>
                    <state id="outer" initial="run">
                      <invoke id="helper"><content>
                        <scxml xmlns="http://www.w3.org/2005/07/scxml" version="1.0" datamodel="ecmascript">
                          <state id="h"><onentry><send event="answer" target="#_parent" delay="0.5s"><param name="v" expr="42"/></send></onentry></state>
                        </scxml>
                      </content></invoke>
                      <transition event="answer"><assign location="answer" expr="_event.data.v"/></transition>
                      <state id="run">
                        <onentry><send event="tick" target="#_parent" delay="0.3s"/><send event="again" delay="0.3s"/></onentry>
                        <transition event="again" cond="n &lt; 2" target="run"><assign location="n" expr="n + 1"/></transition>
                        <transition event="again" target="end"/>
                      </state>
                    </state>
                    <final id="end"><donedata><param name="n" expr="n * step"/><param name="answer" expr="answer"/></donedata></final>
                  </scxml>
                </content>
                <finalize><assign location="finalized" expr="finalized + 1"/></finalize>
              </invoke>
              <transition event="tick"><assign location="ticks" expr="ticks + 1"/><assign location="from" expr="_event.invokeid"/></transition>
              <transition event="done.invoke.job" target="finished"><assign location="result" expr="_event.data"/></transition>
            </state>
            <state id="finished"/>
            """);

    private static States<Datamodel> children(String text) {
        return States.of(ScxmlImport.create().log((l, v) -> { }).childMachines(true).read(text));
    }

    /** The machine {@code parent} invokes as child {@code id}. */
    @SuppressWarnings("unchecked")
    private static States<Datamodel> childOf(States<Datamodel> parent, String id) {
        for (Invocation[] list : Access.chart(parent.machine()).invokes) {
            for (Invocation i : list) {
                if (i.id.equals(id)) {
                    return States.of((Machine<Datamodel>) i.machine);
                }
            }
        }
        throw new AssertionError("no child " + id);
    }

    private static Object value(States<Datamodel> m, Entity e, String expr) {
        Datamodel dm = m.read(e).context();
        return dm.toJava(dm.evaluate(expr));
    }

    @Test
    void anInvokedDocument_isAChildMachineOnItsOwnEntity_keyedUnderItsParent_andItsDoneDataReachesTheParent() {
        States<Datamodel> m = children(PARENT);
        try (StateWorld w = StateWorld.create()) {
            Entity e = w.spawn(EntityKey.of("crane"), m.trait());
            m.send(e, "go");
            Entity job = w.entity("crane/job");
            assertNotNull(job, "the child is a record on its own entity, keyed under its parent");
            assertEquals(List.of("job"), m.read(e).children());
            assertEquals(e, childOf(m, "job").read(job).parent());
            for (int i = 0; i < 15; i++) {
                w.step(DT);
            }
            assertTrue(m.read(e).matches("finished"), "the child's done event moved the parent");
            assertEquals(3.0, value(m, e, "ticks"));
            assertEquals("job", value(m, e, "from"), "_event.invokeid names the child");
            assertEquals(4.0, value(m, e, "finalized"), "finalize ran on each tick and on done.invoke");
            assertEquals(Map.of("n", 20.0, "answer", 42.0), value(m, e, "result"),
                    "the param reached the child's data, the grandchild's answer its donedata");
            assertNull(w.entity("crane/job"), "the child stopped with its state");
            assertNull(w.entity("crane/job/helper"));
        }
    }

    @Test
    void aWorldCheckpointedWhileAChildMachineWaits_restoredIntoAFreshWorld_goesOnAsItsTwin() {
        States<Datamodel> m = children(PARENT);
        Saves saves = Saves.of(m);
        try (StateWorld twin = StateWorld.create(); StateWorld restored = StateWorld.create()) {
            Entity e = twin.spawn(EntityKey.of("crane"), m.trait());
            m.send(e, "go");
            for (int i = 0; i < 4; i++) {
                twin.step(DT);
            }
            assertEquals(1.0, value(m, e, "ticks"), "mid-child: one tick came");
            String mid = saves.checkpoint(twin);
            assertTrue(mid.contains("\"crane/job\"") && mid.contains("\"crane/job/helper\""),
                    "the child and the grandchild are records of the checkpoint");
            assertTrue(!mid.contains("\"invoked\""), "nothing of them is saved inside the parent's datamodel");
            saves.restoreSpawningMissing(restored, mid);
            assertEquals(mid, saves.checkpoint(restored), "the restore reads back what was saved");
            for (int i = 0; i < 15; i++) {
                twin.step(DT);
                restored.step(DT);
                assertEquals(saves.checkpoint(twin), saves.checkpoint(restored), "after step " + (i + 1));
            }
            Entity r = restored.entity("crane");
            assertTrue(m.read(r).matches("finished"), "the restored child's done event reached the restored parent");
            assertEquals(4.0, value(m, r, "finalized"));
            assertEquals("job", value(m, r, "from"), "the restored child still names itself to its parent");
        }
    }

    @Test
    void autoforward_sendToInvokeid_andIdlocation_reachTheChildMachine() {
        States<Datamodel> m = children(doc("""
                <datamodel><data id="cid"/><data id="echo"/><data id="origin"/></datamodel>
                <state id="idle"><transition event="go" target="on"/></state>
                <state id="on">
                  <invoke idlocation="cid" autoforward="true"><content>
                    <scxml xmlns="http://www.w3.org/2005/07/scxml" version="1.0" datamodel="ecmascript">
                      <datamodel><data id="seen" expr="0"/></datamodel>
                      <state id="c">
                        <transition event="ping"><assign location="seen" expr="seen + 1"/></transition>
                        <transition event="direct"><send event="pong" target="#_parent"><param name="seen" expr="seen"/></send></transition>
                      </state>
                    </scxml>
                  </content></invoke>
                  <transition event="ask"><send event="direct" targetexpr="'#_' + cid"/></transition>
                  <transition event="pong"><assign location="echo" expr="_event.data.seen"/><assign location="origin" expr="_event.origin"/></transition>
                </state>
                """));
        try (StateWorld w = StateWorld.create()) {
            Entity e = w.spawn(EntityKey.of("lamp"), m.trait());
            m.send(e, "go");
            w.step(DT); // the parent's wake starts the child's initial state
            String id = (String) value(m, e, "cid");
            assertEquals("on_1", id, "idlocation holds the child's generated id");
            assertNotNull(w.entity("lamp/" + id));
            m.send(e, "ping");
            m.send(e, "ping");
            m.send(e, "ask");
            assertEquals(2.0, value(m, e, "echo"), "autoforward copied both pings; #_<invokeid> reached the child");
            assertEquals("#_" + id, value(m, e, "origin"), "the child's events come from the target that answers it");
        }
    }

    @Test
    void aChainOfInvokedDocuments_endsAtTheInvokeDepth_withErrorExecution_andNoStall() {
        int levels = 20;
        String xml = doc("<state id=\"s\"/>");
        for (int i = levels - 1; i > 0; i--) {
            // the top waits for "go": a record on an entity starts without its initial entry actions
            xml = doc((i == 1 ? "<state id=\"idle\"><transition event=\"go\" target=\"s\"/></state>" : "")
                    + "<state id=\"s\"><invoke id=\"next\"><content>" + xml + "</content></invoke>"
                    + "<transition event=\"error.execution\" target=\"deepest\"/></state><state id=\"deepest\"/>");
        }
        String text = xml;
        assertTimeoutPreemptively(GUARD, () -> {
            States<Datamodel> m = children(text);
            try (StateWorld w = StateWorld.create()) {
                Entity e = w.spawn(EntityKey.of("deep"), m.trait());
                m.send(e, "go");
                for (int i = 0; i < levels + 2; i++) {
                    w.step(DT);
                }
                String key = "deep";
                int depth = 1;
                while (w.entity(key + "/next") != null) {
                    key += "/next";
                    depth++;
                }
                assertEquals(ScxmlImport.DEFAULT_INVOKE_DEPTH, depth, "one record a level, down to the invoke depth");
                States<Datamodel> at = m;
                for (int i = 1; i < depth; i++) {
                    at = childOf(at, "next");
                }
                assertTrue(at.read(w.entity(key)).matches("deepest"),
                        "the deepest level's invoke raised error.execution");
            }
        });
    }

    @Test
    void aChildMachineWhoseDocumentIsKnownOnlyWhenItStarts_isRefusedAtImport() {
        InvalidMachineException x = assertThrows(InvalidMachineException.class, () -> ScxmlImport.create().childMachines(true)
                .read(doc("""
                        <datamodel><data id="d" expr="'x'"/></datamodel>
                        <state id="a"><invoke id="c"><content expr="d"/></invoke><invoke id="b.c" srcexpr="d"/></state>
                        """)));
        String all = String.join("\n", x.problems());
        assertTrue(all.contains("<content expr> makes the child's document when the invoke starts"), all);
        assertTrue(all.contains("<invoke> srcexpr loads its document when the invoke starts"), all);
        assertTrue(all.contains("<invoke> id 'b.c' names a child machine"), all);
        Machine<Datamodel> inContext = ScxmlImport.create().read(doc("""
                <state id="a"><invoke id="c"><content expr="'x'"/></invoke></state>
                """));
        assertNotNull(inContext, "without childMachines the same invokes run in their top machine");
    }
}

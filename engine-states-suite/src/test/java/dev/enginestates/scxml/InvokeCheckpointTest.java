package dev.enginestates.scxml;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.dominion.ecs.api.Entity;
import dev.enginestates.ecs.EntityKey;
import dev.enginestates.ecs.StateWorld;
import dev.enginestates.ecs.States;
import dev.enginestates.io.CheckpointException;
import dev.enginestates.io.Replica;
import dev.enginestates.io.RoomStream;
import dev.enginestates.io.Saves;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.function.Consumer;

import static dev.enginestates.scxml.InvokeTest.doc;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTimeoutPreemptively;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * An imported machine's invoked sessions in checkpoints: a world checkpointed while a child (and its
 * own child) waits, restored into a fresh world, goes on as the world that never stopped, the
 * child's events and done event reaching the parent; a document that invokes itself stays bounded
 * and round-trips; a checkpoint whose sessions are wrong is refused with the field named and
 * changes nothing.
 */
class InvokeCheckpointTest {
    private static final ObjectMapper JSON = new ObjectMapper();
    private static final double DT = 0.1;
    private static final Duration GUARD = Duration.ofSeconds(120);

    /**
     * A parent whose state "work" invokes "job": the job ticks its parent every 0.3 s (delayed sends to
     * #_parent), invokes a grandchild that answers it after 0.5 s, and ends at its third tick with its
     * count as donedata; the parent counts the ticks in its {@code <finalize>} and keeps the done data.
     */
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

    private static Object value(States<Datamodel> m, Entity e, String expr) {
        Datamodel dm = m.read(e).context();
        return dm.toJava(dm.evaluate(expr));
    }

    @Test
    void aWorldCheckpointedWhileAChildWaits_restoredIntoAFreshWorld_goesOnAsItsTwin_untilTheChildsDoneReachesTheParent() {
        States<Datamodel> m = States.of(ScxmlImport.create().log((l, v) -> { }).read(PARENT));
        Saves saves = Saves.of(m);
        try (StateWorld twin = StateWorld.create(); StateWorld restored = StateWorld.create()) {
            Entity e = twin.spawn(EntityKey.of("crane"), m.trait());
            m.send(e, "go");
            for (int i = 0; i < 4; i++) {
                twin.step(DT);
            }
            assertEquals(1.0, value(m, e, "ticks"), "mid-child: one tick came");
            String mid = saves.checkpoint(twin);
            assertTrue(mid.contains("\"invoked\""), "the checkpoint holds the invoked sessions");
            saves.restoreSpawningMissing(restored, mid);
            assertEquals(mid, saves.checkpoint(restored), "the restore reads back what was saved");
            for (int i = 0; i < 15; i++) {
                twin.step(DT);
                restored.step(DT);
                assertEquals(saves.checkpoint(twin), saves.checkpoint(restored), "after step " + (i + 1));
            }
            Entity r = restored.entity("crane");
            assertTrue(m.read(r).matches("finished"), "the child's done event reached the restored parent");
            assertEquals(3.0, value(m, r, "ticks"));
            assertEquals("job", value(m, r, "from"));
            assertEquals(4.0, value(m, r, "finalized"), "finalize ran on each tick and on done.invoke");
            assertEquals(java.util.Map.of("n", 20.0, "answer", 42.0), value(m, r, "result"),
                    "the grandchild's answer and the param reached the done data");
            assertEquals(1, m.read(r).context().session.bounds.sessions, "the sessions ended");
        }
    }

    @Test
    void aChildLoadedBySrcexpr_isLoadedAgainOnRestore_andGoesOnAsItsTwin(@TempDir Path dir) throws IOException {
        Files.writeString(dir.resolve("timer.scxml"), doc("""
                <state id="t"><onentry><send event="ring" delay="0.5s"/></onentry><transition event="ring" target="rang"/></state>
                <final id="rang"><donedata><param name="rings" expr="1"/></donedata></final>
                """));
        Files.writeString(dir.resolve("alarm.scxml"), doc("""
                <datamodel><data id="name" expr="'timer'"/><data id="rings" expr="0"/></datamodel>
                <state id="idle"><transition event="go" target="armed"/></state>
                <state id="armed">
                  <invoke id="t" srcexpr="name + '.scxml'"/>
                  <transition event="done.invoke.t" target="rung"><assign location="rings" expr="_event.data.rings"/></transition>
                </state>
                <state id="rung"/>
                """));
        States<Datamodel> m = States.of(ScxmlImport.create().log((l, v) -> { }).resolver(ScxmlResolver.files(dir))
                .read(dir.resolve("alarm.scxml")));
        Saves saves = Saves.of(m);
        try (StateWorld twin = StateWorld.create(); StateWorld restored = StateWorld.create()) {
            Entity e = twin.spawn(EntityKey.of("alarm"), m.trait());
            m.send(e, "go");
            twin.step(DT);
            twin.step(DT);
            String mid = saves.checkpoint(twin);
            assertTrue(mid.contains("\"loadedSrc\" : \"timer.scxml\""), "the child's document is named by the address it loaded");
            saves.restoreSpawningMissing(restored, mid);
            for (int i = 0; i < 6; i++) {
                twin.step(DT);
                restored.step(DT);
                assertEquals(saves.checkpoint(twin), saves.checkpoint(restored), "after step " + (i + 1));
            }
            Entity r = restored.entity("alarm");
            assertTrue(m.read(r).matches("rung"));
            assertEquals(1.0, value(m, r, "rings"));
        }
    }

    @Test
    void aReplica_getsTheRunningChildSessionsInItsFrames() {
        States<Datamodel> m = States.of(ScxmlImport.create().log((l, v) -> { }).read(PARENT));
        try (StateWorld room = StateWorld.create(); StateWorld copy = StateWorld.create()) {
            Entity e = room.spawn(EntityKey.of("crane"), m.trait());
            RoomStream stream = RoomStream.of(room, m);
            Replica replica = Replica.of(copy, "p1", m);
            stream.join("p1");
            m.send(e, "go");
            for (int i = 0; i < 4; i++) {
                room.step(DT);
                replica.apply(stream.frame("p1"));
                Datamodel dm = m.read(copy.entity("crane")).context();
                assertEquals(m.read(e).context().save(), dm.save(), "frame " + (i + 1));
            }
            Session job = m.read(copy.entity("crane")).context().session.children.get(0);
            assertEquals("job", job.invokeid);
            assertEquals("helper", job.children.get(0).invokeid, "the grandchild came with its parent");
        }
    }

    @Test
    void aDocumentThatInvokesItself_staysBoundedByTheInvokeDepth_andItsCheckpointOfEveryLevelRoundTrips() {
        String child = """
                <datamodel><data id="level" expr="1"/><data id="me"/></datamodel>
                <state id="idle"><transition event="go" target="s0"/></state>
                <state id="s0">
                  <invoke><content expr="me"/><param name="me" expr="me"/><param name="level" expr="level + 1"/></invoke>
                  <transition event="error.execution" target="deepest"/>
                </state>
                <state id="deepest"/>
                """;
        // each level starts in s0 (an invoked session runs its initial state's entry), the top one is sent "go"
        String levels = doc(child.replace("<state id=\"idle\"><transition event=\"go\" target=\"s0\"/></state>", ""));
        String top = doc(child.replace("<data id=\"me\"/>", "<data id=\"me\" expr=\"'" + attribute(levels) + "'\"/>"));
        States<Datamodel> m = States.of(ScxmlImport.create().log((l, v) -> { }).read(top));
        Saves saves = Saves.of(m);
        assertTimeoutPreemptively(GUARD, () -> {
            try (StateWorld a = StateWorld.create(); StateWorld b = StateWorld.create()) {
                Entity e = a.spawn(EntityKey.of("deep"), m.trait());
                m.send(e, "go");
                for (int i = 0; i < 3; i++) {
                    a.step(DT);
                }
                Session s = m.read(e).context().session;
                assertEquals(ScxmlImport.DEFAULT_INVOKE_DEPTH, s.bounds.sessions, "one session a level, down to the limit");
                int depth = 1;
                for (Session at = s; !at.children.isEmpty(); at = at.children.get(0)) {
                    depth++;
                }
                assertEquals(ScxmlImport.DEFAULT_INVOKE_DEPTH, depth);
                String mid = saves.checkpoint(a);
                saves.restoreSpawningMissing(b, mid);
                assertEquals(mid, saves.checkpoint(b));
                assertEquals(ScxmlImport.DEFAULT_INVOKE_DEPTH, m.read(b.entity("deep")).context().session.bounds.sessions,
                        "the restored machine counts its sessions against the same limit");
                for (int i = 0; i < 3; i++) {
                    a.step(DT);
                    b.step(DT);
                }
                assertEquals(saves.checkpoint(a), saves.checkpoint(b));
            }
        });
    }

    /** The document's text as an ECMAScript string literal inside an XML attribute. */
    private static String attribute(String text) {
        return text.replace("\\", "\\\\").replace("'", "\\'").replace("\n", "\\n").replace("&", "&amp;").replace("<", "&lt;")
                .replace(">", "&gt;").replace("\"", "&quot;");
    }

    /** A checkpoint of the parent mid-child, its first child's part changed by {@code edit}: refused naming {@code expected}. */
    private static void assertRefused(Consumer<ObjectNode> edit, String expected) throws Exception {
        States<Datamodel> m = States.of(ScxmlImport.create().log((l, v) -> { }).read(PARENT));
        Saves saves = Saves.of(m);
        try (StateWorld w = StateWorld.create(); StateWorld target = StateWorld.create()) {
            Entity e = w.spawn(EntityKey.of("crane"), m.trait());
            m.send(e, "go");
            w.step(DT);
            ObjectNode cp = (ObjectNode) JSON.readTree(saves.checkpoint(w));
            JsonNode context = cp.path("entities").path("crane").path("scxml").path("context");
            edit.accept((ObjectNode) context.path("invoked").path("children").path(0));
            target.spawn(EntityKey.of("crane"), m.trait());
            String before = saves.checkpoint(target);
            CheckpointException x = assertThrows(CheckpointException.class, () -> saves.restore(target, cp.toString()));
            assertEquals(1, x.problems().size(), x.getMessage());
            assertTrue(x.problems().get(0).contains("machine 'scxml' cannot restore its context: "), x.problems().get(0));
            assertTrue(x.problems().get(0).contains(expected), "'" + expected + "' in " + x.problems().get(0));
            assertEquals(before, saves.checkpoint(target), "the world is unchanged");
        }
    }

    @Test
    void aCheckpointWhoseInvokedSessionsAreWrong_isRefusedNamingTheField_andChangesNothing() throws Exception {
        assertRefused(c -> c.put("invoke", 7), "invoked.children[0].invoke: expected the index of one of the 1 <invoke>s");
        assertRefused(c -> ((ArrayNode) c.path("states")).set(0, "nowhere"),
                "invoked.children[0].states[0]: expected a state path of machine");
        assertRefused(c -> c.put("colour", "red"), "invoked.children[0].colour: not a field of an invoked session");
        assertRefused(c -> c.remove("datamodel"), "invoked.children[0].datamodel: missing");
        assertRefused(c -> ((ObjectNode) c.path("datamodel").path("invoked").path("children").path(0)).put("invokeid", 3),
                "invoked.children[0].datamodel.invoked.children[0].invokeid: expected the session's invoke id");
        assertRefused(c -> ((ObjectNode) c.path("datamodel")).put("sessionid", "s1"),
                "invoked.children[0].datamodel.sessionid: expected '");
        assertRefused(c -> c.put("loadedSrc", "other.scxml"), "invoked.children[0].loadedSrc: expected the document its srcexpr loaded");
    }

    @Test
    void aCheckpointHoldingMoreSessionsThanTheMachineRuns_isRefused() throws Exception {
        // the grandchild's session repeated in its parent's list: more children than the document has invokes
        assertRefused(c -> {
            ArrayNode grandchildren = (ArrayNode) c.path("datamodel").path("invoked").path("children");
            grandchildren.add(grandchildren.get(0).deepCopy());
        }, "invoked.children[0].datamodel.invoked.children: expected the sessions it started, an array of at most 1");
    }
}

package dev.enginestates.io;

import dev.enginestates.declare.Event;
import dev.enginestates.ecs.EntityKey;
import dev.enginestates.ecs.StateWorld;
import dev.enginestates.ecs.States;
import dev.enginestates.scxml.Datamodel;
import dev.enginestates.scxml.ScxmlImport;
import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.SplittableRandom;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Property (issue 17): machines imported from SCXML documents written for this test (the
 * ECMAScript and null datamodels: variables of every JSON kind and undefined ones, assign,
 * script, foreach, raise, delayed sends with ids, idlocation, params and content, cancel,
 * donedata, late binding, deep history in a parallel, sends to the session's own location),
 * on entities fed random events (some with fields) and steps; a checkpoint taken at a random
 * moment, restored into a fresh world and run on with the same inputs ends with the same
 * checkpoint, text for text, as the world that ran straight through. The checkpoint holds the
 * datamodel's variables, so a restore that lost or changed one would diverge at the end or at
 * the next input that reads it. 80 random worlds by default ({@code -Dproperty.runs=N} runs N).
 */
class ScxmlCheckpointPropertyTest {
    static final double DT = 1.0 / 64;
    static final int DEFAULT_RUNS = 80;

    static {
        RandomWorlds.quiet();
    }

    static final String COUNTER = """
            <scxml xmlns="http://www.w3.org/2005/07/scxml" version="1.0" datamodel="ecmascript" initial="idle" name="counter">
              <datamodel>
                <data id="count" expr="0"/>
                <data id="log" expr="[]"/>
                <data id="cfg">{"max": 4, "names": ["a", "b"], "deep": {"x": null, "f": 1.5}}</data>
                <data id="nothing"/>
                <data id="sid" expr="_sessionid"/>
                <data id="last" expr="null"/>
                <data id="timer"/>
                <data id="flag" expr="false"/>
              </datamodel>
              <state id="idle">
                <transition event="inc" target="busy">
                  <assign location="count" expr="count + 1"/>
                  <script>log.push('inc:' + count + ':' + (typeof nothing)); if (log.length > 5) { log.shift(); } flag = !flag;</script>
                </transition>
                <transition event="arm">
                  <send event="tick" delay="50ms" idlocation="timer"><param name="at" expr="count"/><param name="who" expr="cfg.names"/></send>
                </transition>
                <transition event="tick">
                  <assign location="last" expr="_event.data.at"/>
                  <assign location="cfg.deep.x" expr="_event.data"/>
                </transition>
                <transition event="disarm"><cancel sendidexpr="timer"/></transition>
                <transition event="poke"><assign location="nothing" expr="_event.data ? _event.data.n : 'none'"/></transition>
              </state>
              <state id="busy">
                <onentry><send event="settle" delay="30ms" id="d"><content expr="({n: count, tag: 'b' + count, half: count / 2})"/></send></onentry>
                <transition event="settle" target="idle" cond="count &lt; cfg.max"><assign location="last" expr="_event.data"/></transition>
                <transition event="settle" target="full"/>
                <transition event="inc"><assign location="count" expr="count + 10"/></transition>
                <transition event="disarm"><cancel sendid="d"/></transition>
              </state>
              <state id="full">
                <transition event="reset" target="idle"><assign location="count" expr="0"/><assign location="log" expr="[]"/></transition>
                <transition event="inc"><send event="reset" delay="20ms"/></transition>
              </state>
            </scxml>
            """;

    static final String PARALLEL = """
            <scxml xmlns="http://www.w3.org/2005/07/scxml" version="1.0" datamodel="ecmascript" binding="late" initial="p" name="parallel">
              <datamodel><data id="total" expr="0"/></datamodel>
              <parallel id="p">
                <state id="left" initial="l1">
                  <datamodel><data id="seen" expr="[]"/></datamodel>
                  <history id="lh" type="deep"/>
                  <state id="l1"><transition event="a" target="l2"><script>seen.push(_event.name + seen.length)</script></transition></state>
                  <state id="l2" initial="l2a">
                    <state id="l2a"><transition event="b" target="l2b"/></state>
                    <state id="l2b"><transition event="a" target="lf"/></state>
                  </state>
                  <final id="lf"><donedata><param name="seen" expr="seen"/></donedata></final>
                </state>
                <state id="right" initial="r1">
                  <state id="r1">
                    <transition event="b" target="r2">
                      <foreach array="[1, 2, 3]" item="i" index="k"><assign location="total" expr="total + i * k"/></foreach>
                      <raise event="bumped"/>
                    </transition>
                  </state>
                  <state id="r2"><transition event="b" target="r1"/></state>
                </state>
                <transition event="bumped"><assign location="total" expr="total + 100"/></transition>
                <transition event="done.state.left"><assign location="total" expr="total + 1000 * _event.data.seen.length"/></transition>
                <transition event="out" target="away"/>
              </parallel>
              <state id="away">
                <datamodel><data id="visits" expr="0"/></datamodel>
                <onentry><assign location="visits" expr="visits + 1"/></onentry>
                <transition event="back" target="lh r2"/>
                <transition event="a" target="p"/>
              </state>
            </scxml>
            """;

    static final String SELF = """
            <scxml xmlns="http://www.w3.org/2005/07/scxml" version="1.0" datamodel="ecmascript" initial="s" name="self">
              <datamodel>
                <data id="me" expr="_ioprocessors['scxml'].location"/>
                <data id="got" expr="0"/>
                <data id="errors" expr="0"/>
              </datamodel>
              <state id="s">
                <transition event="a"><send event="echo" targetexpr="me" delay="40ms"><content>{"k": [1, "two", null, true]}</content></send></transition>
                <transition event="echo"><assign location="got" expr="got + _event.data.k.length"/></transition>
                <transition event="b" target="t"/>
                <transition event="error"><assign location="errors" expr="errors + 1"/></transition>
              </state>
              <state id="t">
                <transition event="a" target="s"><script>got = got * 2;</script></transition>
                <transition event="echo"><assign location="got" expr="got - 1"/></transition>
              </state>
            </scxml>
            """;

    static final String NULL = """
            <scxml xmlns="http://www.w3.org/2005/07/scxml" version="1.0" datamodel="null" initial="a" name="nullmodel">
              <state id="a">
                <transition event="go" target="b"/>
                <transition event="ping"><send event="pong" delay="20ms"/></transition>
              </state>
              <state id="b">
                <transition event="pong" cond="In('b')" target="a"/>
                <transition event="go" target="c"/>
              </state>
              <state id="c" initial="c1">
                <state id="c1"><transition event="ping" target="c2"/></state>
                <final id="c2"/>
                <transition event="done.state.c" target="a"/>
              </state>
            </scxml>
            """;

    static final String[] DOCS = {COUNTER, PARALLEL, SELF, NULL};
    static final String[][] EVENTS = {
            {"inc", "arm", "disarm", "tick", "poke", "reset"},
            {"a", "b", "out", "back", "bumped"},
            {"a", "b", "echo"},
            {"go", "ping", "pong"}};

    @Test
    void aCheckpointTakenMidRun_restoredIntoAFreshWorldAndRunOn_equalsTheStraightRun_variablesIncluded() {
        List<States<Datamodel>> machines = new ArrayList<>();
        for (String doc : DOCS) {
            machines.add(States.of(ScxmlImport.create().log((label, value) -> { }).read(doc)));
        }
        Saves saves = Saves.of(machines.toArray(new States<?>[0]));
        int runs = Integer.getInteger("property.runs", DEFAULT_RUNS);
        int restoredWithVariables = 0;
        int restoredWithSends = 0;
        for (int run = 0; run < runs; run++) {
            SplittableRandom rnd = new SplittableRandom(1717 + run);
            int entities = 1 + rnd.nextInt(3);
            int ops = 20 + rnd.nextInt(120);
            int cut = rnd.nextInt(ops);
            long[] plan = new long[ops];
            for (int i = 0; i < ops; i++) {
                plan[i] = rnd.nextLong();
            }
            try (StateWorld a = StateWorld.create(); StateWorld b = StateWorld.create()) {
                for (int i = 0; i < entities; i++) {
                    Object[] traits = new Object[machines.size() + 1];
                    traits[0] = EntityKey.of("e" + i);
                    for (int k = 0; k < machines.size(); k++) {
                        traits[k + 1] = machines.get(k).trait();
                    }
                    a.spawn(traits);
                }
                for (int i = 0; i < ops; i++) {
                    if (i == cut) {
                        String mid = saves.checkpoint(a);
                        saves.restoreSpawningMissing(b, mid);
                        assertEquals(mid, saves.checkpoint(b), "run " + run + ": the restore reads back what was saved");
                        restoredWithVariables += mid.contains("\"count\" : ") ? 1 : 0;
                        restoredWithSends += mid.contains("\"sends\" : [") ? 1 : 0;
                    }
                    apply(a, machines, entities, plan[i]);
                    if (i >= cut) {
                        apply(b, machines, entities, plan[i]);
                        if (rnd.nextInt(8) == 0) {
                            assertEquals(saves.checkpoint(a), saves.checkpoint(b), "run " + run + ": after input " + i + ", cut at " + cut);
                        }
                    }
                }
                assertEquals(saves.checkpoint(a), saves.checkpoint(b), "run " + run + ": checkpoint at input " + cut + " of " + ops);
                assertEquals(saves.dump(a), saves.dump(b), "run " + run + ": the dumps, which show the variables too");
            }
        }
        assertTrue(restoredWithVariables > runs / 2, "most cuts came after the datamodel was initialized: " + restoredWithVariables);
        assertTrue(restoredWithSends > runs / 10, "some cuts had pending sends: " + restoredWithSends);
    }

    /** One input: an event (with fields now and then) to a random machine on a random entity, or a step. */
    static void apply(StateWorld w, List<States<Datamodel>> machines, int entities, long r) {
        SplittableRandom rnd = new SplittableRandom(r);
        if (rnd.nextInt(3) == 0) {
            w.step(DT * (1 + rnd.nextInt(4)));
            return;
        }
        int k = rnd.nextInt(machines.size());
        String type = EVENTS[k][rnd.nextInt(EVENTS[k].length)];
        Event e = Event.of(type);
        if (rnd.nextInt(4) == 0) {
            Map<String, Object> fields = new LinkedHashMap<>();
            fields.put("n", rnd.nextInt(100));
            fields.put("at", rnd.nextInt(5) + 0.25);
            e = Event.of(type, fields);
        }
        machines.get(k).send(w.entity("e" + rnd.nextInt(entities)), e);
    }
}

package dev.enginestates.xstate;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.enginestates.Machine;
import dev.enginestates.StatesDef;
import dev.enginestates.declare.Action;
import dev.enginestates.declare.HistoryDepth;
import dev.enginestates.declare.MachineException;
import dev.enginestates.declare.Named;
import dev.enginestates.ecs.States;
import dev.enginestates.fsm.StateMachineBuilder;
import dev.enginestates.plain.StateMachine;
import dev.enginestates.records.Access;
import org.junit.jupiter.api.Test;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Issue 13, part 4: XState-style machines export as XState v5 JSON; guards and actions are
 * Java code, so the JSON names them as XState names its implementations, through the names
 * {@link XStateImport} binds. Code wrapped with {@link Named} keeps its name; other code gets
 * a stable name from the place it is declared.
 */
class XStateExportTest {
    static final ObjectMapper JSON = new ObjectMapper();

    static final class Guard {
        int bells;
    }

    static Machine<Guard> guard() {
        return Machine.define("guard", Guard::new, m -> m
                .initial("patrol")
                .state("patrol", p -> p
                        .initial("watch")
                        .state("watch", s -> s.waitFor(4, "rest"))
                        .state("rest", s -> s.waitFor(10, "watch"))
                        .history("resumed", HistoryDepth.DEEP)
                        .on("BELL", "answer"))
                .state("answer", s -> s
                        .entry(Named.action("countBell", (g, e) -> g.bells++))
                        .on("RESUME", "patrol.resumed")
                        .on("RESTART", "patrol")));
    }

    @Test
    void theGuard_exportsAsXStateWritesIt_withTheDocumentsWait() {
        assertEquals(String.join("\n",
                "{",
                "  \"id\": \"guard\",",
                "  \"initial\": \"patrol\",",
                "  \"states\": {",
                "    \"patrol\": {",
                "      \"initial\": \"watch\",",
                "      \"on\": {",
                "        \"BELL\": \"answer\"",
                "      },",
                "      \"states\": {",
                "        \"watch\": {",
                "          \"wait\": {",
                "            \"seconds\": 4,",
                "            \"then\": \"rest\"",
                "          }",
                "        },",
                "        \"rest\": {",
                "          \"wait\": {",
                "            \"seconds\": 10,",
                "            \"then\": \"watch\"",
                "          }",
                "        },",
                "        \"resumed\": {",
                "          \"type\": \"history\",",
                "          \"history\": \"deep\"",
                "        }",
                "      }",
                "    },",
                "    \"answer\": {",
                "      \"entry\": [\"countBell\"],",
                "      \"on\": {",
                "        \"RESUME\": \"patrol.resumed\",",
                "        \"RESTART\": \"patrol\"",
                "      }",
                "    }",
                "  }",
                "}",
                ""), XStateExport.toJson(guard()));
    }

    /**
     * JSON text is Unicode, written to a file as UTF-8: a name holding half of a surrogate pair (an
     * imported "\\ud800" is one) was written as that raw char, which UTF-8 cannot encode, so the
     * file read back as "a?" (or the write failed). It is written as the escape JSON has for it.
     */
    @Test
    void aLoneSurrogateInAName_isEscaped_soTheJsonSurvivesUtf8() {
        Machine<List<String>> m = XStateImport.<List<String>>withContext(ArrayList::new)
                .parse("{\"id\": \"m\", \"initial\": \"a\\ud800\", \"states\": {\"a\\ud800\": {\"on\": {\"\\udc00\": \"b\\ud83d\\ude00\"}},"
                        + " \"b\\ud83d\\ude00\": {}}}");
        String json = XStateExport.toJson(m);
        assertTrue(json.contains("\"a\\ud800\"") && json.contains("\"\\udc00\"") && json.contains("\"b\ud83d\ude00\""), json);
        String file = new String(json.getBytes(StandardCharsets.UTF_8), StandardCharsets.UTF_8);
        Machine<List<String>> back = XStateImport.<List<String>>withContext(ArrayList::new).parse(file);
        assertEquals(List.of("m", "a\ud800", "b\ud83d\ude00"), List.of(Access.chart(back).path).subList(0, 3).stream()
                .map(p -> p.isEmpty() ? "m" : p).collect(java.util.stream.Collectors.toList()));
        assertEquals(json, XStateExport.toJson(back));
    }

    @Test
    void theExportReadsBack_throughTheSameNames_toAMachineThatBehavesTheSame() {
        XStateExport<Guard> export = XStateExport.of(guard());
        assertEquals(List.of("countBell"), List.copyOf(export.actions().keySet()));
        Machine<Guard> back = XStateImport.withContext(Guard::new).implementations(export).parse(export.json());
        StateMachine<Guard> g = new StateMachine<>(back);
        g.step(3);
        g.send("BELL");
        g.send("RESUME");
        assertEquals(Map.of("patrol", "watch"), g.value());
        assertEquals(1.0, g.secondsLeft(), 1e-9, "back to the watch with one second left, through the deep history");
        assertEquals(1, g.context().bells, "the named entry action ran");
    }

    @Test
    void namedCodeKeepsItsName_andOtherCodeIsNamedByThePlaceItIsDeclared() {
        Machine<List<String>> m = Machine.define("rider", ArrayList::new, d -> d
                .initial("sliding")
                .state("sliding", s -> s
                        .when(Named.condition("isSlow", log -> log.isEmpty()), "stalling")
                        .when(log -> log.size() > 3, t -> t.target("stalled").action((log, e) -> log.add("crash")))
                        .on("HONK", t -> t.guard((log, e) -> true).action(Named.action("honk", (log, e) -> log.add("honk"))))
                        .on("HONK", t -> t.target("stalled")))
                .state("stalling", s -> s
                        .exit((log, e) -> log.add("exit"))
                        .waitFor(Named.seconds("stallSeconds", log -> 3.0), "stalled"))
                .state("stalled", s -> s.waitFor((log, e, self) -> 1.0, "sliding")));
        XStateExport<List<String>> export = XStateExport.of(m);
        assertEquals(List.of("isSlow", "sliding/when[1]/guard", "sliding/on.HONK[0]/guard"), List.copyOf(export.guards().keySet()));
        assertEquals(List.of("sliding/when[1]/actions[0]", "honk", "stalling/exit[0]"), List.copyOf(export.actions().keySet()),
                "in the order the JSON names them");
        assertEquals(List.of("stallSeconds", "stalled/wait/seconds"), List.copyOf(export.delays().keySet()));
        JsonNode json = tree(export.json());
        assertEquals("isSlow", json.at("/states/sliding/when/0/guard").asText());
        assertEquals("sliding/when[1]/guard", json.at("/states/sliding/when/1/guard").asText());
        assertEquals("sliding/when[1]/actions[0]", json.at("/states/sliding/when/1/actions/0").asText());
        assertEquals("sliding/on.HONK[0]/guard", json.at("/states/sliding/on/HONK/0/guard").asText());
        assertTrue(json.at("/states/sliding/on/HONK/0/target").isMissingNode(), "a targetless transition has no target");
        assertEquals("stalled", json.at("/states/sliding/on/HONK/1").asText(), "a lone target is a string");
        assertEquals("stallSeconds", json.at("/states/stalling/wait/seconds").asText());
        assertEquals("stalled/wait/seconds", json.at("/states/stalled/wait/seconds").asText());
        assertEquals(export.json(), XStateExport.toJson(Machine.define("rider", ArrayList::new, d -> d
                .initial("sliding")
                .state("sliding", s -> s
                        .when(Named.condition("isSlow", log -> log.isEmpty()), "stalling")
                        .when(log -> log.size() > 3, t -> t.target("stalled").action((log, e) -> log.add("crash")))
                        .on("HONK", t -> t.guard((log, e) -> true).action(Named.action("honk", (log, e) -> log.add("honk"))))
                        .on("HONK", t -> t.target("stalled")))
                .state("stalling", s -> s
                        .exit((log, e) -> log.add("exit"))
                        .waitFor(Named.seconds("stallSeconds", log -> 3.0), "stalled"))
                .state("stalled", s -> s.waitFor((log, e, self) -> 1.0, "sliding")))),
                "the same declaration, made again, exports the same names");
    }

    @Test
    void oneCodeInSeveralPlaces_hasOneName_theFirstPlaces() {
        Action<List<String>> log = (l, e) -> l.add("x");
        Machine<List<String>> m = Machine.define("m", ArrayList::new, d -> d
                .state("a", s -> s.entry(log).on("GO", t -> t.target("b").action(log)))
                .state("b", s -> s.exit(log)));
        XStateExport<List<String>> export = XStateExport.of(m);
        assertEquals(Map.of("a/entry[0]", log), export.actions());
        JsonNode json = tree(export.json());
        assertEquals("a/entry[0]", json.at("/states/a/on/GO/actions/0").asText());
        assertEquals("a/entry[0]", json.at("/states/b/exit/0").asText());
    }

    @Test
    void twoDifferentPiecesOfCodeUnderOneName_areRefused_namingBothPlaces() {
        Machine<List<String>> m = Machine.define("m", ArrayList::new, d -> d
                .state("a", s -> s.on("GO", t -> t.target("b").guard(Named.guard("ready", (l, e) -> true))))
                .state("b", s -> s.on("GO", t -> t.target("a").guard(Named.guard("ready", (l, e) -> false)))));
        MachineException e = assertThrows(MachineException.class, () -> XStateExport.of(m));
        assertEquals("machine 'm': two different pieces of code are both the guard named 'ready' (at a/on.GO[0]/guard and at"
                + " b/on.GO[0]/guard); a name stands for one implementation in XState's config, so rename one of them", e.getMessage());
        // one piece of code wrapped twice under the same name is one implementation
        Action<List<String>> log = (l, ev) -> l.add("x");
        Machine<List<String>> twice = Machine.define("m", ArrayList::new, d -> d
                .state("a", s -> s.entry(Named.action("log", log)).exit(Named.action("log", log))));
        assertEquals(List.of("log"), List.copyOf(XStateExport.of(twice).actions().keySet()));
    }

    @Test
    void polledAndBuilderMachines_areRefused_namingWhatToDrawThemWith() {
        StatesDef<Object> polled = StatesDef.define("door", d -> d.state("open").state("shut"));
        MachineException p = assertThrows(MachineException.class, () -> XStateExport.of(polled.machine()));
        assertTrue(p.getMessage().startsWith("machine 'door' is a polled (StatesDef) machine, which XState's config cannot express;"),
                p.getMessage());
        assertTrue(p.getMessage().contains("Diagrams.mermaid"), p.getMessage());
        var built = new StateMachineBuilder<dev.enginestates.RandomStatecharts.Actor>("combo")
                .configureState("Idle").asInitial().handler((f, dt) -> null).build();
        MachineException b = assertThrows(MachineException.class, () -> XStateExport.of(built.machine()));
        assertTrue(b.getMessage().startsWith("machine 'combo' is a builder-style (StateMachineBuilder) machine"), b.getMessage());
    }

    @Test
    void anEcsBinding_exportsAsTheMachineItWasMadeFrom_andOneOfAPolledMachineIsRefusedAlike() {
        States<Guard> onEntities = States.define("guard", Guard::new, m -> m
                .initial("patrol")
                .state("patrol", s -> s.on("BELL", t -> t.target("answer").guard(Named.guard("awake", (g, e) -> true))))
                .state("answer"));
        XStateExport<Guard> export = XStateExport.of(onEntities);
        assertEquals(XStateExport.toJson(onEntities.machine()), export.json());
        assertEquals(export.json(), XStateExport.toJson(onEntities));
        assertEquals(List.of("awake"), List.copyOf(export.guards().keySet()));
        States<Object> door = States.of(StatesDef.define("door", d -> d.state("open").state("shut")));
        MachineException e = assertThrows(MachineException.class, () -> XStateExport.toJson(door));
        assertTrue(e.getMessage().startsWith("machine 'door' is a polled (StatesDef) machine, which XState's config cannot express;"),
                e.getMessage());
    }

    @Test
    void aRootIdOtherThanTheMachinesId_isRefused() {
        Machine<Object> m = Machine.define("m", Object::new, d -> d.id("top").state("a"));
        MachineException e = assertThrows(MachineException.class, () -> XStateExport.of(m));
        assertTrue(e.getMessage().contains("has root id 'top'; XState's root id is the machine's id"), e.getMessage());
    }

    @Test
    void targets_areWrittenInTheShortestFormTheCompilerResolves() {
        Machine<Object> m = Machine.define("m", Object::new, d -> d
                .on("TOP", ".b.y")
                .state("a", s -> s
                        .on("CHILD", ".x")
                        .on("SIBLING", "b")
                        .on("BELOW_SIBLING", "b.y")
                        .on("SELF", t -> t.target("a").reenter())
                        .state("x", x -> x.on("FAR", "#far").on("UP", "#m.a").on("ROOT", "#m")))
                .state("b", s -> s.state("y", y -> y.id("far"))));
        JsonNode json = tree(XStateExport.toJson(m));
        assertEquals(".b.y", json.at("/on/TOP").asText());
        assertEquals(".x", json.at("/states/a/on/CHILD").asText());
        assertEquals("b", json.at("/states/a/on/SIBLING").asText());
        assertEquals("b.y", json.at("/states/a/on/BELOW_SIBLING").asText());
        assertEquals("a", json.at("/states/a/on/SELF/target").asText());
        assertTrue(json.at("/states/a/on/SELF/reenter").asBoolean());
        assertEquals("#far", json.at("/states/a/states/x/on/FAR").asText());
        assertEquals("#m.a", json.at("/states/a/states/x/on/UP").asText());
        assertEquals("#m", json.at("/states/a/states/x/on/ROOT").asText());
        assertEquals("far", json.at("/states/b/states/y/id").asText(), "an explicit id is written; a default one is not");
        assertTrue(json.at("/states/a/id").isMissingNode());
    }

    enum Place { A, X, B }

    enum Go { GO }

    @Test
    void aTargetOnlyAnIdReaches_inAMachineWhoseIdHasADot_isRefusedWithWhatToDo() {
        // a typed machine names its targets by constants, wherever they are; XState's text needs '#id' for this one
        Machine<Object> m = Machine.define("game.guard", Object::new, Place.class, Go.class, d -> d
                .state(Place.A, s -> s.state(Place.X, x -> x.on(Go.GO, Place.B))).state(Place.B));
        MachineException e = assertThrows(MachineException.class, () -> XStateExport.of(m));
        assertTrue(e.getMessage().contains("state 'A.X' targets 'B', which an XState config reaches only by '#id'"), e.getMessage());
        assertTrue(e.getMessage().contains("give 'B' an id(...) to export it"), e.getMessage());
    }

    @Test
    void aMachineImportedFromJson_exportsTheNamesItWasImportedWith() throws Exception {
        String original = String.join("\n",
                "{",
                "  \"id\": \"door\",",
                "  \"initial\": \"shut\",",
                "  \"states\": {",
                "    \"shut\": {",
                "      \"entry\": [\"lock\"],",
                "      \"on\": {",
                "        \"OPEN\": {",
                "          \"target\": \"opening\",",
                "          \"guard\": \"hasKey\",",
                "          \"actions\": [\"unlock\", \"creak\"]",
                "        }",
                "      }",
                "    },",
                "    \"opening\": {",
                "      \"wait\": {",
                "        \"seconds\": \"swingTime\",",
                "        \"then\": \"open\"",
                "      }",
                "    },",
                "    \"open\": {",
                "      \"when\": [",
                "        {",
                "          \"guard\": \"nobodyNear\",",
                "          \"target\": \"shut\"",
                "        }",
                "      ]",
                "    }",
                "  }",
                "}",
                "");
        List<String> resolved = new ArrayList<>();
        Machine<List<String>> m = XStateImport.<List<String>>withContext(ArrayList::new)
                .guards(name -> {
                    resolved.add(name);
                    return (log, e) -> true;
                })
                .actions(name -> (log, e) -> log.add(name))
                .delay("swingTime", log -> 0.5)
                .parse(original);
        assertEquals(original, XStateExport.toJson(m), "the same names, the same JSON");
        assertEquals(List.of("hasKey", "nobodyNear"), resolved, "each name is resolved once per import");
        assertEquals("hasKey", Named.nameOf(Access.chart(m).tGuard[Access.chart(m).on[1][0][0]]));
        Object lock = Access.chart(m).entry[1][0];
        assertEquals("lock", Named.nameOf(lock));
        assertSame(lock, XStateExport.of(m).actions().get("lock"));
    }

    static JsonNode tree(String json) {
        try {
            return JSON.readTree(json);
        } catch (Exception e) {
            throw new AssertionError("not JSON: " + json, e);
        }
    }

    /**
     * Names are the game's strings, and JSON has escapes for every character: quotes, backslashes,
     * line breaks and control characters in keys, ids, events and code names are written escaped
     * and read back to the same chart, through the same names.
     */
    @Test
    void namesWithQuotesBackslashesAndControlCharacters_areEscaped_andReadBackToTheSameChart() {
        Machine<List<String>> m = Machine.define("m\"1", ArrayList::new, d -> d
                .initial("say \"hi\"")
                .state("say \"hi\"", s -> s
                        .entry((log, e) -> log.add("unnamed"))
                        .on("GO \"now\"", t -> t.target("tab\there").guard(Named.guard("c\\d\t", (log, e) -> true)))
                        .on("\u0001", "#id \"q\""))
                .state("tab\there", s -> s
                        .exit(Named.action("a\"b\n", (log, e) -> log.add("a")))
                        .waitFor(Named.seconds("s\"\u0002", log -> 1), "line\nbreak"))
                .state("line\nbreak", s -> s.id("id \"q\"").on("x\\y", "nul\u0000 del\u007f sep\u2028")
                        .when(Named.condition("w\r", log -> false), "say \"hi\""))
                .state("nul\u0000 del\u007f sep\u2028"));
        XStateExport<List<String>> export = XStateExport.of(m);
        String json = export.json();
        for (char c : json.toCharArray()) {
            assertTrue(c >= 0x20 && c != 0x2028 || c == '\n', "a raw U+" + Integer.toHexString(c) + " in:\n" + json);
        }
        Machine<List<String>> back = XStateImport.<List<String>>withContext(ArrayList::new).implementations(export).parse(json);
        ChartEquality.assertSameChart(Access.chart(m), Access.chart(back), export, json);
        assertEquals(json, XStateExport.toJson(back));
    }

    /**
     * The import reads an action named "xstate.raise" and a guard named "xstate.stateIn" as XState's
     * own, which take params: code of the game's own under those names would not read back as
     * itself, so the export refuses them, naming the place, rather than writing JSON its import refuses.
     */
    @Test
    void codeNamedAsXStatesOwnRaiseOrStateIn_isRefused_ratherThanWrittenAsJsonThatReadsBackAsAnotherThing() {
        Machine<List<String>> raise = Machine.define("m", ArrayList::new, d -> d
                .state("a", s -> s.entry(Named.action("xstate.raise", (log, e) -> { }))));
        MachineException e = assertThrows(MachineException.class, () -> XStateExport.of(raise));
        assertTrue(e.getMessage().contains("'xstate.raise'") && e.getMessage().contains("a/entry[0]"), e::getMessage);
        Machine<List<String>> stateIn = Machine.define("m", ArrayList::new, d -> d
                .state("a", s -> s.on("GO", t -> t.target("b").guard(Named.guard("xstate.stateIn", (log, ev) -> true))))
                .state("b"));
        MachineException g = assertThrows(MachineException.class, () -> XStateExport.of(stateIn));
        assertTrue(g.getMessage().contains("'xstate.stateIn'") && g.getMessage().contains("a/on.GO[0]/guard"), g::getMessage);
    }
}

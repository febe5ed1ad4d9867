package dev.enginestates.scxml;

import dev.dominion.ecs.api.Entity;
import dev.enginestates.Machine;
import dev.enginestates.declare.Event;
import dev.enginestates.declare.InvalidMachineException;
import dev.enginestates.ecs.StateWorld;
import dev.enginestates.ecs.States;
import dev.enginestates.plain.StateMachine;
import org.junit.jupiter.api.Test;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.lang.reflect.Field;
import java.lang.reflect.Modifier;
import java.net.ServerSocket;
import java.net.SocketTimeoutException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.stream.Collectors;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Issue 17: an SCXML document is untrusted input (from modders, tools, the network). Each test is one attack and
 * the rule that defeats it. A script's failure is the datamodel's error: error.execution on the internal queue,
 * the machine goes on (SCXML 5.10 and B.2).
 */
class ScxmlAttackTest {
    private static String doc(String body) {
        return "<scxml xmlns=\"http://www.w3.org/2005/07/scxml\" version=\"1.0\" datamodel=\"ecmascript\" name=\"attack\">\n"
                + body + "\n</scxml>";
    }

    private static Set<String> leaves(StateMachine<Datamodel> m) {
        return m.leaves().stream().map(ScxmlImport::stateId).collect(Collectors.toCollection(TreeSet::new));
    }

    /** A machine whose state a runs the hostile content on entry and moves to b on error.execution, keeping its reason. */
    private static StateMachine<Datamodel> attacked(ScxmlImport importer, String onentry) {
        return new StateMachine<>(importer.read(doc("""
                <datamodel><data id="reason" expr="''"/><data id="tag" expr="''"/></datamodel>
                <state id="a">
                  <onentry>%s</onentry>
                  <transition event="error.execution" target="b">
                    <assign location="reason" expr="_event.data.reason"/><assign location="tag" expr="_event.data.tagname"/>
                  </transition>
                </state>
                <state id="b"/>
                """.formatted(onentry))));
    }

    private static String reason(StateMachine<Datamodel> sm) {
        return (String) sm.context().toJava(sm.context().evaluate("reason"));
    }

    private static Object eval(Datamodel dm, String expression) {
        return dm.toJava(dm.evaluate(expression));
    }

    // ------------------------------------------------------------------ no way to Java

    @Test
    void a_script_cannot_reach_java_classes() {
        Datamodel dm = new EcmaScriptDatamodel();
        for (String name : List.of("java", "javax", "org", "com", "net", "edu", "Packages", "getClass", "JavaAdapter",
                "JavaImporter", "Continuation")) {
            assertEquals("undefined", eval(dm, "typeof " + name), name + " must not be defined");
        }
        StateMachine<Datamodel> sm = attacked(ScxmlImport.create(),
                "<script>java.lang.System.exit(3)</script><assign location=\"reason\" expr=\"'went on'\"/>");
        assertEquals(Set.of("b"), leaves(sm), "the script failed: error.execution, and the JVM is still here");
        assertTrue(reason(sm).contains("java"), reason(sm));
        for (String attack : List.of("Packages.java.lang.Runtime.getRuntime()", "getClass(1)",
                "new JavaAdapter(Object, {})", "(function(){ return this })().java.lang")) {
            assertThrows(DatamodelException.class, () -> dm.evaluate(attack), attack);
        }
    }

    @Test
    void a_java_value_in_an_event_is_opaque_to_scripts() {
        // an event's field from Java that is no JSON-like value: scripts may keep it and print it, not reach into it
        java.io.File file = new java.io.File("/");
        StateMachine<Datamodel> sm = new StateMachine<>(ScxmlImport.create().read(doc("""
                <datamodel><data id="kept" expr="''"/><data id="shown" expr="''"/></datamodel>
                <state id="a">
                  <transition event="go" target="b"><script>kept = _event.data.file; shown = '' + kept;
                    kept.getClass().forName('java.lang.Runtime')</script></transition>
                  <transition event="error.execution" target="c"/>
                </state>
                <state id="b"><transition event="error.execution" target="c"/></state><state id="c"/>
                """)));
        sm.send(Event.of("go", Map.of("file", file)));
        assertEquals(Set.of("c"), leaves(sm), "getClass() on a Java value failed: error.execution");
        assertEquals(file, eval(sm.context(), "kept"), "the value goes back to Java as it came");
        assertEquals(file.toString(), eval(sm.context(), "shown"));
        assertEquals("undefined", eval(sm.context(), "typeof kept.getClass"));
        Datamodel dm = sm.context();
        dm.assign("kept", dm.evaluate("undefined"));
        assertEquals("undefined", eval(dm, "typeof kept"), "JS values, undefined included, are not wrapped (W3C test 351)");
        dm.assign("kept", dm.evaluate("10n"));
        assertEquals("bigint", eval(dm, "typeof kept"));
    }

    // ------------------------------------------------------------------ endless and runaway scripts

    @Test
    void an_endless_loop_is_stopped_by_the_budget_and_raises_error_execution() {
        for (String loop : List.of("while (true) {}", "try { while (true) {} } catch (e) {} ",
                "try { for (;;) {} } finally { while (true) {} }", "var a = []; while (true) { a = [a.length]; }")) {
            long t0 = System.nanoTime();
            StateMachine<Datamodel> sm = attacked(ScxmlImport.create(), "<script>" + loop + "</script>");
            long ms = (System.nanoTime() - t0) / 1_000_000;
            assertEquals(Set.of("b"), leaves(sm), loop);
            assertTrue(reason(sm).contains("budget of 1000000 instructions"), reason(sm));
            assertEquals("script", eval(sm.context(), "tag"));
            assertTrue(ms < 10_000, loop + " took " + ms + " ms");
        }
    }

    @Test
    void an_endless_loop_in_a_condition_is_false_and_raises_error_execution() {
        StateMachine<Datamodel> sm = new StateMachine<>(ScxmlImport.create().read(doc("""
                <state id="a">
                  <transition event="go" cond="(function () { while (true) {} })()" target="won"/>
                  <transition event="error.execution" target="b"/>
                </state>
                <state id="won"/><state id="b"/>
                """)));
        sm.send("go");
        assertEquals(Set.of("b"), leaves(sm));
    }

    @Test
    void a_runaway_recursion_is_an_error_not_a_stack_overflow() {
        for (String recursion : List.of("function f() { return f() + 1; } f();",
                "function g() { return [1].map(g); } g();", // through Rhino's Java frames (a native callback)
                "var o = {}; o.toString = function () { return '' + o; }; '' + o;")) {
            StateMachine<Datamodel> sm = attacked(ScxmlImport.create(), "<script>" + recursion + "</script>");
            assertEquals(Set.of("b"), leaves(sm), recursion);
            assertFalse(reason(sm).isEmpty());
            assertEquals(2.0, eval(sm.context(), "1 + 1"), "the datamodel still evaluates");
        }
    }

    @Test
    void reading_a_hostile_value_into_java_is_an_error_not_a_hang_or_a_stack_overflow() {
        for (String value : List.of("(function () { var a = {}; a.self = a; return a; })()",
                "({ get x() { while (true) {} } })",
                "new Proxy({}, { ownKeys: function () { while (true) {} } })")) {
            List<Object> logged = new ArrayList<>();
            StateMachine<Datamodel> sm = attacked(ScxmlImport.create().log((label, v) -> logged.add(v)),
                    "<log expr=\"" + value.replace("\"", "&quot;") + "\"/>");
            assertEquals(Set.of("b"), leaves(sm), value);
            assertEquals("log", eval(sm.context(), "tag"));
            assertEquals(List.of(), logged, value);
        }
    }

    @Test
    void a_foreach_over_a_huge_sparse_array_is_refused_not_copied() {
        StateMachine<Datamodel> sm = attacked(ScxmlImport.create(), """
                <foreach array="(function () { var a = []; a.length = 4294967295; return a; })()" item="x"><raise event="each"/></foreach>
                """);
        assertEquals(Set.of("b"), leaves(sm));
        assertTrue(reason(sm).contains("at most " + RhinoScope.MAX_ITEMS), reason(sm));
        assertEquals("foreach", eval(sm.context(), "tag"));
    }

    @Test
    void a_raise_loop_is_stopped_by_the_calls_budget_with_the_machines_name() {
        StateMachine<Datamodel> sm = new StateMachine<>(ScxmlImport.create().read(doc("""
                <state id="a"><transition event="go" target="b"/></state>
                <state id="b"><onentry><raise event="again"/></onentry><transition event="again" target="b"/></state>
                """)));
        RuntimeException e = assertThrows(RuntimeException.class, () -> sm.send("go"));
        assertTrue(e.getMessage().contains("'attack'") && e.getCause() instanceof CallBudgetException, e.getMessage());
        assertTrue(e.getCause().getMessage().contains("machine 'attack' spent its budget of " + ScxmlImport.DEFAULT_CALL_BUDGET),
                e.getCause().getMessage());
        assertEquals(2.0, eval(sm.context(), "1 + 1"), "the machine's datamodel still works");

        // with a budget larger than the loop needs, the engine's own bound on microsteps stops it
        StateMachine<Datamodel> large = new StateMachine<>(ScxmlImport.create().callBudget(Long.MAX_VALUE).read(doc("""
                <state id="a"><transition event="go" target="b"/></state>
                <state id="b"><onentry><raise event="again"/></onentry><transition event="again" target="b"/></state>
                """)));
        e = assertThrows(RuntimeException.class, () -> large.send("go"));
        assertTrue(e.getMessage().contains("'attack'") && e.getMessage().contains("10000"), e.getMessage());
    }

    @Test
    void a_checkpoint_of_a_hostile_variable_is_refused_not_a_hang() {
        for (String value : List.of("({ get x() { while (true) {} } })",
                "(function () { var a = []; a.length = 4294967295; return a; })()")) {
            StateMachine<Datamodel> sm = new StateMachine<>(ScxmlImport.create().read(doc(
                    "<datamodel><data id=\"v\" expr=\"" + value.replace("\"", "&quot;") + "\"/></datamodel><state id=\"a\"/>")));
            IllegalStateException e = assertThrows(IllegalStateException.class, () -> sm.context().save(), value);
            assertTrue(e.getMessage().contains("'attack'") && (e.getMessage().contains("budget")
                    || e.getMessage().contains(RhinoScope.MAX_ITEMS + " at most")), e.getMessage());
        }
    }

    @Test
    void regular_expression_backtracking_counts_against_the_budget() {
        // Rhino's regular expressions report their backtracking to the instruction observer: no ReDoS
        StateMachine<Datamodel> sm = attacked(ScxmlImport.create(),
                "<script>/(a+)+$/.test('" + "a".repeat(40) + "!')</script>");
        assertEquals(Set.of("b"), leaves(sm));
        assertTrue(reason(sm).contains("budget"), reason(sm));
    }

    @Test
    void the_instruction_budget_is_configurable() {
        String loop = "<script>for (var i = 0; i &lt; 50000; i++) {}</script>";
        assertEquals(Set.of("a"), leaves(attacked(ScxmlImport.create(), loop)), "the default budget runs 50,000 turns");
        StateMachine<Datamodel> small = attacked(ScxmlImport.create().datamodel("ecmascript", () -> new EcmaScriptDatamodel(20_000)), loop);
        assertEquals(Set.of("b"), leaves(small));
        assertTrue(reason(small).contains("budget of 20000 instructions"), reason(small));
        assertThrows(IllegalArgumentException.class, () -> new EcmaScriptDatamodel(0));
    }

    @Test
    void the_budget_is_per_evaluation_so_a_long_life_is_not_a_long_script() {
        EcmaScriptDatamodel dm = new EcmaScriptDatamodel(20_000);
        dm.declare("n", 0.0);
        for (int i = 0; i < 1_000; i++) {
            dm.run("for (var k = 0; k < 100; k++) { n++; }");
        }
        assertEquals(100_000.0, eval(dm, "n"));
    }

    @Test
    void a_stopped_machine_leaves_the_other_machines_of_the_world_unaffected() {
        States<Datamodel> looping = States.of(ScxmlImport.create().read(doc("""
                <state id="a"><transition event="go" target="b"/></state>
                <state id="b"><onentry><script>while (true) {}</script></onentry><transition event="error.execution" target="failed"/></state>
                <state id="failed"/>
                """)));
        States<Datamodel> counter = States.of(ScxmlImport.create().read(doc("""
                <datamodel><data id="n" expr="0"/></datamodel>
                <state id="a"><transition event="go" target="b"><assign location="n" expr="n + 1"/></transition></state>
                <state id="b"/>
                """).replace("name=\"attack\"", "name=\"counter\"")));
        try (StateWorld world = StateWorld.create()) {
            Entity bad = world.spawn(looping.trait());
            Entity good = world.spawn(counter.trait());
            looping.send(bad, "go");
            counter.send(good, "go");
            world.step(1.0 / 60);
            assertTrue(looping.read(bad).matches("failed"), "the loop was stopped and became error.execution");
            assertTrue(counter.read(good).matches("b"));
            assertEquals(1.0, eval(counter.read(good).context(), "n"));
        }
    }

    // ------------------------------------------------------------------ compiled scripts

    @Test
    void compiled_scripts_belong_to_their_document_not_to_a_global_cache() {
        for (Field f : RhinoScope.class.getDeclaredFields()) {
            if (Modifier.isStatic(f.getModifiers())) {
                assertFalse(Map.class.isAssignableFrom(f.getType()),
                        "static " + f.getName() + " would outlive the documents");
            }
        }
        Machine<Datamodel> m = ScxmlImport.create().read(doc("""
                <datamodel><data id="n" expr="0"/></datamodel>
                <state id="a"><transition event="go" cond="n &lt; 5"><assign location="n" expr="n + 1"/></transition></state>
                """));
        StateMachine<Datamodel> one = new StateMachine<>(m);
        StateMachine<Datamodel> two = new StateMachine<>(m);
        one.send("go");
        two.send("go");
        assertTrue(one.context().session.doc == two.context().session.doc);
        RhinoScope.Compiled texts = (RhinoScope.Compiled) one.context().session.doc.caches.get(RhinoScope.Compiled.class);
        assertTrue(texts.expressions.containsKey("n < 5") && texts.expressions.containsKey("n + 1"), texts.expressions::toString);
        // expressions a game builds at run time (Datamodel.evaluate from Java) cannot grow the cache without end
        for (int i = 0; i < RhinoScope.CACHE_LIMIT + 500; i++) {
            assertEquals((double) i, eval(one.context(), "n - n + " + i));
        }
        assertEquals(RhinoScope.CACHE_LIMIT, texts.expressions.size());
    }

    // ------------------------------------------------------------------ XML

    @Test
    void an_external_entity_is_refused_before_anything_is_read() {
        String xxe = "<?xml version=\"1.0\"?>\n<!DOCTYPE scxml [<!ENTITY x SYSTEM \"file:///etc/passwd\">]>\n"
                + doc("<state id=\"a\"><onentry><log expr=\"'&x;'\"/></onentry></state>");
        InvalidMachineException e = assertThrows(InvalidMachineException.class, () -> ScxmlImport.create().read(xxe));
        assertTrue(e.getMessage().contains("DOCTYPE"), e.getMessage());
        assertFalse(e.getMessage().contains("root:"), "nothing of the file is echoed");
    }

    @Test
    void an_external_dtd_is_refused() {
        String dtd = "<?xml version=\"1.0\"?>\n<!DOCTYPE scxml SYSTEM \"http://127.0.0.1:9/scxml.dtd\">\n" + doc("<state id=\"a\"/>");
        assertTrue(assertThrows(InvalidMachineException.class, () -> ScxmlImport.create().read(dtd)).getMessage().contains("DOCTYPE"));
    }

    @Test
    void billion_laughs_is_refused() {
        StringBuilder sb = new StringBuilder("<?xml version=\"1.0\"?>\n<!DOCTYPE scxml [\n<!ENTITY l0 \"ha\">\n");
        for (int i = 1; i < 10; i++) {
            sb.append("<!ENTITY l").append(i).append(" \"").append(("&l" + (i - 1) + ";").repeat(10)).append("\">\n");
        }
        sb.append("]>\n").append(doc("<state id=\"a\"><onentry><log expr=\"'&l9;'\"/></onentry></state>"));
        long t0 = System.nanoTime();
        InvalidMachineException e = assertThrows(InvalidMachineException.class, () -> ScxmlImport.create().read(sb.toString()));
        assertTrue(e.getMessage().contains("DOCTYPE"), e.getMessage());
        assertTrue(System.nanoTime() - t0 < 5_000_000_000L);
    }

    @Test
    void a_schema_location_or_xinclude_is_not_fetched() throws Exception {
        try (ServerSocket server = new ServerSocket(0)) {
            String url = "http://127.0.0.1:" + server.getLocalPort() + "/x";
            String text = "<scxml xmlns=\"http://www.w3.org/2005/07/scxml\" version=\"1.0\" datamodel=\"ecmascript\""
                    + " xmlns:xsi=\"http://www.w3.org/2001/XMLSchema-instance\" xmlns:xi=\"http://www.w3.org/2001/XInclude\""
                    + " xsi:schemaLocation=\"http://www.w3.org/2005/07/scxml " + url + ".xsd\">"
                    + "<state id=\"a\"><xi:include href=\"" + url + ".xml\" parse=\"xml\"/></state></scxml>";
            StateMachine<Datamodel> sm = new StateMachine<>(ScxmlImport.create().read(text));
            assertEquals(Set.of("a"), leaves(sm));
            server.setSoTimeout(200);
            assertThrows(SocketTimeoutException.class, server::accept, "the importer connected to " + url);
        }
    }

    @Test
    void ten_thousand_nested_states_are_refused_with_a_clear_error_not_a_stack_overflow() {
        InvalidMachineException e = assertThrows(InvalidMachineException.class,
                () -> ScxmlImport.create().read(nested(10_000)));
        assertTrue(e.getMessage().contains("nested " + (Xml.MAX_DEPTH + 1) + " elements deep"), e.getMessage());
        assertTrue(e.getMessage().contains("line " + (Xml.MAX_DEPTH + 1)), e.getMessage());
    }

    @Test
    void nesting_up_to_the_limit_imports_and_runs() {
        // the root and the deepest state's transition take two of the levels
        StateMachine<Datamodel> sm = new StateMachine<>(ScxmlImport.create().read(nested(Xml.MAX_DEPTH - 2)));
        assertEquals(Set.of("s" + (Xml.MAX_DEPTH - 2)), leaves(sm));
        sm.send("go");
        assertEquals(Set.of("out"), leaves(sm));
    }

    /** {@code depth} states each inside the last, one per line after the root's; the deepest leaves for a sibling of the outermost. */
    private static String nested(int depth) {
        StringBuilder sb = new StringBuilder("<scxml xmlns=\"http://www.w3.org/2005/07/scxml\" version=\"1.0\" datamodel=\"null\">");
        for (int i = 1; i <= depth; i++) {
            sb.append("\n<state id=\"s").append(i).append("\">");
        }
        sb.append("<transition event=\"go\" target=\"out\"/>");
        sb.append("</state>".repeat(depth)).append("<state id=\"out\"/></scxml>");
        return sb.toString();
    }

    @Test
    void a_document_with_too_many_elements_or_too_much_text_is_refused() {
        String many = doc("<state id=\"a\"><onentry>" + "<raise event=\"e\"/>".repeat(Xml.MAX_ELEMENTS) + "</onentry></state>");
        InvalidMachineException e = assertThrows(InvalidMachineException.class, () -> ScxmlImport.create().read(many));
        assertTrue(e.getMessage().contains("more than " + Xml.MAX_ELEMENTS + " elements"), e.getMessage());
        String big = doc("<state id=\"a\"><onentry><script>" + "x".repeat((int) Xml.MAX_TEXT) + "</script></onentry></state>");
        e = assertThrows(InvalidMachineException.class, () -> ScxmlImport.create().read(big));
        assertTrue(e.getMessage().contains("characters"), e.getMessage());
        assertTrue(e.getMessage().contains("'scxml'") || e.getMessage().contains("scxml"), e.getMessage());
    }

    // ------------------------------------------------------------------ errors and output

    @Test
    void an_import_error_names_the_document_the_line_and_what_was_expected() throws Exception {
        Path file = Files.createTempFile("hostile", ".scxml");
        try {
            Files.writeString(file, nested(Xml.MAX_DEPTH + 5));
            String name = file.getFileName().toString().replace(".scxml", "");
            InvalidMachineException e = assertThrows(InvalidMachineException.class, () -> ScxmlImport.create().read(file));
            assertTrue(e.getMessage().contains(name), e.getMessage());
            assertTrue(e.getMessage().contains("line " + (Xml.MAX_DEPTH + 1)) && e.getMessage().contains("at most"), e.getMessage());
        } finally {
            Files.delete(file);
        }
    }

    @Test
    void nothing_is_printed_while_documents_attack() {
        PrintStream out = System.out;
        PrintStream err = System.err;
        ByteArrayOutputStream printed = new ByteArrayOutputStream();
        PrintStream capture = new PrintStream(printed, true, StandardCharsets.UTF_8);
        List<String> logs = new ArrayList<>();
        try {
            System.setOut(capture);
            System.setErr(capture);
            ScxmlImport importer = ScxmlImport.create().log((label, value) -> logs.add(String.valueOf(value)));
            attacked(importer, "<log expr=\"'seen'\"/><script>java.lang.System.out.println('x')</script>");
            attacked(importer, "<script>while (true) {}</script>");
            attacked(importer, "<script>function f() { return f(); } f();</script>");
        } finally {
            System.setOut(out);
            System.setErr(err);
        }
        assertEquals("", printed.toString(StandardCharsets.UTF_8));
        assertEquals(List.of("seen"), logs, "<log> goes to the importer's sink only");
    }
}

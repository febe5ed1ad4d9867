package dev.enginestates.scxml;

import dev.enginestates.declare.UserCodeException;
import dev.enginestates.plain.StateMachine;
import org.junit.jupiter.api.Test;

import java.time.Duration;

import static dev.enginestates.scxml.InvokeTest.doc;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTimeoutPreemptively;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * A built-in method that walks a whole array or string, or makes one of a length it is given, runs in Java as one
 * interpreted instruction: it spends one instruction for each item or character before it runs, so that one
 * evaluation's budget and one call's bound it. A string copied out of the datamodel spends one for each character.
 * Each test checks the error or the exception, not the time; the timeout only guards against a hang.
 */
class BuiltInBudgetTest {
    private static final Duration GUARD = Duration.ofSeconds(60);

    /** A machine whose event "go" runs the script, keeping the reason of its error.execution in {@code err}. */
    private static StateMachine<Datamodel> running(String script) {
        return new StateMachine<>(ScxmlImport.create().read(doc("""
                <datamodel><data id="r" expr="'not run'"/><data id="err" expr="''"/></datamodel>
                <state id="idle">
                  <transition event="go"><script>%s</script></transition>
                  <transition event="error.execution"><assign location="err" expr="_event.data.reason"/></transition>
                </state>
                """.formatted(script))));
    }

    private static String value(StateMachine<Datamodel> m, String expr) {
        return String.valueOf(m.context().toJava(m.context().evaluate(expr)));
    }

    /** The script's error.execution says its evaluation ran over its budget, and it did not finish. */
    private static void stoppedByTheBudget(String script) {
        StateMachine<Datamodel> m = running(script);
        assertTimeoutPreemptively(GUARD, () -> m.send("go"));
        assertTrue(value(m, "err").contains("it ran over its budget of " + EcmaScriptDatamodel.DEFAULT_INSTRUCTION_BUDGET),
                script + ": " + value(m, "err"));
        assertEquals("not run", value(m, "r"), script);
    }

    @Test
    void anArrayMethodSpendsOneInstructionForEachIndexItWalks() {
        stoppedByTheBudget("var a = []; a.length = 1e8; r = a.indexOf(1)");
        stoppedByTheBudget("r = new Array(2e6).fill(0).length");
        stoppedByTheBudget("var a = []; a.length = 1e8; a.forEach(function () {}); r = 'walked'");
        stoppedByTheBudget("var a = []; a.length = 1e7; r = a.join('-').length");
        stoppedByTheBudget("r = Array.from({length: 1e7}).length");
    }

    @Test
    void aStringMethodSpendsOneInstructionForEachCharacterItMakesOrReads() {
        stoppedByTheBudget("r = 'x'.repeat(1e8).length");
        stoppedByTheBudget("r = ''.padStart(1e8).length");
        stoppedByTheBudget("var t = 'x'; for (var i = 0; i &lt; 24; i++) { t = t + t; } r = t.indexOf('y')");
    }

    @Test
    void jsonStringifySpendsOneInstructionForEachValueItWrites() {
        // an array that holds the one below it twice, 24 times over: 16 million values written from 24 arrays
        stoppedByTheBudget("var a = [1]; for (var i = 0; i &lt; 24; i++) { a = [a, a]; } r = JSON.stringify(a).length");
    }

    @Test
    void methodsThatWalkLittleStillWork() {
        StateMachine<Datamodel> m = running("r = [3, 1, 2].sort().join(',') + ' ' + 'abc'.repeat(2).indexOf('ca') + ' '"
                + " + JSON.stringify({a: [1, 'x']}, null, 0) + ' ' + 'b'.padStart(3, '-') + ' ' + [1].concat([2], 3).length"
                + " + ' ' + JSON.stringify({a: 1, b: 2}, ['b']) + ' ' + JSON.stringify({a: 1}, function (k, v) { return k === 'a' ? 7 : v; })");
        m.send("go");
        assertEquals("", value(m, "err"));
        assertEquals("1,2,3 2 {\"a\":[1,\"x\"]} --b 3 {\"b\":2} {\"a\":7}", value(m, "r"));
    }

    @Test
    void aStringCopiedOutOfTheDatamodelSpendsOneInstructionForEachCharacter() {
        // 24 doublings make a string of 16 million characters from 24 cheap <assign>s; the send copies it out
        StateMachine<Datamodel> m = new StateMachine<>(ScxmlImport.create().read(doc("""
                <datamodel><data id="s" expr="'x'"/></datamodel>
                <state id="idle">
                  <transition event="go">
                    <foreach array="new Array(24).fill(0)" item="i"><assign location="s" expr="s + s"/></foreach>
                    <send event="big"><param name="d" expr="s"/></send>
                  </transition>
                </state>
                """)));
        UserCodeException e = assertThrows(UserCodeException.class, () -> assertTimeoutPreemptively(GUARD, () -> m.send("go")));
        assertInstanceOf(CallBudgetException.class, e.getCause(), e::toString);
    }
}

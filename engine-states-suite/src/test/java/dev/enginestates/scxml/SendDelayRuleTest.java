package dev.enginestates.scxml;

import dev.enginestates.plain.StateMachine;
import org.junit.jupiter.api.Test;

import java.util.List;
import java.util.Set;
import java.util.TreeSet;
import java.util.stream.Collectors;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Bad input gets a clear error: a {@code <send>} delay that is no time a send can wait (negative, NaN,
 * infinite) is an error of the send's evaluation, so SCXML 6.2.4 decides it: error.execution on the
 * internal queue, nothing sent, and the machine goes on. It must not escape as the engine's own
 * IllegalArgumentException out of the step.
 */
class SendDelayRuleTest {
    private static StateMachine<Datamodel> machine(String send) {
        return new StateMachine<>(ScxmlImport.create().read("""
                <scxml xmlns="http://www.w3.org/2005/07/scxml" version="1.0" datamodel="ecmascript" name="delays">
                <datamodel><data id="reason" expr="''"/></datamodel>
                <state id="a">
                  <onentry>%s</onentry>
                  <transition event="error.execution" target="b"><assign location="reason" expr="_event.data.reason"/></transition>
                  <transition event="x" target="sent"/>
                </state>
                <state id="b"><transition event="x" target="sent"/></state><state id="sent"/>
                </scxml>""".formatted(send)));
    }

    @Test
    void a_send_delay_that_is_negative_nan_or_infinite_raises_error_execution_naming_it() {
        for (String send : List.of("<send event=\"x\" delay=\"-1s\"/>", "<send event=\"x\" delayexpr=\"'-5ms'\"/>",
                "<send event=\"x\" delayexpr=\"NaN\"/>", "<send event=\"x\" delay=\"1e400ms\"/>",
                "<send event=\"x\" delayexpr=\"'-Infinitys'\"/>")) {
            StateMachine<Datamodel> sm = machine(send);
            sm.step(10);
            Set<String> leaves = sm.leaves().stream().map(ScxmlImport::stateId).collect(Collectors.toCollection(TreeSet::new));
            assertEquals(Set.of("b"), leaves, send + ": error.execution, and nothing was sent");
            String reason = (String) sm.context().toJava(sm.context().evaluate("reason"));
            assertTrue(reason.contains("delay"), send + ": " + reason);
        }
    }
}

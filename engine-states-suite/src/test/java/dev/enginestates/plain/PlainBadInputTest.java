package dev.enginestates.plain;

import org.junit.jupiter.api.Test;

import static dev.enginestates.plain.PlainXStateStepTest.GUARD;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

/** Bad input to a plain machine gets a clear error that names the argument, and changes nothing. */
class PlainBadInputTest {
    @Test
    void withTimeGivenNoStateNamesTheArgumentAndChangesNothing() {
        StateMachine<PlainXStateStepTest.Guard> m = new StateMachine<>(GUARD, new PlainXStateStepTest.Guard());
        NullPointerException e = assertThrows(NullPointerException.class, () -> m.withTime(null, 1));
        assertEquals("state", e.getMessage());
        assertEquals(0, m.time());
    }
}

package com.example.tool;

import org.junit.jupiter.api.Test;

import static org.junit.jupiter.api.Assertions.assertEquals;

class DoorToolTest {
    @Test
    void aPushedDoorStaysOpenForTwoSecondsThenShuts() {
        assertEquals("open", DoorTool.run(1));
        assertEquals("shut", DoorTool.run(3));
    }
}

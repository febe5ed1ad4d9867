package dev.enginestates.scxml;

import org.junit.jupiter.api.Test;

class DebugOne {
    @Test
    void one() throws Exception {
        for (String t : System.getProperty("scxml.tests", "").split(",")) {
            try {
                var m = ScxmlImport.create().log((l, v) -> System.out.println("LOG " + l + ": " + v))
                        .read(ScxmlSuite.TESTS.resolve(t + ".scxml"));
                var sm = new dev.enginestates.plain.StateMachine<>(m);
                System.out.println(t + " start " + sm.leaves());
            } catch (Exception e) {
                e.printStackTrace(System.out);
            }
            System.out.println(t + " => " + ScxmlSuite.run(t));
        }
    }
}

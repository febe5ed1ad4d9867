package dev.enginestates.samples.readme;

import dev.enginestates.Machine;
import dev.enginestates.plain.StateMachine;
import dev.enginestates.scxml.Datamodel;
import dev.enginestates.scxml.ScxmlImport;

import java.util.ArrayList;
import java.util.List;

/**
 * The README's "SCXML import" code, compiled: {@code ReadmeCodeTest} checks the block line for
 * line and runs {@link #tour()}.
 */
public final class ScxmlTour {
    private ScxmlTour() {
    }

    /** A door that closes itself three seconds after it opens, unless held; it counts its openings. */
    public static final String DOOR = """
        <scxml xmlns="http://www.w3.org/2005/07/scxml" version="1.0" datamodel="ecmascript" initial="closed">
          <datamodel><data id="opened" expr="0"/></datamodel>
          <state id="closed">
            <transition event="open" target="open"><assign location="opened" expr="opened + 1"/></transition>
          </state>
          <state id="open">
            <onentry><send event="close" delay="3s" id="autoclose"/></onentry>
            <transition event="hold"><cancel sendid="autoclose"/></transition>
            <transition event="close" target="closed"/>
          </state>
        </scxml>
        """;

    /**
     * Runs the README's block.
     *
     * @return the door's state after each line, then the openings counted
     */
    public static List<Object> tour() {
        List<Object> seen = new ArrayList<>();
        Machine<Datamodel> door = ScxmlImport.create().read(DOOR);    // or .read(Path.of("door.scxml"))
        StateMachine<Datamodel> m = new StateMachine<>(door);          // the context is the document's datamodel
        m.send("open");                                                // "open": the door will close itself in 3 s
        seen.add(m.state());
        m.step(3.0);                                                   // "closed": the delayed send came
        seen.add(m.state());
        m.send("open");
        m.send("hold");                                                // cancels the pending "close"
        m.step(10.0);                                                  // still "open"
        seen.add(m.state());
        m.context().evaluate("opened");                                // 2.0, a JavaScript number
        seen.add(m.context().evaluate("opened"));
        return seen;
    }
}

package dev.enginestates.scxml;

/**
 * SCXML's {@code _event}: what a datamodel binds while the executable content and conditions of
 * an event's transitions run.
 *
 * @param name       the event's name, such as {@code "t"}, {@code "error.execution"} or {@code "done.state.s1"}
 * @param type       {@code "platform"} (errors and done events), {@code "internal"} (raised) or {@code "external"}
 * @param sendid     the id of the {@code <send>} that made the event, or {@code null}
 * @param origin     where a reply may be sent ({@code "#_scxml_<sessionid>"} for a send to self), or {@code null}
 * @param origintype the I/O processor of the origin, or {@code null}
 * @param invokeid   the invoke id of the child session the event came from ({@code #_parent}, done.invoke), or {@code null}
 * @param data       the event's payload ({@code <param>}s and {@code namelist} as a map, {@code <content>}'s value,
 *                   or an event sent from Java: its fields), or {@code null} when it has none
 */
public record ScxmlEvent(String name, String type, String sendid, String origin, String origintype,
                         String invokeid, Object data) {
}

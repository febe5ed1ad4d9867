package dev.enginestates.declare;

/**
 * Whose rules an XState-style machine follows where XState v5 and SCXML differ
 * ({@link MachineBuilder#semantics}). Everything else (which states are entered and left and in
 * what order, conflicts between regions, history, done events, the internal queue) is the same
 * under both. They differ in three rules:
 *
 * <ol>
 * <li><b>Which of a state's transitions are tried for an event, in what order.</b> XState v5
 * ({@code getCandidates} in its {@code stateUtils}, release 5.33.3): first the transitions
 * written with the event's exact type, in the order written; then those of the state's partial
 * descriptors that match it ({@code *}, {@code foo.*}), the longest descriptor first, each
 * one's transitions in the order written. SCXML (section 3.13, "selecting transitions"): every
 * transition whose descriptor matches, in document order, whatever its descriptor. So for
 * {@code on("*", "a").on("foo", "b")}, {@code foo} goes to {@code b} under XState and to
 * {@code a} under SCXML. Both match descriptors alike: {@code foo.*} matches {@code foo} itself
 * and {@code foo.bar.baz} by whole dot-separated tokens, not {@code foobar}; {@code *} every
 * event, done events too ({@code xstate.done.state.<id>}, tried after the state's
 * {@code onDone}).</li>
 * <li><b>When eventless transitions are looked for again.</b> After a microstep taken for an
 * event both look. After one taken by an eventless transition, XState looks again only when it
 * made a new snapshot: a changed configuration or history (or, in XState, a context changed by
 * {@code assign}, which a Java context mutated in place cannot signal). SCXML (section 3.13,
 * {@code mainEventLoop}) looks after every microstep; here, after every one that ran an action or
 * changed the configuration or a history (one that did none of these would be taken again
 * unchanged, and SCXML would loop forever). A guard that stays true over an action that changes
 * nothing then loops until the {@link EventlessLoopException}.</li>
 * <li><b>What a microstep's actions see of the configuration</b> ({@link Self#isIn}). Under
 * {@code XSTATE} every state the microstep leaves is gone, and every state it enters is there,
 * before its first action runs, so an ancestor's entry action already sees the child entered
 * with it. (XState itself answers {@code stateIn} inside an action from the snapshot before the
 * microstep, which this engine does not copy.) SCXML (section 3.13, {@code exitStates} and
 * {@code enterStates}) removes each state just after its own exit actions and adds each state
 * just before its own entry actions: a state's exit actions still see it, and an ancestor's entry
 * actions do not see the child (W3C test 411).</li>
 * </ol>
 */
public enum Semantics {
    /**
     * XState v5's rules: a state's exact event type before its wildcards, the longer wildcard
     * first; eventless transitions looked for again only after a change of configuration or
     * history; the microstep's states all left and entered before its actions run. The default, and what the XState JSON import makes: the conformance traces
     * recorded by XState judge it.
     */
    XSTATE,
    /**
     * SCXML's rules (W3C SCXML 1.0, section 3.13): a state's transitions in document order,
     * whatever their descriptor; eventless transitions looked for again after every microstep
     * that ran an action; each state left seen until its own exit actions have run, each state
     * entered from its own entry actions on. What
     * {@code ScxmlImport} makes.
     */
    SCXML
}

/**
 * Layer 5, the plain-object face: one machine over one context object, with no ECS. What a
 * headless tool, a unit test or the conformance replayer drives.
 *
 * <pre>{@code
 * StateMachine<Bot> fsm = new StateMachine<>(GUARD, bot);   // a StatesDef: enters 'patrol' now
 * fsm.on("change", (to, from) -> log(from + ">" + to));
 * fsm.step(1 / 60.0);                                       // guards, after, update
 * fsm.state();                                              // "combat.engage"
 * fsm.send("hit");                                          // true: a state handled it
 *
 * StateMachine<Siege> siege = new StateMachine<>(SIEGE);    // a Machine (XState style)
 * siege.send("START");
 * siege.step(1 / 60.0);                                     // waits and when rules
 * }</pre>
 *
 * <ul>
 * <li>A {@link dev.enginestates.StatesDef} machine: {@code step} advances every active state's
 * clock, tests the guards outermost first and {@code after} (up to 8 hops), then runs the
 * updates; events go to the innermost active state first, the root last.</li>
 * <li>A {@link dev.enginestates.Machine} (XState's config): {@code step} ends the waits that fall
 * due within the step, each at its own time, then tests the {@code when} rules, a child's
 * before its parent's: the world's time rules, on this machine's own clock.</li>
 * </ul>
 *
 * <p>A builder-style machine runs on its own face, {@code dev.enginestates.fsm.StateMachine};
 * both faces are adapters over one running cell.
 */
package dev.enginestates.plain;

/**
 * SCXML (W3C State Chart XML) import: {@link dev.enginestates.scxml.ScxmlImport} reads a
 * document into an ordinary machine whose context is its {@link dev.enginestates.scxml.Datamodel}
 * (the null datamodel built in, ECMAScript on Rhino, which engine-states-scxml brings), refusing what it
 * cannot run with the line of each such element.
 *
 * <p>An {@code <invoke>}d SCXML child is a session of its own, kept in its parent's datamodel
 * and run inside the top machine's step (its sends wait among the top machine's pending sends).
 * It runs on a plain machine and on an entity alike; checkpoints, dumps and streams carry its
 * sessions inside its top machine's datamodel (each child whole: its states, its variables, its own
 * children), and its sends among the top machine's pending sends. Sessions
 * nest and run together up to the importer's bounds, and one call into a machine (a send, a step,
 * its start) spends at most one budget of work across them all ({@code ScxmlImport.callBudget}).
 */
package dev.enginestates.scxml;

/**
 * XState v5's JSON machine config, both ways (layer 1, the JSON way in; and the way out): the
 * import reads a config, with named guards, actions and delays supplied in Java, and is the only
 * part of the library that uses Jackson; the export writes an XState-style machine back as JSON,
 * naming its code.
 */
package dev.enginestates.xstate;

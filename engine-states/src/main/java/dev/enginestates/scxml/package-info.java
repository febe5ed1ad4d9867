/**
 * SCXML (W3C State Chart XML) import: {@link dev.enginestates.scxml.ScxmlImport} reads a
 * document into an ordinary machine whose context is its {@link dev.enginestates.scxml.Datamodel}
 * (the null datamodel built in, ECMAScript on Rhino, an optional dependency), refusing what it
 * cannot run with the line of each such element.
 */
package dev.enginestates.scxml;

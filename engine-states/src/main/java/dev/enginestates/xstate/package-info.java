/**
 * Declaration from XState v5's JSON machine config (layer 1, the JSON way in): the only
 * package of the library that uses Jackson. Named guards and actions are supplied in Java.
 */
package dev.enginestates.xstate;

/**
 * Layer 3, the record: the mutable per-instance snapshot of one machine (active
 * configuration, history, status, context). The single source of truth; everything else
 * (tags, reads, dumps) is derived from it.
 */
package dev.enginestates.records;

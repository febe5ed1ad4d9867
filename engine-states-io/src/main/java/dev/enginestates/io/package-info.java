/**
 * Layer 6, I/O: dumps, checkpoints and input logs of a world's machines, in JSON (Jackson).
 * They read and write records; tags are rebuilt from records. Nothing below this layer knows
 * JSON.
 */
package dev.enginestates.io;

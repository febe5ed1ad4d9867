package dev.enginestates.samples.pekko;

/**
 * The marker of every message and event that crosses a node or goes to the journal: bound to
 * Pekko's Jackson serializer in {@code rooms.conf}, so no Java serialization is needed.
 */
public interface JsonSerializable {
}

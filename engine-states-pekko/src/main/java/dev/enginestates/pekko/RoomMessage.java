package dev.enginestates.pekko;

/**
 * The marker of every message, event and snapshot of the library that crosses a node or goes to
 * the journal: bound to Pekko's Jackson serializer in {@code engine-states-pekko.conf}.
 */
interface RoomMessage {
}

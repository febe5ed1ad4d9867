package dev.enginestates.devtools;

import dev.enginestates.ecs.StateWorld;

/**
 * Where a kept tick's checkpoint comes from: taken on the world's thread when the tick is kept,
 * handed out later as text a {@code Saves} restore (and the test kit's {@code WorldFixture})
 * reads. One small seam, so a faster source can replace the JSON checkpoint.
 */
interface TickSource {
    /**
     * The world's checkpoint now, on the world's thread.
     *
     * @throws RuntimeException when the world cannot be checkpointed (an entity holding a machine
     *                          has no key, say); its message says why, and the tick is kept without one
     */
    String checkpoint(StateWorld world);
}

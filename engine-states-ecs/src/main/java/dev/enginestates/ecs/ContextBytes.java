package dev.enginestates.ecs;

import java.nio.ByteBuffer;

/**
 * How a {@link Rewind} keeps a machine's context: its fields written into the tick's snapshot and
 * read back on a rewind. A game writes one for each machine whose code changes its context (a
 * counter, a target, a timer of its own); a machine whose context never changes after its spawn
 * needs none ({@link Rewind#sharedContexts}).
 *
 * <pre>{@code
 * rewind.contexts(Guard.MACHINE, new ContextBytes<Guard>() {
 *     public void write(Guard guard, ByteBuffer out) { out.putInt(guard.bells); }
 *     public Guard read(Guard guard, ByteBuffer in) { guard.bells = in.getInt(); return guard; }
 * });
 * }</pre>
 *
 * <p>Both run on the world's thread, between steps, once per record per tick for {@code write}:
 * keep them free of allocation and of side effects. The buffer is little-endian and has room
 * for what a context usually writes; a write that overflows it is simply run again with more room,
 * so {@code write} must only write. {@code read} gets back exactly the bytes {@code write} wrote.
 *
 * @param <C> the context type
 */
public interface ContextBytes<C> {
    /**
     * Writes the context's fields at the buffer's position.
     *
     * @param context the record's context
     * @param out     where to write, little-endian
     */
    void write(C context, ByteBuffer out);

    /**
     * Reads back what {@link #write} wrote.
     *
     * @param context the context the record holds now (change it in place and return it, or return a new one)
     * @param in      the bytes, at the buffer's position
     * @return the context the record holds from now on
     */
    C read(C context, ByteBuffer in);
}

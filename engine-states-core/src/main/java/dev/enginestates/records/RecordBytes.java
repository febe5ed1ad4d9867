package dev.enginestates.records;

import dev.enginestates.chart.Chart;
import dev.enginestates.declare.Event;

import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.nio.ByteOrder;
import java.util.Arrays;

/**
 * PROTOTYPE (spike "rewind", not for main as it is): a machine record's fields as compact
 * little-endian bytes in a reusable {@link Buffer}, and back into the same record, for a
 * rollback that snapshots every tick. Nothing is allocated once the buffer has grown to its
 * size. The bytes are only read back in the same process, into records of the same chart: they
 * carry no paths and no version of their own (the world's snapshot checks the chart and the
 * record by identity), and objects a record holds (the events and ids of pending sends) go to the
 * buffer's side table of references, not into the bytes. Contexts are not written.
 *
 * <p>One record, in order: a flags byte (status, waiting, held, paused seconds kept, sends
 * pending); the active states in entry order (count, then states); the style's times of the
 * active states in that order (entry times, or clock sums and carries), each behind a tag byte
 * (same as the value before it, zero, or the 8 bytes); each history node's count + 1 and
 * remembered states; the wait (state, start; seconds only when the chart computes them); the
 * hold's start; paused seconds (count, then slot and seconds); the polled and builder styles'
 * previous leaf, {@code after} marks, time in state and progress; then pending sends (count, then
 * due time, event id and two references each). A state is one byte in a chart of up to 254 states
 * (255 is "none"), else two.
 */
public final class RecordBytes {
    private RecordBytes() {
    }

    private static final VarHandle LONG = MethodHandles.byteArrayViewVarHandle(long[].class, ByteOrder.LITTLE_ENDIAN);
    private static final VarHandle INT = MethodHandles.byteArrayViewVarHandle(int[].class, ByteOrder.LITTLE_ENDIAN);
    private static final VarHandle SHORT = MethodHandles.byteArrayViewVarHandle(short[].class, ByteOrder.LITTLE_ENDIAN);

    private static final int DONE_FLAG = 1;
    private static final int ACTIVE_FLAG = 2;
    private static final int WAITING = 4;
    private static final int HELD = 8;
    private static final int PAUSED = 16;
    private static final int SENDS = 32;

    private static final int SAME = 0;
    private static final int ZERO = 1;
    private static final int RAW = 2;

    /** A growable byte array with a write and a read position, and a side table of references; reused tick after tick. */
    public static final class Buffer {
        byte[] data;
        int pos;
        int read;
        Object[] refs;
        int refCount;
        int refRead;

        public Buffer(int bytes) {
            data = new byte[Math.max(64, bytes)];
            refs = new Object[64];
        }

        /** Empties it for a new snapshot, keeping its room. */
        public void clear() {
            pos = 0;
            read = 0;
            Arrays.fill(refs, 0, refCount, null); // a snapshot must not keep a despawned record alive
            refCount = 0;
            refRead = 0;
        }

        /** Rewinds the read positions to the start. */
        public void rewind() {
            read = 0;
            refRead = 0;
        }

        /** Bytes written. */
        public int size() {
            return pos;
        }

        /** References written. */
        public int refs() {
            return refCount;
        }

        /** Makes room for {@code n} more bytes (grows, never shrinks: a warm buffer allocates nothing). */
        public void room(int n) {
            if (pos + n > data.length) {
                data = Arrays.copyOf(data, Math.max(pos + n, data.length * 2));
            }
        }

        public void putByte(int v) {
            data[pos++] = (byte) v;
        }

        public void putShort(int v) {
            SHORT.set(data, pos, (short) v);
            pos += 2;
        }

        public void putInt(int v) {
            INT.set(data, pos, v);
            pos += 4;
        }

        public void putLong(long v) {
            LONG.set(data, pos, v);
            pos += 8;
        }

        public void putDouble(double v) {
            LONG.set(data, pos, Double.doubleToRawLongBits(v));
            pos += 8;
        }

        public void putRef(Object o) {
            if (refCount == refs.length) {
                refs = Arrays.copyOf(refs, refCount * 2);
            }
            refs[refCount++] = o;
        }

        public int getByte() {
            return data[read++] & 0xFF;
        }

        public int getShort() {
            int v = (short) SHORT.get(data, read) & 0xFFFF;
            read += 2;
            return v;
        }

        public int getInt() {
            int v = (int) INT.get(data, read);
            read += 4;
            return v;
        }

        public long getLong() {
            long v = (long) LONG.get(data, read);
            read += 8;
            return v;
        }

        public double getDouble() {
            double v = Double.longBitsToDouble((long) LONG.get(data, read));
            read += 8;
            return v;
        }

        public Object getRef() {
            return refs[refRead++];
        }

        /** Whether every byte written has been read. */
        public boolean readAll() {
            return read == pos && refRead == refCount;
        }
    }

    private static boolean wide(Chart c) {
        return c.size > 254;
    }

    private static void putState(Buffer b, boolean wide, int s) {
        if (wide) {
            b.putShort(s < 0 ? 0xFFFF : s);
        } else {
            b.putByte(s < 0 ? 0xFF : s);
        }
    }

    private static int getState(Buffer b, boolean wide) {
        int v = wide ? b.getShort() : b.getByte();
        return v == (wide ? 0xFFFF : 0xFF) ? -1 : v;
    }

    /** A double behind a tag byte: the same bits as {@code before}, zero, or the 8 bytes. */
    private static void putTagged(Buffer b, double v, long before) {
        long bits = Double.doubleToRawLongBits(v);
        if (bits == before) {
            b.putByte(SAME);
        } else if (bits == 0L) {
            b.putByte(ZERO);
        } else {
            b.putByte(RAW);
            b.putLong(bits);
        }
    }

    private static long getTagged(Buffer b, long before) {
        int tag = b.getByte();
        return tag == SAME ? before : tag == ZERO ? 0L : b.getLong();
    }

    /** The most bytes {@link #write} can write for this record (so it checks room once). */
    private static int bound(MachineRecord r) {
        int n = 16 + 2 * r.configSize + 18 * r.configSize + 20;
        for (int[] h : r.history) {
            if (h != null) {
                n += 2 * h.length;
            }
        }
        n += 10 * r.chart().waitCount + 4 + 16;
        return n + 20 * r.sendCount();
    }

    /** Appends the record's fields (not its context) to {@code b}. */
    public static void write(MachineRecord r, Buffer b) {
        Chart c = r.chart();
        boolean wide = wide(c);
        b.room(bound(r));
        double[] paused = r.pausedOrNull();
        boolean anyPaused = false;
        if (paused != null) {
            for (double p : paused) {
                anyPaused |= !Double.isNaN(p);
            }
        }
        int sends = r.sendCount();
        int flags = (r.status == MachineRecord.DONE ? DONE_FLAG : r.status == MachineRecord.ACTIVE ? ACTIVE_FLAG : 0)
                | (r.waitState >= 0 ? WAITING : 0) | (r.isHeld() ? HELD : 0) | (anyPaused ? PAUSED : 0) | (sends > 0 ? SENDS : 0);
        b.putByte(flags);
        int n = r.configSize;
        int[] config = r.config;
        putState(b, wide, n);
        for (int i = 0; i < n; i++) {
            putState(b, wide, config[i]);
        }
        double[] times = r.times;
        if (times != null) {
            int[] slot = c.timeSlot;
            long before = 0L;
            for (int i = 0; i < n; i++) {
                double v = times[slot[config[i]]];
                putTagged(b, v, before);
                before = Double.doubleToRawLongBits(v);
            }
            if (c.recordsClocks) {
                int room = c.timeRoom;
                for (int i = 0; i < n; i++) {
                    putTagged(b, times[room + slot[config[i]]], 0L);
                }
            }
        }
        int[][] history = r.history;
        for (int[] h : history) {
            if (h != null) {
                int k = h[0];
                putState(b, wide, k); // -1 (nothing yet) is "none"
                for (int i = 1; i <= k; i++) {
                    putState(b, wide, h[i]);
                }
            }
        }
        if (r.waitState >= 0) {
            putState(b, wide, r.waitState);
            b.putDouble(r.waitStart);
            if (c.waitSecondsOf[r.waitState] != null) {
                b.putDouble(r.waitSeconds); // computed by the machine's code: only the record knows it
            }
        }
        if (r.isHeld()) {
            b.putDouble(r.heldSince());
        }
        if (anyPaused) {
            int k = 0;
            for (double p : paused) {
                k += Double.isNaN(p) ? 0 : 1;
            }
            b.putShort(k);
            for (int w = 0; w < paused.length; w++) {
                if (!Double.isNaN(paused[w])) {
                    b.putShort(w);
                    b.putDouble(paused[w]);
                }
            }
        }
        if (c.recordsPrevious) {
            putState(b, wide, r.previousLeaf());
            b.putInt(r.afterFiredBits());
            b.putInt(Float.floatToRawIntBits(r.timeInState()));
            b.putInt(Float.floatToRawIntBits(r.previousProgress()));
        }
        if (sends > 0) {
            PendingSends s = r.sendsOrNull();
            b.putInt(sends);
            for (int i = 0; i < sends; i++) {
                b.putDouble(s.due(i));
                b.putInt(s.eventId(i));
                b.putRef(s.event(i)); // events are immutable: the same object is delivered after a rewind
                b.putRef(s.id(i));
            }
        }
    }

    /**
     * Reads back what {@link #write} wrote of a record of the same chart into {@code r},
     * overwriting every field it wrote; the context is left as it is.
     */
    public static void read(MachineRecord r, Buffer b) {
        Chart c = r.chart();
        boolean wide = wide(c);
        int flags = b.getByte();
        r.status = (byte) ((flags & DONE_FLAG) != 0 ? MachineRecord.DONE : (flags & ACTIVE_FLAG) != 0 ? MachineRecord.ACTIVE : MachineRecord.NEW);
        int[] config = r.config;
        for (int i = 0; i < r.configSize; i++) {
            if (r.active != null) {
                r.active[config[i]] = false;
            }
        }
        r.activeBits = 0L;
        int n = getState(b, wide);
        if (n > config.length) {
            r.config = config = new int[c.maxActive];
        }
        for (int i = 0; i < n; i++) {
            int s = getState(b, wide);
            config[i] = s;
            if (r.active != null) {
                r.active[s] = true;
            } else {
                r.activeBits |= 1L << s;
            }
        }
        r.configSize = n;
        double[] times = r.times;
        if (times != null) {
            int[] slot = c.timeSlot;
            long before = 0L;
            for (int i = 0; i < n; i++) {
                before = getTagged(b, before);
                times[slot[config[i]]] = Double.longBitsToDouble(before);
            }
            if (c.recordsClocks) {
                int room = c.timeRoom;
                for (int i = 0; i < n; i++) {
                    times[room + slot[config[i]]] = Double.longBitsToDouble(getTagged(b, 0L));
                }
            }
        }
        for (int[] h : r.history) {
            if (h != null) {
                int k = getState(b, wide);
                h[0] = k;
                for (int i = 1; i <= k; i++) {
                    h[i] = getState(b, wide);
                }
            }
        }
        if ((flags & WAITING) != 0) {
            int s = getState(b, wide);
            double start = b.getDouble();
            double seconds = c.waitSecondsOf[s] != null ? b.getDouble() : c.waitSeconds[s];
            r.setWait(s, start, seconds);
        } else {
            r.setWait(-1, 0, 0);
        }
        r.setHeldSince((flags & HELD) != 0 ? b.getDouble() : Double.NaN);
        double[] paused = r.pausedOrNull();
        if (paused != null) {
            Arrays.fill(paused, Double.NaN);
        }
        if ((flags & PAUSED) != 0) {
            paused = r.pausedArray();
            int k = b.getShort();
            for (int i = 0; i < k; i++) {
                int w = b.getShort();
                paused[w] = b.getDouble();
            }
        }
        if (c.recordsPrevious) {
            r.previousLeaf(getState(b, wide));
            r.afterFiredBits(b.getInt());
            float inState = Float.intBitsToFloat(b.getInt());
            float progress = Float.intBitsToFloat(b.getInt());
            r.setTimeInState(inState);
            r.setPreviousProgress(progress);
        }
        PendingSends sends = r.sendsOrNull();
        if (sends != null) {
            sends.clear();
        }
        if ((flags & SENDS) != 0) {
            sends = r.sendsArray();
            int k = b.getInt();
            for (int i = 0; i < k; i++) {
                double due = b.getDouble();
                int eid = b.getInt();
                Event e = (Event) b.getRef();
                String id = (String) b.getRef();
                sends.add(e, eid, due, id); // written in delivery order: each goes after the ones before
            }
        }
        r.waitChanged = true;
    }

    /**
     * A 32-bit fingerprint of a chart's shape (its id, its states' paths and types, its style's
     * record fields): what a snapshot sent to another process would check before reading.
     */
    public static int fingerprint(Chart c) {
        int h = c.machineId.hashCode();
        for (int s = 0; s < c.size; s++) {
            h = 31 * h + c.path[s].hashCode();
            h = 31 * h + c.type[s].ordinal();
        }
        h = 31 * h + (c.recordsTimes ? 1 : 0) + (c.recordsClocks ? 2 : 0) + (c.recordsPrevious ? 4 : 0);
        return h;
    }
}

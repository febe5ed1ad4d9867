package dev.enginestates.records;

import dev.enginestates.chart.Chart;
import dev.enginestates.declare.Event;

import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.util.Arrays;

/**
 * A machine record's fields as compact little-endian bytes in a reusable {@link Buffer}, and
 * back into the same record, for a rewind that snapshots every tick (every style alike). Nothing
 * is allocated once the buffer has grown to its size. The bytes are only read back in the same
 * process, into records of the same chart: they carry no paths and no version of their own (the
 * world's snapshot knows the chart and the record by identity), and objects a record holds (the
 * events and ids of pending sends) go to the buffer's side table of references, not into the
 * bytes. Contexts are the snapshot's to write.
 *
 * <p>One record, in order: a flags byte (status, waiting, held, paused seconds kept, sends
 * pending); the active states in entry order (count, then states); the style's times (entry
 * times, or clock sums and carries): the record's whole times array, 8 bytes each, when it holds
 * at most {@link #RAW_TIMES}, else those of the active states in entry order, each behind a tag
 * byte (same as the value before it, zero, or the 8 bytes); each history node's count + 1 and
 * remembered states; the wait (state, start; seconds only when the chart computes them); the
 * hold's start; paused seconds (count, then slot and seconds); the random numbers' state, once
 * drawn; the polled and builder styles'
 * previous leaf, {@code after} marks, time in state and progress; then pending sends (count, then
 * due time, event id and two references each). A state is one byte in a chart of up to 254 states
 * (255 is "none"), else two. What depends only on the chart (state width, history nodes, which
 * fields its style keeps, the most bytes a record takes) is worked out once, in its {@link Layout}.
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
    private static final int RANDOM = 64;

    /**
     * A record keeping at most this many times (a chart of up to four depths, the root's included,
     * whose times are kept by depth; a flat polled chart's clock sum and carry at each of its two
     * depths) has its whole times array written as it is, 8 bytes each, without tags: a loop of a
     * length fixed by the chart, with no branch on the values and no look-up of each active
     * state's slot, which makes a snapshot about a tenth faster. The slots of states no longer
     * active are written and read back too, so the record comes back bit for bit. It costs 13
     * bytes a record more than tagged times for the README's guard (40 B a machine, not 27).
     */
    static final int RAW_TIMES = 4;

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
        private ByteBuffer view;

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

        /** The bytes (the first {@link #size()} of them written). */
        public byte[] array() {
            return data;
        }

        /** Bytes it holds before it must grow. */
        public int capacity() {
            return data.length;
        }

        /** Where the next read starts. */
        public int readPosition() {
            return read;
        }

        /** Moves the read position past bytes read through a {@link #view}. */
        public void skipReadTo(int position) {
            read = position;
        }

        /** Moves the write position past bytes written through a {@link #view}. */
        public void skipTo(int position) {
            pos = position;
        }

        /** Drops what was written from {@code position} on. */
        public void truncate(int position) {
            pos = position;
        }

        /**
         * A little-endian {@link ByteBuffer} over its bytes, at {@code position}, with its limit at the
         * room it has: a game's own codec writes and reads through it. Made once each time the bytes grow.
         */
        public ByteBuffer view(int position) {
            ByteBuffer v = view;
            if (v == null || v.array() != data) {
                view = v = ByteBuffer.wrap(data).order(ByteOrder.LITTLE_ENDIAN);
            }
            v.limit(data.length).position(position);
            return v;
        }

        /** Whether every byte written has been read. */
        public boolean readAll() {
            return read == pos && refRead == refCount;
        }
    }

    /**
     * What {@link #write} and {@link #read} need to know of a chart, worked out once per chart
     * rather than for every record: the state width, the most bytes a record takes, which states
     * keep a history, and which of the style's fields its records have.
     */
    public static final class Layout {
        final Chart chart;
        /** States as two bytes (a chart of more than 254 states). */
        final boolean wide;
        /** The most bytes a record's write takes, its pending sends aside. */
        final int bound;
        /** The states with a history array, ascending (as the record's {@code history} holds them). */
        final int[] historyNodes;
        /** Whether any wait's seconds are computed by the machine's code (only the record knows them then). */
        final boolean computedWaits;
        /** How many times a record keeps, when they are few enough to be written whole without tags ({@link #RAW_TIMES}); else 0. */
        final int rawTimes;

        Layout(Chart c) {
            chart = c;
            wide = c.size > 254;
            int n = 16 + 2 * c.maxActive + 18 * c.maxActive + 24 + 10 * c.waitCount + 24; // 8 of them: the random numbers' state
            int nodes = 0;
            for (int s = 0; s < c.size; s++) {
                if (c.parent[s] >= 0 && c.type[s] == dev.enginestates.declare.StateType.HISTORY) {
                    n += 2 * (c.subtreeEnd[c.parent[s]] - c.parent[s]);
                    nodes++;
                }
            }
            int times = c.recordsTimes ? (c.recordsClocks ? 2 * c.timeRoom : c.timeRoom) : 0;
            rawTimes = times <= RAW_TIMES ? times : 0;
            bound = n + 8 * rawTimes;
            historyNodes = new int[nodes];
            for (int s = 0, k = 0; s < c.size; s++) {
                if (c.parent[s] >= 0 && c.type[s] == dev.enginestates.declare.StateType.HISTORY) {
                    historyNodes[k++] = s;
                }
            }
            boolean computed = false;
            for (Object f : c.waitSecondsOf) {
                computed |= f != null;
            }
            computedWaits = computed;
        }

        /** The chart it lays out. */
        public Chart chart() {
            return chart;
        }
    }

    /** The layout of a chart's records: made once per chart and kept by whoever writes many of them. */
    public static Layout layout(Chart c) {
        return new Layout(c);
    }

    private static void longAt(byte[] d, int p, long v) {
        LONG.set(d, p, v);
    }

    /** A state: one byte, two in a wide chart; "none" (-1) casts to all ones either way. */
    private static int state(byte[] d, int p, boolean wide, int s) {
        if (wide) {
            SHORT.set(d, p, (short) s);
            return p + 2;
        }
        d[p] = (byte) s;
        return p + 1;
    }

    /** A double behind a tag byte: the same bits as {@code before}, zero, or the 8 bytes. */
    private static int tagged(byte[] d, int p, long bits, long before) {
        if (bits == before) {
            d[p] = SAME;
            return p + 1;
        }
        if (bits == 0L) {
            d[p] = ZERO;
            return p + 1;
        }
        d[p] = RAW;
        longAt(d, p + 1, bits);
        return p + 9;
    }

    /** Appends the record's fields (not its context) to {@code b}; {@code layout} is its chart's. */
    public static void write(MachineRecord r, Buffer b, Layout layout) {
        Chart c = r.chart();
        boolean wide = layout.wide;
        b.room(layout.bound);
        // the buffer's array and position in locals: the writes below touch no field of the buffer
        byte[] d = b.data;
        int p = b.pos;
        int flagsAt = p++; // patched at the end: the rare fields decide some flags
        int status = r.status;
        int waitState = r.waitState;
        int flags = (status == MachineRecord.DONE ? DONE_FLAG : status == MachineRecord.ACTIVE ? ACTIVE_FLAG : 0)
                | (waitState >= 0 ? WAITING : 0);
        int n = r.configSize;
        int[] config = r.config;
        p = state(d, p, wide, n);
        for (int i = 0; i < n; i++) {
            p = state(d, p, wide, config[i]);
        }
        double[] times = r.times;
        int raw = layout.rawTimes;
        if (raw > 0) {
            for (int i = 0; i < raw; i++) {
                longAt(d, p + 8 * i, Double.doubleToRawLongBits(times[i]));
            }
            p += 8 * raw;
        } else if (times != null) {
            int[] slot = c.timeSlot;
            long before = 0L;
            for (int i = 0; i < n; i++) {
                long bits = Double.doubleToRawLongBits(times[slot[config[i]]]);
                p = tagged(d, p, bits, before);
                before = bits;
            }
            if (c.recordsClocks) {
                int room = c.timeRoom;
                for (int i = 0; i < n; i++) {
                    p = tagged(d, p, Double.doubleToRawLongBits(times[room + slot[config[i]]]), 0L);
                }
            }
        }
        int[] nodes = layout.historyNodes;
        if (nodes.length > 0) {
            int[][] history = r.history;
            for (int node : nodes) {
                int[] h = history[node];
                int k = h[0];
                p = state(d, p, wide, k); // -1 (nothing yet) is "none"
                for (int i = 1; i <= k; i++) {
                    p = state(d, p, wide, h[i]);
                }
            }
        }
        if (waitState >= 0) {
            p = state(d, p, wide, waitState);
            longAt(d, p, Double.doubleToRawLongBits(r.waitStart));
            p += 8;
            if (layout.computedWaits && c.waitSecondsOf[waitState] != null) {
                longAt(d, p, Double.doubleToRawLongBits(r.waitSeconds)); // computed by the machine's code: only the record knows it
                p += 8;
            }
        }
        b.pos = p;
        if (r.hasSeldom() || c.recordsPrevious) {
            flags |= writeRare(r, c, b, wide);
        }
        d[flagsAt] = (byte) flags;
    }

    /** The fields few records have (a hold, paused seconds, pending sends) and the polled and builder styles' own; returns their flags. */
    private static int writeRare(MachineRecord r, Chart c, Buffer b, boolean wide) {
        byte[] d = b.data;
        int p = b.pos;
        int flags = 0;
        double held = r.heldSince();
        if (held == held) { // held: not NaN
            flags |= HELD;
            longAt(d, p, Double.doubleToRawLongBits(held));
            p += 8;
        }
        double[] paused = r.pausedOrNull();
        if (paused != null) {
            // one pass: the count's place is kept, patched after, and given back when nothing is paused
            int countAt = p;
            p += 2;
            int k = 0;
            for (int w = 0; w < paused.length; w++) {
                double x = paused[w];
                if (x == x) {
                    SHORT.set(d, p, (short) w);
                    longAt(d, p + 2, Double.doubleToRawLongBits(x));
                    p += 10;
                    k++;
                }
            }
            if (k > 0) {
                flags |= PAUSED;
                SHORT.set(d, countAt, (short) k);
            } else {
                p = countAt;
            }
        }
        long random = r.randomState();
        if (random != 0) {
            flags |= RANDOM;
            longAt(d, p, random);
            p += 8;
        }
        if (c.recordsPrevious) {
            p = state(d, p, wide, r.previousLeaf());
            INT.set(d, p, r.afterFiredBits());
            INT.set(d, p + 4, Float.floatToRawIntBits(r.timeInState()));
            INT.set(d, p + 8, Float.floatToRawIntBits(r.previousProgress()));
            p += 12;
        }
        b.pos = p;
        int sends = r.sendCount();
        if (sends > 0) {
            flags |= SENDS;
            PendingSends s = r.sendsOrNull();
            b.room(4 + 12 * sends);
            b.putInt(sends);
            for (int i = 0; i < sends; i++) {
                b.putDouble(s.due(i));
                b.putInt(s.eventId(i));
                b.putRef(s.event(i)); // events are immutable: the same object is delivered after a rewind
                b.putRef(s.id(i));
            }
        }
        return flags;
    }

    /** A state at {@code p}: one byte, or two in a wide chart; "none" is -1. */
    private static int stateAt(byte[] d, int p, boolean wide) {
        if (wide) {
            int v = (short) SHORT.get(d, p) & 0xFFFF;
            return v == 0xFFFF ? -1 : v;
        }
        int v = d[p] & 0xFF;
        return v == 0xFF ? -1 : v;
    }

    /**
     * Reads back what {@link #write} wrote of a record of the same chart into {@code r},
     * overwriting every field it wrote; the context is left as it is. {@code layout} is its
     * chart's. The buffer's array and read position are kept in locals until the pending sends.
     */
    public static void read(MachineRecord r, Buffer b, Layout layout) {
        Chart c = r.chart();
        boolean wide = layout.wide;
        int width = wide ? 2 : 1;
        byte[] d = b.data;
        int p = b.read;
        int flags = d[p++] & 0xFF;
        r.status = (byte) ((flags & DONE_FLAG) != 0 ? MachineRecord.DONE : (flags & ACTIVE_FLAG) != 0 ? MachineRecord.ACTIVE : MachineRecord.NEW);
        int[] config = r.config;
        boolean[] active = r.active;
        if (active != null) {
            for (int i = 0; i < r.configSize; i++) {
                active[config[i]] = false;
            }
        }
        int n = stateAt(d, p, wide);
        p += width;
        if (n > config.length) {
            r.config = config = new int[c.maxActive];
        }
        long bits = 0L;
        for (int i = 0; i < n; i++) {
            int s = stateAt(d, p, wide);
            p += width;
            config[i] = s;
            if (active != null) {
                active[s] = true;
            } else {
                bits |= 1L << s;
            }
        }
        r.activeBits = bits;
        r.configSize = n;
        double[] times = r.times;
        int raw = layout.rawTimes;
        if (raw > 0) {
            for (int i = 0; i < raw; i++) {
                times[i] = Double.longBitsToDouble((long) LONG.get(d, p + 8 * i));
            }
            p += 8 * raw;
        } else if (times != null) {
            int[] slot = c.timeSlot;
            long before = 0L;
            for (int i = 0; i < n; i++) {
                int tag = d[p++];
                if (tag == ZERO) {
                    before = 0L;
                } else if (tag == RAW) {
                    before = (long) LONG.get(d, p);
                    p += 8;
                }
                times[slot[config[i]]] = Double.longBitsToDouble(before);
            }
            if (c.recordsClocks) {
                int room = c.timeRoom;
                for (int i = 0; i < n; i++) {
                    int tag = d[p++];
                    long v = 0L;
                    if (tag == RAW) {
                        v = (long) LONG.get(d, p);
                        p += 8;
                    }
                    times[room + slot[config[i]]] = Double.longBitsToDouble(v); // written against 0: SAME is zero too
                }
            }
        }
        int[] nodes = layout.historyNodes;
        if (nodes.length > 0) {
            int[][] history = r.history;
            for (int node : nodes) {
                int[] h = history[node];
                int k = stateAt(d, p, wide);
                p += width;
                h[0] = k;
                for (int i = 1; i <= k; i++) {
                    h[i] = stateAt(d, p, wide);
                    p += width;
                }
            }
        }
        if ((flags & WAITING) != 0) {
            int s = stateAt(d, p, wide);
            p += width;
            double start = Double.longBitsToDouble((long) LONG.get(d, p));
            p += 8;
            double seconds = c.waitSeconds[s];
            if (layout.computedWaits && c.waitSecondsOf[s] != null) {
                seconds = Double.longBitsToDouble((long) LONG.get(d, p));
                p += 8;
            }
            r.setWait(s, start, seconds);
        } else {
            r.setWait(-1, 0, 0);
        }
        double held = Double.NaN;
        if ((flags & HELD) != 0) {
            held = Double.longBitsToDouble((long) LONG.get(d, p));
            p += 8;
        }
        r.setHeldSince(held);
        double[] paused = r.pausedOrNull();
        if (paused != null) {
            Arrays.fill(paused, Double.NaN);
        }
        if ((flags & PAUSED) != 0) {
            paused = r.pausedArray();
            int k = (short) SHORT.get(d, p) & 0xFFFF;
            p += 2;
            for (int i = 0; i < k; i++) {
                int w = (short) SHORT.get(d, p) & 0xFFFF;
                paused[w] = Double.longBitsToDouble((long) LONG.get(d, p + 2));
                p += 10;
            }
        }
        long random = 0L;
        if ((flags & RANDOM) != 0) {
            random = (long) LONG.get(d, p);
            p += 8;
        }
        r.randomState(random);
        if (c.recordsPrevious) {
            r.previousLeaf(stateAt(d, p, wide));
            p += width;
            r.afterFiredBits((int) INT.get(d, p));
            float inState = Float.intBitsToFloat((int) INT.get(d, p + 4));
            float progress = Float.intBitsToFloat((int) INT.get(d, p + 8));
            p += 12;
            r.setTimeInState(inState);
            r.setPreviousProgress(progress);
        }
        b.read = p;
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
        r.overwritten();
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

package dev.enginestates.ecs;

import java.util.Arrays;

/**
 * The due times of one machine's waits in a world, by record slot, in a timing wheel: O(1) to
 * schedule or cancel a wait, and a tick touches only the buckets its clock passes and the waits
 * in them. Everything lives in primitive arrays indexed by slot, so no unrelated record is read.
 *
 * <p>Three places hold a wait. Buckets are time quanta of {@link #QUANTUM} seconds (not steps: a
 * step's {@code dt} may vary), and the cursor is the quantum of the last clock
 * {@link #advance advanced} to. The <em>near</em> heap holds every wait whose quantum is at or
 * before the cursor, ordered exactly by (due time, slot), so the due ones come out in time order
 * and equal due times in spawn order; a tick's due waits are all there, and a chained wait that
 * falls due in the tick goes straight into it. The <em>wheel</em> holds the waits of the next
 * {@link #SIZE} quanta, one doubly linked list a bucket; advancing moves the buckets passed into the
 * near waits: as a sorted run when they come out in order (waits scheduled in time order, the usual
 * case: then taking one is O(1)), else into the heap. Later waits sit in the <em>overflow</em> heap (by due time) and move into the wheel
 * as the cursor comes within reach of them. So a wait is never due while it is in the wheel or
 * the overflow (its quantum is after the cursor's), and the near heap holds about one quantum's
 * worth of waits. Allocation-free once grown.
 */
final class WaitWheel {
    /** Seconds a bucket spans: a power of two, so {@code due / QUANTUM} is exact and monotonic. */
    static final double QUANTUM = 1.0 / 64;
    /** Buckets in the wheel (64 s at {@link #QUANTUM}); a power of two. */
    static final int SIZE = 4096;
    private static final int MASK = SIZE - 1;
    /** Quanta past this are all one (clocks beyond ~1.8e16 s): the near heap keeps them exact. */
    private static final long LAST_QUANTUM = 1L << 60;

    private static final byte NONE = 0;
    private static final byte WHEEL = 1;
    private static final byte NEAR = 2;
    private static final byte FAR = 3;
    private static final byte RUN = 4;

    /** By slot: the due time, where it is, and its heap position or its bucket links. */
    private double[] due = new double[16];
    private byte[] where = new byte[16];
    private int[] pos = new int[16];
    private int[] next = new int[16];
    private int[] prev = new int[16];
    /**
     * By slot: the waits the slot's machine ended in a step and which step ({@link DueWaits}:
     * {@code step * 128 + count}), kept here (not on the record) as only machines that wait need it.
     * Only the current step's matters, so a renumbering forgets them.
     */
    private long[] mark = newMarks(16);
    /** Each bucket's first slot, or -1; made on the first wait the wheel holds (a machine that never waits does without). */
    private int[] head;
    /** The quantum of the last clock advanced to; starts below every quantum. */
    private long cursor = -LAST_QUANTUM - SIZE;
    private int inWheel;
    private int[] near = new int[16];
    private int nearSize;
    /**
     * The near waits that came out of the wheel already in (due time, slot) order, as they do when
     * waits are scheduled in time order (a bucket's list is read back to front): taken from the
     * front in O(1), beside the heap. An entry is live while its slot is {@link #RUN} with
     * {@code pos} pointing at it; a cancelled one is skipped.
     */
    private int[] run = new int[16];
    private int runStart;
    private int runEnd;
    private int[] far = new int[16];
    private int farSize;
    private int size;

    /** The quantum of a time: monotonic in {@code t}, so a later time never has an earlier quantum. */
    static long quantum(double t) {
        double q = Math.floor(t / QUANTUM);
        return q >= LAST_QUANTUM ? LAST_QUANTUM : q <= -LAST_QUANTUM ? -LAST_QUANTUM : (long) q;
    }

    /** How many waits are scheduled. */
    int size() {
        return size;
    }

    /** Whether a slot has a wait scheduled. */
    boolean has(int slot) {
        return slot < where.length && where[slot] != NONE;
    }

    /** A slot's due time, or +infinity when it has none. */
    double dueOf(int slot) {
        return has(slot) ? due[slot] : Double.POSITIVE_INFINITY;
    }

    /** Schedules or reschedules a slot's wait at {@code at} (finite). */
    void set(int slot, double at) {
        if (slot >= where.length) {
            grow(slot + 1);
        }
        if (where[slot] != NONE) {
            remove(slot);
        }
        due[slot] = at;
        size++;
        place(slot, quantum(at));
    }

    /** Cancels a slot's wait, if it has one. */
    void remove(int slot) {
        if (slot >= where.length) {
            return;
        }
        switch (where[slot]) {
            case WHEEL -> unlink(slot);
            case NEAR -> nearSize = heapRemove(near, nearSize, slot);
            case RUN -> {
                // left in the run array, skipped from now on
            }
            case FAR -> farSize = heapRemove(far, farSize, slot);
            default -> {
                return;
            }
        }
        where[slot] = NONE;
        size--;
    }

    /**
     * Moves the cursor to the quantum of {@code now} (never back): the waits of the buckets passed
     * join the near waits, the overflow's that come within reach join the wheel. After it, every wait
     * due by {@code now} is a near one.
     */
    void advance(double now) {
        long to = quantum(now);
        if (to <= cursor) {
            return;
        }
        long from = cursor;
        cursor = to;
        if (inWheel > 0) {
            int kept = compactRun();
            // each bucket passed, at most one turn of the wheel (a long step passes them all)
            long first = to - from > SIZE ? to - SIZE + 1 : from + 1;
            for (long q = first; q <= to && inWheel > 0; q++) {
                int b = (int) (q & MASK);
                int s = head[b];
                if (s < 0) {
                    continue;
                }
                head[b] = -1;
                int bucketStart = runEnd;
                while (s >= 0) {
                    int n = next[s];
                    inWheel--;
                    if (runEnd == run.length) {
                        run = Arrays.copyOf(run, runEnd * 2);
                    }
                    run[runEnd++] = s;
                    s = n;
                }
                // the list is newest first: back to front is the order the waits were scheduled in
                for (int i = bucketStart, j = runEnd - 1; i < j; i++, j--) {
                    int t = run[i];
                    run[i] = run[j];
                    run[j] = t;
                }
            }
            int sortedUpTo = runEnd;
            for (int i = Math.max(kept, 1); i < runEnd; i++) {
                if (!before(run[i - 1], run[i])) {
                    sortedUpTo = i; // out of order from here: the rest go to the heap
                    break;
                }
            }
            for (int i = kept; i < runEnd; i++) {
                int s = run[i];
                if (i < sortedUpTo) {
                    where[s] = RUN;
                    pos[s] = i;
                } else {
                    pushNear(s);
                }
            }
            runEnd = sortedUpTo;
        }
        while (farSize > 0 && quantum(due[far[0]]) < cursor + SIZE) {
            int s = far[0];
            farSize = heapRemove(far, farSize, s);
            place(s, quantum(due[s]));
        }
    }

    /** Moves the run's live entries to its front; returns how many there are. */
    private int compactRun() {
        int w = 0;
        for (int i = runStart; i < runEnd; i++) {
            int s = run[i];
            if (where[s] == RUN && pos[s] == i) {
                run[w] = s;
                pos[s] = w++;
            }
        }
        runStart = 0;
        runEnd = w;
        return w;
    }

    /** The run's first live slot, or -1. */
    private int runFirst() {
        while (runStart < runEnd) {
            int s = run[runStart];
            if (where[s] == RUN && pos[s] == runStart) {
                return s;
            }
            runStart++;
        }
        return -1;
    }

    /** The earliest near due time, or +infinity: after {@link #advance}, the earliest of all if it is due. */
    double peekDue() {
        int r = runFirst();
        double d = nearSize == 0 ? Double.POSITIVE_INFINITY : due[near[0]];
        return r >= 0 && due[r] < d ? due[r] : d;
    }

    /** Takes the first near wait (earliest due time, then lowest slot) and returns its slot. */
    int poll() {
        int r = runFirst();
        int s;
        if (r >= 0 && (nearSize == 0 || before(r, near[0]))) {
            s = r;
            runStart++;
        } else {
            s = near[0];
            nearSize = heapRemove(near, nearSize, s);
        }
        where[s] = NONE;
        size--;
        return s;
    }

    /**
     * Renumbers the slots after a machine's records closed up: {@code newSlot[old]} is the new slot
     * of the record in {@code old} (or -1), for every old slot below {@code end}.
     */
    void renumber(int[] newSlot, int end) {
        int n = 0;
        int[] slots = new int[size];
        double[] dues = new double[size];
        for (int s = 0; s < Math.min(end, where.length); s++) {
            if (where[s] != NONE && newSlot[s] >= 0) {
                slots[n] = newSlot[s];
                dues[n++] = due[s];
            }
        }
        Arrays.fill(where, NONE);
        Arrays.fill(mark, Long.MIN_VALUE); // between ticks: no step's count is live
        if (head != null) {
            Arrays.fill(head, -1);
        }
        nearSize = 0;
        runStart = 0;
        runEnd = 0;
        farSize = 0;
        inWheel = 0;
        size = 0;
        for (int i = 0; i < n; i++) {
            set(slots[i], dues[i]);
        }
    }

    private void place(int slot, long q) {
        if (q <= cursor) {
            pushNear(slot);
        } else if (q - cursor < SIZE) {
            where[slot] = WHEEL;
            if (head == null) {
                head = new int[SIZE];
                Arrays.fill(head, -1);
            }
            int b = (int) (q & MASK);
            int h = head[b];
            next[slot] = h;
            prev[slot] = -1;
            if (h >= 0) {
                prev[h] = slot;
            }
            head[b] = slot;
            inWheel++;
        } else {
            where[slot] = FAR;
            if (farSize == far.length) {
                far = Arrays.copyOf(far, farSize * 2);
            }
            far[farSize] = slot;
            up(far, farSize++);
        }
    }

    private void unlink(int slot) {
        int n = next[slot];
        int p = prev[slot];
        if (p >= 0) {
            next[p] = n;
        } else {
            head[(int) (quantum(due[slot]) & MASK)] = n;
        }
        if (n >= 0) {
            prev[n] = p;
        }
        inWheel--;
    }

    private static long[] newMarks(int n) {
        long[] m = new long[n];
        Arrays.fill(m, Long.MIN_VALUE);
        return m;
    }

    /** Forgets every step's marks: the clock went back, so a step number may come again. */
    void forgetMarks() {
        Arrays.fill(mark, Long.MIN_VALUE);
    }

    /** A slot's step mark (see {@link #mark}); the slot has, or had in this step, a wait. */
    long mark(int slot) {
        return mark[slot];
    }

    void mark(int slot, long value) {
        mark[slot] = value;
    }

    private void grow(int min) {
        int n = Math.max(min, due.length * 2);
        long[] marks = newMarks(n);
        System.arraycopy(mark, 0, marks, 0, mark.length);
        mark = marks;
        due = Arrays.copyOf(due, n);
        where = Arrays.copyOf(where, n);
        pos = Arrays.copyOf(pos, n);
        next = Arrays.copyOf(next, n);
        prev = Arrays.copyOf(prev, n);
    }

    private void pushNear(int slot) {
        where[slot] = NEAR;
        if (nearSize == near.length) {
            near = Arrays.copyOf(near, nearSize * 2);
        }
        near[nearSize] = slot;
        up(near, nearSize++);
    }

    // Binary min-heaps of slots by (due time, slot); pos[slot] is the slot's index in its heap
    // (the two heaps share pos: a slot is in one place at a time).

    /** Takes a slot out of heap {@code h} of {@code n} entries; returns the new size. */
    private int heapRemove(int[] h, int n, int slot) {
        int i = pos[slot];
        n--;
        if (i != n) {
            int moved = h[n];
            h[i] = moved;
            pos[moved] = i;
            up(h, i);
            down(h, pos[moved], n);
        }
        return n;
    }

    private boolean before(int a, int b) {
        double da = due[a];
        double db = due[b];
        return da < db || (da == db && a < b);
    }

    private void up(int[] h, int i) {
        int s = h[i];
        while (i > 0) {
            int p = (i - 1) >>> 1;
            if (!before(s, h[p])) {
                break;
            }
            h[i] = h[p];
            pos[h[i]] = i;
            i = p;
        }
        h[i] = s;
        pos[s] = i;
    }

    private void down(int[] h, int i, int n) {
        int s = h[i];
        while (true) {
            int l = 2 * i + 1;
            if (l >= n) {
                break;
            }
            int m = l + 1 < n && before(h[l + 1], h[l]) ? l + 1 : l;
            if (!before(h[m], s)) {
                break;
            }
            h[i] = h[m];
            pos[h[i]] = i;
            i = m;
        }
        h[i] = s;
        pos[s] = i;
    }
}

package dev.enginestates.ecs;

import java.util.Arrays;

/**
 * The due times of waiting machines, in a binary min-heap: a step looks only at the waits
 * that are due, so a machine in a long wait costs nothing until it ends. Each record knows its
 * position, so a wait left early is removed in O(log n). Equal due times come out in no
 * particular order: the step sorts each batch of equal due times into spawn order, so it is
 * deterministic. Allocation-free once grown.
 */
final class TimerHeap {
    private double[] due = new double[64];
    private StateRecord<?>[] records = new StateRecord<?>[64];
    private int size;

    int size() {
        return size;
    }

    /** Schedules or reschedules a record at {@code at}. */
    void set(StateRecord<?> r, double at) {
        if (r.heapPos >= 0) {
            int i = r.heapPos;
            due[i] = at;
            up(i);
            down(r.heapPos);
            return;
        }
        if (size == due.length) {
            due = Arrays.copyOf(due, size * 2);
            records = Arrays.copyOf(records, size * 2);
        }
        due[size] = at;
        records[size] = r;
        r.heapPos = size;
        size++;
        up(size - 1);
    }

    /** Removes a record's timer, if it has one. */
    void remove(StateRecord<?> r) {
        int i = r.heapPos;
        if (i < 0) {
            return;
        }
        r.heapPos = -1;
        size--;
        if (i != size) {
            due[i] = due[size];
            records[i] = records[size];
            records[i].heapPos = i;
            records[size] = null;
            up(i);
            down(i);
        } else {
            records[size] = null;
        }
    }

    /** The earliest due time, or +infinity. */
    double peekDue() {
        return size == 0 ? Double.POSITIVE_INFINITY : due[0];
    }

    /** Removes and returns the record with the earliest due time. */
    StateRecord<?> poll() {
        StateRecord<?> r = records[0];
        remove(r);
        return r;
    }

    private void up(int i) {
        while (i > 0) {
            int p = (i - 1) >>> 1;
            if (!before(i, p)) {
                break;
            }
            swap(i, p);
            i = p;
        }
    }

    private void down(int i) {
        while (true) {
            int l = 2 * i + 1;
            if (l >= size) {
                return;
            }
            int m = l + 1 < size && before(l + 1, l) ? l + 1 : l;
            if (!before(m, i)) {
                return;
            }
            swap(i, m);
            i = m;
        }
    }

    /** Whether entry a comes out strictly before entry b (ties stay where they are: the step orders them). */
    private boolean before(int a, int b) {
        return due[a] < due[b];
    }

    private void swap(int a, int b) {
        double d = due[a];
        due[a] = due[b];
        due[b] = d;
        StateRecord<?> r = records[a];
        records[a] = records[b];
        records[b] = r;
        records[a].heapPos = a;
        records[b].heapPos = b;
    }
}

package dev.enginestates.records;

import dev.enginestates.declare.Event;

import java.util.Arrays;

/**
 * A record's sends to itself not yet delivered, in delivery order: by due time, equal times in
 * the order sent. Made on a machine's first send to itself; grows, never shrinks.
 */
final class PendingSends {
    double[] due = new double[4];
    Event[] event = new Event[4];
    int[] eventId = new int[4];
    String[] id = new String[4];
    int count;

    /** Inserts after every send due at or before {@code at}: equal times keep the order sent. */
    void add(Event e, int eid, double at, String sendId) {
        if (count == due.length) {
            int n = count * 2;
            due = Arrays.copyOf(due, n);
            event = Arrays.copyOf(event, n);
            eventId = Arrays.copyOf(eventId, n);
            id = Arrays.copyOf(id, n);
        }
        int i = count;
        while (i > 0 && due[i - 1] > at) {
            i--;
        }
        int move = count - i;
        System.arraycopy(due, i, due, i + 1, move);
        System.arraycopy(event, i, event, i + 1, move);
        System.arraycopy(eventId, i, eventId, i + 1, move);
        System.arraycopy(id, i, id, i + 1, move);
        due[i] = at;
        event[i] = e;
        eventId[i] = eid;
        id[i] = sendId;
        count++;
    }

    void removeAt(int i) {
        int move = count - i - 1;
        System.arraycopy(due, i + 1, due, i, move);
        System.arraycopy(event, i + 1, event, i, move);
        System.arraycopy(eventId, i + 1, eventId, i, move);
        System.arraycopy(id, i + 1, id, i, move);
        count--;
        event[count] = null;
        id[count] = null;
    }

    /** Removes every send with that id; returns how many. */
    int cancel(String sendId) {
        int w = 0;
        for (int i = 0; i < count; i++) {
            if (!sendId.equals(id[i])) {
                due[w] = due[i];
                event[w] = event[i];
                eventId[w] = eventId[i];
                id[w] = id[i];
                w++;
            }
        }
        int removed = count - w;
        for (int i = w; i < count; i++) {
            event[i] = null;
            id[i] = null;
        }
        count = w;
        return removed;
    }

    void clear() {
        Arrays.fill(event, 0, count, null);
        Arrays.fill(id, 0, count, null);
        count = 0;
    }

    void shift(double dt) {
        for (int i = 0; i < count; i++) {
            due[i] += dt;
        }
    }

    void copyFrom(PendingSends o) {
        clear();
        for (int i = 0; i < o.count; i++) {
            add(o.event[i], o.eventId[i], o.due[i], o.id[i]);
        }
    }
}

package dev.enginestates.records;

import dev.enginestates.declare.Event;

import java.util.Arrays;

/**
 * A record's sends to itself not yet delivered, in delivery order: by due time, equal times in
 * the order sent. Made on a machine's first send to itself; grows, never shrinks.
 */
final class PendingSends {
    // the live sends are at [head, head + count): a delivery takes the first by moving head, so a machine
    // with a million sends pending delivers each in constant time, not by moving the million others
    private double[] due = new double[4];
    private Event[] event = new Event[4];
    private int[] eventId = new int[4];
    private String[] id = new String[4];
    private int head;
    int count;

    double due(int i) {
        return due[head + i];
    }

    Event event(int i) {
        return event[head + i];
    }

    int eventId(int i) {
        return eventId[head + i];
    }

    String id(int i) {
        return id[head + i];
    }

    /** Inserts after every send due at or before {@code at}: equal times keep the order sent. */
    void add(Event e, int eid, double at, String sendId) {
        if (head + count == due.length) {
            if (head >= due.length / 2) {
                // half or more delivered from the front: the live ones move down, into the room they left (no overlap)
                System.arraycopy(due, head, due, 0, count);
                System.arraycopy(event, head, event, 0, count);
                System.arraycopy(eventId, head, eventId, 0, count);
                System.arraycopy(id, head, id, 0, count);
                Arrays.fill(event, count, head + count, null);
                Arrays.fill(id, count, head + count, null);
            } else {
                int n = due.length * 2;
                due = Arrays.copyOfRange(due, head, head + n);
                event = Arrays.copyOfRange(event, head, head + n);
                eventId = Arrays.copyOfRange(eventId, head, head + n);
                id = Arrays.copyOfRange(id, head, head + n);
            }
            head = 0;
        }
        int end = head + count;
        int i = end;
        while (i > head && due[i - 1] > at) {
            i--;
        }
        int move = end - i;
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
        int at = head + i;
        if (i == 0) {
            event[at] = null;
            id[at] = null;
            head = --count == 0 ? 0 : head + 1;
            return;
        }
        int move = count - i - 1;
        System.arraycopy(due, at + 1, due, at, move);
        System.arraycopy(event, at + 1, event, at, move);
        System.arraycopy(eventId, at + 1, eventId, at, move);
        System.arraycopy(id, at + 1, id, at, move);
        count--;
        event[head + count] = null;
        id[head + count] = null;
    }

    /** Removes every send with that id; returns how many. */
    int cancel(String sendId) {
        int end = head + count;
        int w = head;
        for (int i = head; i < end; i++) {
            if (!sendId.equals(id[i])) {
                due[w] = due[i];
                event[w] = event[i];
                eventId[w] = eventId[i];
                id[w] = id[i];
                w++;
            }
        }
        int removed = end - w;
        for (int i = w; i < end; i++) {
            event[i] = null;
            id[i] = null;
        }
        count -= removed;
        return removed;
    }

    void clear() {
        Arrays.fill(event, head, head + count, null);
        Arrays.fill(id, head, head + count, null);
        head = 0;
        count = 0;
    }

    void shift(double dt) {
        for (int i = head; i < head + count; i++) {
            due[i] += dt;
        }
    }

    void copyFrom(PendingSends o) {
        clear();
        for (int i = 0; i < o.count; i++) {
            add(o.event(i), o.eventId(i), o.due(i), o.id(i));
        }
    }
}

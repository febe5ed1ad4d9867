package dev.enginestates.algorithm;

import dev.enginestates.records.MachineRecord;

import java.util.Arrays;

/** The {@link MoveObserver}s installed, as the algorithm reads them: one volatile read per move, {@code null} when none. */
final class InstalledObservers {
    static volatile MoveObserver[] all;

    private InstalledObservers() {
    }

    static synchronized void add(MoveObserver o) {
        MoveObserver[] now = all == null ? new MoveObserver[0] : all;
        for (MoveObserver x : now) {
            if (x == o) {
                return;
            }
        }
        MoveObserver[] next = Arrays.copyOf(now, now.length + 1);
        next[now.length] = java.util.Objects.requireNonNull(o, "observer");
        all = next;
    }

    static synchronized void remove(MoveObserver o) {
        if (all == null) {
            return;
        }
        MoveObserver[] next = Arrays.stream(all).filter(x -> x != o).toArray(MoveObserver[]::new);
        all = next.length == 0 ? null : next;
    }

    static void moved(MoveObserver[] os, MachineRecord r, int move, int from, int to) {
        for (MoveObserver o : os) {
            o.moved(r, move, from, to);
        }
    }

    static void entered(MoveObserver[] os, MachineRecord r, int state) {
        for (MoveObserver o : os) {
            o.entered(r, state);
        }
    }
}

package dev.enginestates.algorithm;

import dev.enginestates.records.MachineRecord;

/**
 * Hears every move every machine of the process makes, and every state it enters, as the
 * algorithm makes them: what the test kit's transition coverage and path generator record. The
 * moves are numbered as {@link dev.enginestates.chart.Moves} numbers them.
 *
 * <p>Observers are installed for the whole process ({@link #install}): coverage spans every world
 * and plain machine a test run makes. With none installed, each move reads one field. An observer
 * is called on the thread that moves the machine, inside the move, so it only records: it must
 * not throw, nor touch the machine.
 */
public interface MoveObserver {
    /**
     * A machine took a move: told before the states it enters ({@link #entered}), the moves of one
     * microstep (a parallel state's regions) together before their entries.
     *
     * @param r    the record that moved
     * @param move the declared move's number in its chart's {@code moves()}, or -1 for a move no
     *             declaration names (a polled {@code update} or handler returning a state, a builder
     *             handler returning a state it was not declared to return, a forced move)
     * @param from the state it left (the source of a declared move)
     * @param to   the state it went to, or -1 when the move's targets say it
     */
    void moved(MachineRecord r, int move, int from, int to);

    /**
     * A machine entered a state (starts included; a state placed by hand, as restores and the test
     * kit's {@code startIn} do, is not entered).
     *
     * @param r     the record
     * @param state the state entered
     */
    void entered(MachineRecord r, int state);

    /**
     * Installs an observer for the whole process, beside any installed before.
     *
     * @param observer the observer; the same one twice is installed once
     */
    static void install(MoveObserver observer) {
        InstalledObservers.add(observer);
    }

    /**
     * Removes an observer {@link #install} installed; nothing happens for one that is not.
     *
     * @param observer the observer
     */
    static void uninstall(MoveObserver observer) {
        InstalledObservers.remove(observer);
    }
}

package dev.enginestates.record;

import dev.enginestates.chart.Chart;

import java.util.Arrays;

/**
 * The snapshot of one running machine: which states are active (in the order they were
 * entered, as XState keeps them), what each history state remembers, whether the machine is
 * done, and its context object.
 *
 * <p>Sized once for its chart; the algorithm mutates it in place without allocating. A record
 * belongs to one world (one thread) at a time.
 */
public final class MachineRecord {
    /** The machine has not been started yet. */
    public static final int NEW = 0;
    /** The machine is running. */
    public static final int ACTIVE = 1;
    /** A top-level final state was reached; the machine takes no more events. */
    public static final int DONE = 2;

    private final Chart chart;
    /** Active states in entry order (the order XState's snapshot keeps them). */
    final int[] config;
    int configSize;
    /** Membership of {@link #config}, by state. */
    final boolean[] active;
    /** Per history node: the remembered states in the order they were recorded. */
    final int[][] history;
    /** Per history node: how many states {@link #history} holds, or -1 when nothing is remembered. */
    final int[] historySize;
    int status;
    Object context;

    /** A record for {@code chart}, not started, holding {@code context}. */
    public MachineRecord(Chart chart, Object context) {
        this.chart = chart;
        this.config = new int[chart.maxActive];
        this.active = new boolean[chart.size];
        this.history = new int[chart.size][];
        this.historySize = new int[chart.size];
        Arrays.fill(historySize, -1);
        for (int s = 0; s < chart.size; s++) {
            if (chart.parent[s] >= 0 && chart.type[s] == dev.enginestates.declare.StateType.HISTORY) {
                int p = chart.parent[s];
                history[s] = new int[chart.subtreeEnd[p] - p - 1];
            }
        }
        this.context = context;
    }

    /** The chart this record was made for. */
    public Chart chart() {
        return chart;
    }

    /** {@link #NEW}, {@link #ACTIVE} or {@link #DONE}. */
    public int status() {
        return status;
    }

    /** Whether a top-level final state has been reached. */
    public boolean isDone() {
        return status == DONE;
    }

    /** The context object. */
    public Object context() {
        return context;
    }

    /** Replaces the context object. */
    public void context(Object context) {
        this.context = context;
    }

    /** Whether a state is active. */
    public boolean isActive(int state) {
        return active[state];
    }

    /** How many states are active, the root included. */
    public int activeCount() {
        return configSize;
    }

    /** The i-th active state in entry order. */
    public int activeAt(int i) {
        return config[i];
    }

    /** How many states a history node remembers, or -1 when it remembers nothing yet. */
    public int historySize(int historyNode) {
        return historySize[historyNode];
    }

    /** The i-th state a history node remembers. */
    public int historyAt(int historyNode, int i) {
        return history[historyNode][i];
    }

    // ---- mutation, used by the algorithm and by restores

    /** Appends a state to the configuration. */
    public void enter(int state) {
        if (!active[state]) {
            active[state] = true;
            config[configSize++] = state;
        }
    }

    /** Removes every state marked in {@code leaving} from the configuration, keeping the others' order. */
    public void removeMarked(boolean[] leaving) {
        int w = 0;
        for (int i = 0; i < configSize; i++) {
            int s = config[i];
            if (leaving[s]) {
                active[s] = false;
            } else {
                config[w++] = s;
            }
        }
        configSize = w;
    }

    /** Empties the configuration and history, and sets the status to {@link #NEW}. */
    public void reset() {
        for (int i = 0; i < configSize; i++) {
            active[config[i]] = false;
        }
        configSize = 0;
        Arrays.fill(historySize, -1);
        status = NEW;
    }

    /** Starts recording what a history node remembers. */
    public void clearHistory(int historyNode) {
        historySize[historyNode] = 0;
    }

    /** Adds a remembered state to a history node. */
    public void addHistory(int historyNode, int state) {
        history[historyNode][historySize[historyNode]++] = state;
    }

    /** Sets the status. */
    public void status(int status) {
        this.status = status;
    }

    /** Copies another record of the same chart into this one (configuration, history, status, context). */
    public void copyFrom(MachineRecord other) {
        if (other.chart != chart) {
            throw new IllegalArgumentException("records of different machines: '" + other.chart.machineId
                    + "' into '" + chart.machineId + "'");
        }
        System.arraycopy(other.config, 0, config, 0, other.configSize);
        configSize = other.configSize;
        System.arraycopy(other.active, 0, active, 0, active.length);
        for (int h = 0; h < history.length; h++) {
            historySize[h] = other.historySize[h];
            if (history[h] != null && other.historySize[h] > 0) {
                System.arraycopy(other.history[h], 0, history[h], 0, other.historySize[h]);
            }
        }
        status = other.status;
        context = other.context;
    }
}

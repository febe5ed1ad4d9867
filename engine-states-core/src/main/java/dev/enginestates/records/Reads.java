package dev.enginestates.records;

import dev.enginestates.chart.Chart;
import dev.enginestates.chart.EnumNames;
import dev.enginestates.chart.Names;
import dev.enginestates.declare.MachineException;
import dev.enginestates.declare.StateType;
import dev.enginestates.declare.UnknownEventException;
import dev.enginestates.declare.UnknownEvents;

import java.util.ArrayList;
import java.util.List;
import java.util.Objects;

/**
 * Reads of a record that every face shares (the plain machine, the ECS record, the kit):
 * which state a name means, the deepest active state, the seconds left. Read-only.
 */
public final class Reads {
    /** {@link #activeNamed}: no state of the machine has that name or path. */
    public static final int UNKNOWN = -2;

    private Reads() {
    }

    /**
     * The active state with that key ({@code "engage"}) or path ({@code "combat.engage"}); -1
     * when such a state exists but is not active; {@link #UNKNOWN} when none exists.
     */
    public static int activeNamed(MachineRecord r, String name) {
        Chart c = r.chart();
        boolean known = false;
        for (int s = 1; s < c.size; s++) {
            if (c.key[s].equals(name) || c.path[s].equals(name)) {
                if (r.isActive(s)) {
                    return s;
                }
                known = true;
            }
        }
        return known ? -1 : UNKNOWN;
    }

    /**
     * {@link #activeNamed}, refusing a name no state has.
     *
     * @throws MachineException naming the machine, the call and the states there are
     */
    public static int activeNamed(MachineRecord r, String name, String call) {
        int s = activeNamed(r, Objects.requireNonNull(name, "state name"));
        if (s == UNKNOWN) {
            throw unknownState(r.chart(), name, call);
        }
        return s;
    }

    /**
     * The id of event {@code type} in the machine's style ({@link Chart#styleEventId}), -1 for one
     * no state names.
     *
     * @throws UnknownEventException if no state names it and the machine rejects unknown events
     */
    public static int eventId(Chart c, String type) {
        Objects.requireNonNull(type, "event");
        int id = c.styleEventId(type);
        if (id < 0 && c.unknownEvents == UnknownEvents.REJECT) {
            throw new UnknownEventException(c.machineId, type, c.knownEvents(), Names.closest(type, c.knownEvents()));
        }
        return id;
    }

    /**
     * The state declared with a constant of the machine's state enum.
     *
     * @throws MachineException if the constant is not of the machine's state enum
     */
    public static int stateOf(Chart c, Enum<?> state, String call) {
        int s = c.enumNames().state(Objects.requireNonNull(state, "state"));
        if (s < 0) {
            throw new MachineException(c.machineId, c.enumNames().stateProblem(c.machineId, state, call));
        }
        return s;
    }

    /**
     * The paths of the states that constants of the machine's state enum declare, for the calls that take paths.
     *
     * @throws MachineException if a constant is not of the machine's state enum
     */
    public static String[] paths(Chart c, String call, Enum<?> first, Enum<?>... more) {
        String[] out = new String[1 + more.length];
        out[0] = c.path[stateOf(c, first, call)];
        for (int i = 0; i < more.length; i++) {
            out[i + 1] = c.path[stateOf(c, more[i], call)];
        }
        return out;
    }

    /**
     * The event declared with a constant of the machine's event enum.
     *
     * @throws MachineException if the constant is not of the machine's event enum
     */
    public static int eventOf(Chart c, Enum<?> event, String call) {
        int id = c.enumNames().event(Objects.requireNonNull(event, "event"));
        if (id < 0) {
            throw new MachineException(c.machineId, c.enumNames().eventProblem(c.machineId, event, call));
        }
        return id;
    }

    /**
     * The constant of the active leaf (of several parallel leaves, the first in document order), or {@code null}.
     *
     * @throws MachineException if the machine's states are not named by {@code states}
     */
    public static <S extends Enum<S>> S leaf(MachineRecord r, Class<S> states) {
        Chart c = r.chart();
        EnumNames names = c.enumNames();
        if (names.stateEnum() != states) {
            throw new MachineException(c.machineId, "machine '" + c.machineId + "' names its states by " + (names.typed()
                    ? names.stateEnum().getSimpleName() : "strings") + ", not by " + states.getSimpleName() + "; read its leaf with "
                    + (names.typed() ? "leaf(" + names.stateEnum().getSimpleName() + ".class)" : "state()"));
        }
        for (int s = 1; s < c.size; s++) {
            if (r.isActive(s) && c.isLeaf(s)) {
                return states.cast(names.constantOf(s));
            }
        }
        return null;
    }

    /**
     * A state by path or, when no other state has that key, by name; history states are not
     * states a machine can be put in.
     *
     * @param call how the caller is named in a message, such as {@code "startIn"}
     * @throws MachineException if the name names no state, or more than one
     */
    public static int stateNamed(Chart c, String name, String call) {
        java.util.Objects.requireNonNull(name, "state name");
        int s = c.stateAt(name);
        if (s > 0 && c.type[s] != StateType.HISTORY) {
            return s;
        }
        int found = -1;
        for (int i = 1; i < c.size; i++) {
            if (c.key[i].equals(name) && c.type[i] != StateType.HISTORY) {
                if (found >= 0) {
                    throw new MachineException(c.machineId, "machine '" + c.machineId + "': " + call + "('" + name + "') is ambiguous: '"
                            + c.path[found] + "' and '" + c.path[i] + "'; give the path");
                }
                found = i;
            }
        }
        if (found < 0) {
            throw unknownState(c, name, call);
        }
        return found;
    }

    /** The refusal of a name that names no state, with the states there are and the closest one. */
    public static MachineException unknownState(Chart c, String name, String call) {
        return new MachineException(c.machineId, "machine '" + c.machineId + "': " + call + "('" + name
                + "') names no state; expected one of " + statePaths(c) + StateValue.suggestion(c, name));
    }

    /** The paths of the states a machine can be in (history states left out). */
    public static List<String> statePaths(Chart c) {
        List<String> names = new ArrayList<>();
        for (int i = 1; i < c.size; i++) {
            if (c.type[i] != StateType.HISTORY) {
                names.add(c.path[i]);
            }
        }
        return names;
    }

    /** The deepest active state (the leaf of a single branch; of parallel regions, the first deepest), or -1. */
    public static int deepest(MachineRecord r) {
        Chart c = r.chart();
        int best = -1;
        for (int i = 0; i < r.activeCount(); i++) {
            int s = r.activeAt(i);
            if (best < 0 || c.depth[s] > c.depth[best]) {
                best = s;
            }
        }
        return best;
    }
}

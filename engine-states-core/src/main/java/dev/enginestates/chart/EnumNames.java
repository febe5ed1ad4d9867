package dev.enginestates.chart;

import dev.enginestates.declare.Event;
import dev.enginestates.declare.StateDefinition;
import dev.enginestates.declare.StateType;
import dev.enginestates.declare.TransitionDefinition;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

/**
 * The game's own enums that name a typed machine's states and events
 * ({@code Machine.define(id, context, GuardState.class, GuardEvent.class, body)}), checked when
 * the machine is compiled and looked up, in constant time and without allocation, when a
 * constant is used ({@code is(WATCH)}, {@code send(entity, BELL)}).
 *
 * <p>The rules, each checked by the compiler and reported with the machine's other problems:
 * <ul>
 * <li>each constant of the state enum declares exactly one state (history states included);
 * its key is the constant's name as written, its path the keys from the root joined by dots
 * ({@code "PATROL.WATCH"});</li>
 * <li>each constant of the event enum is taken by at least one state; its event type is the
 * constant's name;</li>
 * <li>a typed machine names no state, initial state, target or event by a string, and a
 * machine defined without enums names none by a constant;</li>
 * <li>a target named by a constant is the state declared with it, wherever it lies.</li>
 * </ul>
 *
 * <p>Immutable and shared, as the chart is. A machine named by strings has {@link #NONE}.
 */
public final class EnumNames {
    /** A machine whose states and events are named by strings. */
    public static final EnumNames NONE = new EnumNames(null, null, new int[0], new int[0], new Enum<?>[0]);

    private final Class<?> states;
    private final Class<?> events;
    /** The state each constant of {@link #states} declares, by ordinal. */
    private final int[] stateByOrdinal;
    /** The event id of each constant of {@link #events}, by ordinal. */
    private final int[] eventByOrdinal;
    /** The constant each state was declared with, by state ({@code null} for the root). */
    private final Enum<?>[] constantOf;

    private EnumNames(Class<?> states, Class<?> events, int[] stateByOrdinal, int[] eventByOrdinal, Enum<?>[] constantOf) {
        this.states = states;
        this.events = events;
        this.stateByOrdinal = stateByOrdinal;
        this.eventByOrdinal = eventByOrdinal;
        this.constantOf = constantOf;
    }

    /** Whether the machine's states are named by an enum. */
    public boolean typed() {
        return states != null;
    }

    /** The enum whose constants name the states, or {@code null}. */
    public Class<?> stateEnum() {
        return states;
    }

    /** The enum whose constants name the events, or {@code null}. */
    public Class<?> eventEnum() {
        return events;
    }

    /** The state declared with this constant, or -1 when the constant is not of the machine's state enum. */
    public int state(Enum<?> constant) {
        return constant.getDeclaringClass() == states ? stateByOrdinal[constant.ordinal()] : -1;
    }

    /** The event id of this constant, or -1 when the constant is not of the machine's event enum. */
    public int event(Enum<?> constant) {
        return constant.getDeclaringClass() == events ? eventByOrdinal[constant.ordinal()] : -1;
    }

    /** The constant a state was declared with, or {@code null} (the root, or a machine named by strings). */
    public Enum<?> constantOf(int state) {
        return state >= 0 && state < constantOf.length ? constantOf[state] : null;
    }

    /** Why {@link #state} refused the constant, for the message of the face that was called ({@code call}: "is", "setState"...). */
    public String stateProblem(String machineId, Enum<?> constant, String call) {
        String named = nameOf(constant);
        if (states == null) {
            return "machine '" + machineId + "' names its states by strings (it was defined without a state enum), so " + call + "("
                    + named + ") names none of them; pass the state's path as a string, such as \"" + constant.name() + "\"";
        }
        return "machine '" + machineId + "' names its states by " + simple(states) + ", so " + call + "(" + named
                + ") names none of them; expected a " + simple(states) + " constant" + sameName(states, constant);
    }

    /** Why {@link #event} refused the constant. */
    public String eventProblem(String machineId, Enum<?> constant, String call) {
        String named = nameOf(constant);
        if (events == null) {
            return "machine '" + machineId + "' " + (states == null ? "names its events by strings (it was defined without an event enum)"
                    : "was defined with a state enum and no event enum: it takes no events") + ", so " + call + "(" + named
                    + ") names none of them" + (states == null ? "; send the event's type as a string, such as \"" + constant.name() + "\"" : "");
        }
        return "machine '" + machineId + "' names its events by " + simple(events) + ", so " + call + "(" + named
                + ") names none of them; expected a " + simple(events) + " constant" + sameName(events, constant);
    }

    /** Replaces the chart's event objects by ones carrying their constant ({@link Event#constant()}). */
    void typeEvents(Event[] eventObjects, String[] eventTypes) {
        if (events == null) {
            return;
        }
        for (Object k : events.getEnumConstants()) {
            Enum<?> e = (Enum<?>) k;
            int id = eventByOrdinal[e.ordinal()];
            if (id >= 0) {
                eventObjects[id] = Event.of(e);
            }
        }
    }

    // ------------------------------------------------------------------ checks (at compile time)

    /**
     * Checks the states, initial states, history defaults and events of a numbered chart
     * against the enums, adding each problem to the compiler's; targets are checked as they
     * are resolved ({@link #target}).
     */
    static EnumNames check(ChartCompiler c, Class<?> states, Class<?> events) {
        if (states == null && events != null) {
            c.problems.add("the machine has an event enum (" + simple(events) + ") but no state enum; a typed machine names its"
                    + " states by an enum too");
        }
        if (states != null && states == events) {
            c.problems.add("the machine's states and events are both named by " + simple(states) + "; give each its own enum");
        }
        Enum<?>[] stateConstants = constants(states);
        Enum<?>[] eventConstants = constants(events);
        List<List<Integer>> declared = new ArrayList<>();
        for (int i = 0; i < stateConstants.length; i++) {
            declared.add(new ArrayList<>());
        }
        Enum<?>[] constantOf = new Enum<?>[c.size];
        boolean[] taken = new boolean[eventConstants.length];
        for (int s = 0; s < c.size; s++) {
            StateDefinition<?> d = c.defs.get(s);
            String where = c.where(s);
            Enum<?> k = d.constant();
            if (s > 0) {
                if (states == null) {
                    if (k != null) {
                        c.problems.add(where + " is declared with " + nameOf(k) + ", but the machine was defined without a state enum;"
                                + " define it with Machine.define(id, context, " + simple(k.getDeclaringClass()) + ".class, ..., body)");
                    }
                } else if (k == null) {
                    c.problems.add(where + " is named by a string, but the machine's states are " + simple(states)
                            + " constants; declare it with one" + suggestion(d.key(), stateConstants));
                } else if (k.getDeclaringClass() != states) {
                    c.problems.add(where + " is declared with " + nameOf(k) + ", but the machine's states are " + simple(states)
                            + " constants" + sameName(states, k));
                } else {
                    declared.get(k.ordinal()).add(s);
                    constantOf[s] = k;
                }
            }
            if (d.initial() != null) {
                checkReference(c, where + " has initial '" + d.initial() + "'", d.initialConstant(), d.initial(), states, stateConstants);
            }
            if (d.type() == StateType.HISTORY && d.historyTarget() != null) {
                checkReference(c, where + " has default target '" + d.historyTarget() + "'", d.historyTargetConstant(),
                        d.historyTarget(), states, stateConstants);
            }
            for (TransitionDefinition<?> t : d.on()) {
                Enum<?> e = t.eventConstant();
                String ev = t.eventType();
                if (events == null) {
                    if (e != null) {
                        c.problems.add(where + " takes event " + nameOf(e) + ", but the machine was defined without an event enum;"
                                + " define it with Machine.define(id, context, " + (states == null ? "YourStates" : simple(states))
                                + ".class, " + simple(e.getDeclaringClass()) + ".class, body)");
                    } else if (states != null) {
                        c.problems.add(where + " takes event '" + ev + "', but the machine was defined with a state enum and no"
                                + " event enum, so it takes no events; define it with Machine.define(id, context, "
                                + simple(states) + ".class, YourEvents.class, body)");
                    }
                } else if (e == null) {
                    c.problems.add(where + " takes event '" + ev + "' named by a string, but the machine's events are "
                            + simple(events) + " constants; name it by one" + suggestion(ev, eventConstants));
                } else if (e.getDeclaringClass() != events) {
                    c.problems.add(where + " takes event " + nameOf(e) + ", but the machine's events are " + simple(events)
                            + " constants" + sameName(events, e));
                } else {
                    taken[e.ordinal()] = true;
                }
            }
        }
        int[] stateByOrdinal = new int[stateConstants.length];
        for (int i = 0; i < stateConstants.length; i++) {
            List<Integer> at = declared.get(i);
            stateByOrdinal[i] = at.size() == 1 ? at.get(0) : -1;
            if (at.isEmpty()) {
                c.problems.add(nameOf(stateConstants[i]) + " declares no state; each constant of " + simple(states)
                        + " declares exactly one state: declare it (state(" + stateConstants[i].name() + ")) or remove it from the enum");
            } else if (at.size() > 1) {
                List<String> where = new ArrayList<>();
                for (int s : at) {
                    if (!where.contains("'" + c.path[s] + "'")) {
                        where.add("'" + c.path[s] + "'");
                    }
                }
                if (where.size() > 1) { // siblings of one key are reported by the compiler's own check
                    c.problems.add(nameOf(stateConstants[i]) + " declares " + at.size() + " states, " + String.join(" and ", where)
                            + "; each constant of " + simple(states) + " declares exactly one state: give the others constants of their"
                            + " own");
                }
            }
        }
        int[] eventByOrdinal = new int[eventConstants.length];
        Arrays.fill(eventByOrdinal, -1);
        for (int i = 0; i < eventConstants.length; i++) {
            if (!taken[i]) {
                c.problems.add(nameOf(eventConstants[i]) + " is taken by no state; each constant of " + simple(events)
                        + " is an event the machine takes: add on(" + eventConstants[i].name() + ", ...) to a state or remove it from the enum");
            }
        }
        if (states == null && events == null) {
            return NONE;
        }
        return new EnumNames(states, events, stateByOrdinal, eventByOrdinal, constantOf);
    }

    /** Fills in the event ids once the compiler has numbered the events. */
    void numberEvents(ChartCompiler c) {
        if (events == null) {
            return;
        }
        for (Object k : events.getEnumConstants()) {
            Enum<?> e = (Enum<?>) k;
            Integer id = c.eventIds.get(e.name());
            eventByOrdinal[e.ordinal()] = id == null ? -1 : id;
        }
    }

    /**
     * Resolves a target of a transition from {@code source}: a constant to the state declared with
     * it; in a typed machine, a text is refused. Adds the problem and returns -1 when it does
     * not resolve.
     */
    int target(ChartCompiler c, int source, String text, Enum<?> constant, String label) {
        String what = c.where(source) + " (" + label + ") targets ";
        if (states == null) {
            c.problems.add(what + nameOf(constant) + ", but the machine was defined without a state enum; define it with"
                    + " Machine.define(id, context, " + simple(constant.getDeclaringClass()) + ".class, ..., body)");
            return -1;
        }
        if (constant == null) {
            c.problems.add(what + "'" + text + "' by a string, but the machine's states are " + simple(states)
                    + " constants; target one" + suggestion(lastKey(text), constants(states)));
            return -1;
        }
        if (constant.getDeclaringClass() != states) {
            c.problems.add(what + nameOf(constant) + ", but the machine's states are " + simple(states) + " constants"
                    + sameName(states, constant));
            return -1;
        }
        return stateByOrdinal[constant.ordinal()]; // -1 when declared by no state or by several: reported with the states
    }

    private static void checkReference(ChartCompiler c, String what, Enum<?> constant, String text, Class<?> states,
            Enum<?>[] stateConstants) {
        if (states == null) {
            if (constant != null) {
                c.problems.add(what + " named by " + nameOf(constant) + ", but the machine was defined without a state enum");
            }
        } else if (constant == null) {
            c.problems.add(what + " named by a string, but the machine's states are " + simple(states) + " constants; name it by one"
                    + suggestion(lastKey(text), stateConstants));
        } else if (constant.getDeclaringClass() != states) {
            c.problems.add(what + " named by " + nameOf(constant) + ", but the machine's states are " + simple(states) + " constants"
                    + sameName(states, constant));
        }
    }

    // ------------------------------------------------------------------ helpers

    private static Enum<?>[] constants(Class<?> type) {
        if (type == null) {
            return new Enum<?>[0];
        }
        Object[] all = type.getEnumConstants();
        if (all == null) {
            throw new IllegalArgumentException(type.getName() + " is not an enum");
        }
        Enum<?>[] out = new Enum<?>[all.length];
        for (int i = 0; i < all.length; i++) {
            out[i] = (Enum<?>) all[i];
        }
        return out;
    }

    /** {@code GuardState.WATCH}. */
    static String nameOf(Enum<?> constant) {
        return simple(constant.getDeclaringClass()) + "." + constant.name();
    }

    private static String simple(Class<?> type) {
        return type.getSimpleName().isEmpty() ? type.getName() : type.getSimpleName();
    }

    /** When the enum has a constant of the same name: "; did you mean GuardState.WATCH?". */
    private static String sameName(Class<?> type, Enum<?> constant) {
        for (Enum<?> k : constants(type)) {
            if (k.name().equals(constant.name())) {
                String mine = nameOf(k);
                String theirs = nameOf(constant);
                return mine.equals(theirs) ? "; did you mean " + type.getName() + "." + k.name() + " (not " + constant.getDeclaringClass().getName()
                        + "." + constant.name() + ")?" : "; did you mean " + mine + "?";
            }
        }
        return "";
    }

    private static String suggestion(String text, Enum<?>[] constants) {
        List<String> names = new ArrayList<>();
        for (Enum<?> k : constants) {
            names.add(k.name());
        }
        String best = Names.closest(text, names);
        if (best == null) {
            return "";
        }
        return "; did you mean " + simple(constants[names.indexOf(best)].getDeclaringClass()) + "." + best + "?";
    }

    private static String lastKey(String text) {
        int dot = text.lastIndexOf('.');
        String k = dot >= 0 ? text.substring(dot + 1) : text;
        return k.startsWith("#") ? k.substring(1) : k;
    }
}

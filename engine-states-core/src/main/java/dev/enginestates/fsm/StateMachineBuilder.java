package dev.enginestates.fsm;

import dev.enginestates.declare.StateContextCore;
import dev.enginestates.records.Access;
import dev.enginestates.declare.StateHandler;
import dev.enginestates.declare.StateMotionProfile;
import dev.enginestates.declare.Window;
import dev.enginestates.declare.InvalidMachineException;
import dev.enginestates.Machine;
import dev.enginestates.chart.BuilderChart;
import dev.enginestates.chart.Chart;
import dev.enginestates.chart.ChartCompiler;
import dev.enginestates.chart.Names;
import dev.enginestates.declare.MachineBuilder;

import java.lang.reflect.InaccessibleObjectException;
import java.lang.reflect.Method;
import java.lang.reflect.Modifier;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collections;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.function.BiConsumer;
import java.util.function.Consumer;
import java.util.function.Supplier;

/**
 * Builds a builder-style machine: states whose handlers return the
 * next state's name, declared by annotations ({@link #registerHandlers}) or lambdas
 * ({@link StateConfig#handler}), with metadata per state.
 *
 * <pre>{@code
 * StateMachineDefinition<DoorContext> DOOR = new StateMachineBuilder<DoorContext>()
 *     .registerHandlers(DoorBehavior.class)
 *     .configureState("Opening").duration(0.75f)
 *     .configureState("Closing").duration(0.75f)
 *     .build();
 * }</pre>
 *
 * <p>Every problem (a wrong handler signature, a name no state has, two initial states or none,
 * a window outside its state, ...) is collected and thrown by {@link #build()} at once. States
 * are numbered (for dumps, tags and checkpoints) in the order they were first named: an
 * annotated class's states in name order, as Java gives methods in no order.
 *
 * <p>A builder is not thread-safe; the definition it builds is immutable and shared.
 *
 * @param <C> the context type
 */
public final class StateMachineBuilder<C extends StateContextCore> {
    private static final String DEFAULT_ID = "fsm";

    private final String id;
    private final Supplier<? extends C> contexts;
    private final Map<String, Spec> states = new LinkedHashMap<>();
    private final List<String> problems = new ArrayList<>();
    private final List<Class<?>> contextTypes = new ArrayList<>();
    private final List<String> contextTypeUsers = new ArrayList<>();
    private final List<Class<?>> heldBy = new ArrayList<>();
    private BiConsumer<Object, String> onStateEnter;
    private String behaviorName;
    private boolean tags = true;
    private boolean ownerOnly;
    private int version;
    private java.util.List<dev.enginestates.declare.Migration> migrations = java.util.List.of();

    /** A builder whose machine is named by the first {@link StateBehavior} registered, or {@code "fsm"}. */
    public StateMachineBuilder() {
        this(null, null);
    }

    /**
     * A builder whose machine is named by the first {@link StateBehavior} registered (or
     * {@code "fsm"}), with a context factory for {@code States.of(def).trait()} and restores.
     *
     * @param contexts makes a fresh context; {@code null} when every instance is given its own
     */
    public StateMachineBuilder(Supplier<? extends C> contexts) {
        this(null, contexts);
    }

    /**
     * A builder for a machine named {@code id} (dumps, tags and errors name it).
     *
     * @param id the machine's name; {@code null} to name it as the no-argument builder does
     */
    public StateMachineBuilder(String id) {
        this(id, null);
    }

    /**
     * A builder for a machine named {@code id}, with a context factory, which an entity's
     * {@code States.of(def).trait()} uses and a checkpoint restore needs.
     *
     * @param id       the machine's name; {@code null} to name it as the no-argument builder does
     * @param contexts makes a fresh context; {@code null} when every instance is given its own
     */
    public StateMachineBuilder(String id, Supplier<? extends C> contexts) {
        this.id = id;
        this.contexts = contexts;
    }

    /**
     * Registers the annotated methods of a behavior class, made once through its no-argument
     * constructor: {@link State} handlers, {@link StateEnter}, {@link StateExit} and
     * {@link StateWindow} hooks, static or not, inherited ones included.
     *
     * @param behavior the class to scan; it is made only when some annotated method is not
     *                 static. A problem ({@code null}, no annotated method, no usable
     *                 constructor, a wrong signature) is reported by {@link #build()}
     * @return this builder, for chaining
     */
    public StateMachineBuilder<C> registerHandlers(Class<?> behavior) {
        if (behavior == null) {
            problems.add("registerHandlers(null); expected a class with @State methods");
            return this;
        }
        Object instance = null;
        if (hasInstanceMethods(behavior)) {
            try {
                instance = MethodBinding.instantiate(behavior);
            } catch (NoSuchMethodException e) {
                problems.add(behavior.getName() + " has no constructor without arguments to make it with; add one, or register an"
                        + " instance: registerHandlers(new " + behavior.getSimpleName() + "(...))");
                return this;
            } catch (ReflectiveOperationException | RuntimeException e) {
                Throwable cause = e.getCause() != null ? e.getCause() : e;
                problems.add("making a " + behavior.getName() + " threw " + cause);
                return this;
            }
        }
        scan(behavior, instance);
        return this;
    }

    /**
     * Registers the annotated methods of a behavior instance (whose fields the handlers may share).
     *
     * @param behavior the object whose class is scanned and whose instance methods are called; a
     *                 {@code Class} is registered as {@link #registerHandlers(Class)} does
     * @return this builder, for chaining
     */
    public StateMachineBuilder<C> registerHandlers(Object behavior) {
        if (behavior == null) {
            problems.add("registerHandlers(null); expected an object with @State methods");
            return this;
        }
        if (behavior instanceof Class<?> type) {
            return registerHandlers(type);
        }
        scan(behavior.getClass(), behavior);
        return this;
    }

    /**
     * Configures a state, declaring it if no handler named it: metadata, handler and hooks follow.
     *
     * @param name the state's name, such as {@code "Opening"}; a {@code null} or blank one is
     *             reported by {@link #build()}
     * @return the state's configuration, whose calls chain on
     */
    public StateConfig configureState(String name) {
        if (name == null || name.isBlank()) {
            problems.add("configureState(" + (name == null ? "null" : "'" + name + "'") + "); expected a state name");
            return new StateConfig(new Spec("?"));
        }
        return new StateConfig(spec(name));
    }

    /**
     * A hook run on every state entry (initialization included), after the state's metadata is written and before its enter hook.
     *
     * @param hook called with the context and the entered state's name; given at most once
     * @return this builder, for chaining
     */
    @SuppressWarnings("unchecked")
    public StateMachineBuilder<C> onStateEnter(BiConsumer<? super C, String> hook) {
        if (hook == null) {
            problems.add("onStateEnter(null); expected a hook (ctx, state) -> ...");
        } else if (onStateEnter != null) {
            problems.add("onStateEnter is given twice; expected one hook");
        } else {
            onStateEnter = (BiConsumer<Object, String>) hook;
        }
        return this;
    }

    /**
     * Whether the ECS binding gives each state a tag component (default true).
     *
     * @param tags {@code false} to give the states no tag components
     * @return this builder, for chaining
     */
    public StateMachineBuilder<C> tags(boolean tags) {
        this.tags = tags;
        return this;
    }

    /**
     * Declares the machine its owner's alone: a {@code RoomStream} sends its records to the
     * player the entity's {@code Owner} component names and to nobody else (an entity without
     * an owner sends them to nobody), and the dump shows {@code "ownerOnly": true}.
     *
     * @return this builder, for chaining
     */
    public StateMachineBuilder<C> ownerOnly() {
        this.ownerOnly = true;
        return this;
    }

    /**
     * Component types that, present on the machine's entity, hold it: it neither advances nor runs.
     *
     * @param types the component classes; added to those given before
     * @return this builder, for chaining
     */
    public StateMachineBuilder<C> heldBy(Class<?>... types) {
        for (Class<?> t : types) {
            if (t == null) {
                problems.add("heldBy(null); expected component classes");
            } else {
                heldBy.add(t);
            }
        }
        return this;
    }

    /**
     * Builds the immutable definition, shared by every instance on every thread.
     *
     * @return the definition, to keep in a {@code static final} field and share
     * @throws InvalidMachineException listing every problem at once
     */
    public StateMachineDefinition<C> build() {
        List<String> found = new ArrayList<>(problems);
        String machineId = id != null ? id : behaviorName != null ? behaviorName : DEFAULT_ID;
        List<Spec> specs = new ArrayList<>(states.values());
        List<String> names = new ArrayList<>(states.keySet());
        if (specs.isEmpty()) {
            found.add("the machine has no states; expected @State methods (registerHandlers) or configureState(name)");
        }
        List<Spec> initials = new ArrayList<>();
        for (Spec s : specs) {
            if (!s.initialBy.isEmpty()) {
                initials.add(s);
            }
        }
        if (initials.isEmpty() && !specs.isEmpty()) {
            found.add("no state is initial; mark one with @State(value = \"...\", initial = true) or configureState(name).asInitial()");
        } else if (initials.size() > 1) {
            List<String> which = new ArrayList<>();
            for (Spec s : initials) {
                which.add("'" + s.name + "' (" + String.join(", ", s.initialBy) + ")");
            }
            found.add("more than one state is initial: " + String.join(", ", which) + "; expected exactly one");
        }
        List<String> withHandlers = new ArrayList<>();
        for (Spec s : specs) {
            if (s.handler != null) {
                withHandlers.add(s.name);
            }
        }
        for (Spec s : specs) {
            check(s, names, withHandlers, found);
        }
        Class<?>[] types = contextTypes.toArray(new Class<?>[0]);
        String[] users = contextTypeUsers.toArray(new String[0]);
        BuilderChart chart = new BuilderChart(specs.size() + 1, onStateEnter, types, users);
        MachineBuilder<Object> shape = new MachineBuilder<>();
        if (initials.size() == 1) {
            shape.initial(initials.get(0).name);
        }
        for (int i = 0; i < specs.size(); i++) {
            Spec s = specs.get(i);
            shape.state(s.name);
            fill(chart, i + 1, s, names);
        }
        Chart compiled = ChartCompiler.compileBuilder(machineId, shape.definition(), chart, found);
        Access.initialize(Machine.class); // a game using only this style may not have touched Machine yet
        @SuppressWarnings("unchecked")
        Machine<C> machine = (Machine<C>) Access.compiled(machineId, contexts, compiled, tags, heldBy, ownerOnly, version, migrations);
        return new StateMachineDefinition<>(machine);
    }

    // ------------------------------------------------------------------ checks

    private void check(Spec s, List<String> names, List<String> withHandlers, List<String> out) {
        String where = "state '" + s.name + "'";
        if (!s.declared) {
            out.add(String.join(", ", s.namedBy) + " names state '" + s.name + "', which no @State method or configureState"
                    + " declares" + Names.suggestion(s.name, names.stream().filter(n -> !n.equals(s.name)).toList()));
            return;
        }
        if (s.handlers.size() > 1) {
            out.add(where + " has " + s.handlers.size() + " handlers (" + String.join(", ", s.handlers) + "); expected one");
        }
        if (s.enters.size() > 1) {
            out.add(where + " has " + s.enters.size() + " enter hooks (" + String.join(", ", s.enters) + "); expected one");
        }
        if (s.exits.size() > 1) {
            out.add(where + " has " + s.exits.size() + " exit hooks (" + String.join(", ", s.exits) + "); expected one");
        }
        for (int i = 0; i < s.next.size(); i++) {
            String n = s.next.get(i);
            if (!names.contains(n) || !states.get(n).declared) {
                out.add(s.nextBy.get(i) + " names state '" + n + "', which no @State method or configureState declares; expected one of "
                        + names + Names.suggestion(n, names));
            }
        }
        if (!s.windows.isEmpty() && !(s.duration > 0f)) {
            out.add(where + " has windows " + s.windows.keySet() + " but no duration; a window's bounds are fractions of the"
                    + " state's duration: configureState(\"" + s.name + "\").duration(seconds)");
        }
        for (WindowHook w : s.windowHooks) {
            if (!s.windows.containsKey(w.window)) {
                out.add(w.where + " names window '" + w.window + "' of state '" + s.name + "', which it does not have; expected one of "
                        + s.windows.keySet() + Names.suggestion(w.window, s.windows.keySet()));
            }
        }
        if (s.handler == null) {
            List<String> meaningless = new ArrayList<>();
            if (s.duration > 0f) {
                meaningless.add("a duration");
            }
            if (s.delay > 0f) {
                meaningless.add("a delay");
            }
            if (!s.windows.isEmpty()) {
                meaningless.add("windows");
            }
            if (!s.windowHooks.isEmpty()) {
                meaningless.add("window callbacks");
            }
            if (!meaningless.isEmpty()) {
                out.add(where + " has " + String.join(", ", meaningless) + " but no handler; a state without a handler does"
                        + " nothing and its time never advances" + Names.suggestion(s.name, withHandlers));
            }
        }
    }

    private void fill(BuilderChart chart, int n, Spec s, List<String> names) {
        chart.handler[n] = s.handler;
        chart.enter[n] = s.enter;
        chart.exit[n] = s.exit;
        chart.duration[n] = s.duration > 0f ? s.duration : 0f;
        chart.delay[n] = s.delay > 0f ? s.delay : 0f;
        chart.tag[n] = s.tag;
        chart.windows[n] = Collections.unmodifiableMap(new LinkedHashMap<>(s.windows));
        chart.data[n] = s.data;
        chart.motion[n] = s.motion;
        chart.next[n] = s.next.stream().mapToInt(name -> names.indexOf(name) + 1).filter(i -> i > 0).toArray();
        int k = s.windowHooks.size();
        if (k > 0) {
            chart.windowOf[n] = new Window[k];
            chart.windowExitEdge[n] = new boolean[k];
            @SuppressWarnings("unchecked")
            Consumer<Object>[] hooks = (Consumer<Object>[]) new Consumer<?>[k];
            chart.windowCallback[n] = hooks;
            for (int i = 0; i < k; i++) {
                WindowHook w = s.windowHooks.get(i);
                chart.windowOf[n][i] = s.windows.getOrDefault(w.window, new Window(w.window, 0f, 0f));
                chart.windowExitEdge[n][i] = w.onExit;
                hooks[i] = w.hook;
            }
        }
    }

    // ------------------------------------------------------------------ annotations

    private static boolean hasInstanceMethods(Class<?> type) {
        for (Method m : methodsOf(type)) {
            if (!Modifier.isStatic(m.getModifiers()) && annotated(m)) {
                return true;
            }
        }
        return false;
    }

    private static boolean annotated(Method m) {
        return m.isAnnotationPresent(State.class) || m.isAnnotationPresent(StateEnter.class)
                || m.isAnnotationPresent(StateExit.class) || m.isAnnotationPresent(StateWindow.class);
    }

    /** The class's methods and its superclasses', skipping compiler-made bridges; sorted for a stable order. */
    private static List<Method> methodsOf(Class<?> type) {
        List<Method> out = new ArrayList<>();
        for (Class<?> k = type; k != null && k != Object.class; k = k.getSuperclass()) {
            for (Method m : k.getDeclaredMethods()) {
                if (!m.isBridge() && !m.isSynthetic()) {
                    out.add(m);
                }
            }
        }
        return out;
    }

    private void scan(Class<?> type, Object instance) {
        StateBehavior behavior = type.getAnnotation(StateBehavior.class);
        if (behavior != null && behaviorName == null) {
            behaviorName = behavior.value();
        }
        List<Method> methods = methodsOf(type);
        // states first, in name order, so hooks may name states declared later in the class
        List<Method> stateMethods = new ArrayList<>();
        for (Method m : methods) {
            if (m.isAnnotationPresent(State.class)) {
                stateMethods.add(m);
            }
        }
        stateMethods.sort(Comparator.comparing((Method m) -> m.getAnnotation(State.class).value()).thenComparing(Method::getName));
        boolean any = false;
        for (Method m : stateMethods) {
            any = true;
            State a = m.getAnnotation(State.class);
            String where = "@State(\"" + a.value() + "\") " + describe(m);
            if (a.value() == null || a.value().isBlank()) {
                problems.add(where + " has no state name");
                continue;
            }
            Spec s = spec(a.value());
            if (a.initial()) {
                s.initialBy.add(where);
            }
            if (a.delay() != 0f) {
                s.setDelay(a.delay(), where);
            }
            s.declareNext(a.to(), where + " to");
            if (!handlerShape(m)) {
                problems.add(where + " has the wrong shape; expected String " + m.getName() + "(Context ctx, float dt)");
                s.handlers.add(where);
                continue;
            }
            try {
                s.setHandler(MethodBinding.handler(m, instance), where);
                contextType(m, where);
            } catch (ReflectiveOperationException | InaccessibleObjectException | SecurityException e) {
                problems.add(where + " cannot be called by engine-states (" + e.getMessage() + "); " + openHint(m.getDeclaringClass()));
            }
        }
        List<Method> hooks = new ArrayList<>();
        for (Method m : methods) {
            if (!m.isAnnotationPresent(State.class) && annotated(m)) {
                hooks.add(m);
            } else if (m.isAnnotationPresent(State.class) && (m.isAnnotationPresent(StateEnter.class)
                    || m.isAnnotationPresent(StateExit.class) || m.isAnnotationPresent(StateWindow.class))) {
                problems.add(describe(m) + " is both a @State handler and a hook; a method is one or the other");
            }
        }
        hooks.sort(Comparator.comparing(StateMachineBuilder::describe));
        for (Method m : hooks) {
            any = true;
            StateEnter enter = m.getAnnotation(StateEnter.class);
            StateExit exit = m.getAnnotation(StateExit.class);
            StateWindow window = m.getAnnotation(StateWindow.class);
            int count = (enter != null ? 1 : 0) + (exit != null ? 1 : 0) + (window != null ? 1 : 0);
            if (count > 1) {
                problems.add(describe(m) + " has " + count + " of @StateEnter, @StateExit and @StateWindow; expected one");
                continue;
            }
            String state = enter != null ? enter.value() : exit != null ? exit.value() : window.state();
            String where = (enter != null ? "@StateEnter(\"" + state + "\") " : exit != null ? "@StateExit(\"" + state + "\") "
                    : "@StateWindow(state = \"" + state + "\", window = \"" + window.window() + "\") ") + describe(m);
            if (state == null || state.isBlank()) {
                problems.add(where + " has no state name");
                continue;
            }
            Spec s = namedBy(state, where);
            if (!hookShape(m)) {
                problems.add(where + " has the wrong shape; expected void " + m.getName() + "(Context ctx)");
                continue;
            }
            Consumer<Object> hook;
            try {
                hook = MethodBinding.hook(m, instance);
                contextType(m, where);
            } catch (ReflectiveOperationException | InaccessibleObjectException | SecurityException e) {
                problems.add(where + " cannot be called by engine-states (" + e.getMessage() + "); " + openHint(m.getDeclaringClass()));
                continue;
            }
            if (enter != null) {
                s.enters.add(where);
                s.enter = hook;
            } else if (exit != null) {
                s.exits.add(where);
                s.exit = hook;
            } else {
                s.windowHooks.add(new WindowHook(window.window(), window.on() == StateWindow.Edge.EXITED, hook, where));
            }
        }
        if (!any) {
            problems.add(type.getName() + " has no @State, @StateEnter, @StateExit or @StateWindow method to register");
        }
    }

    private static boolean handlerShape(Method m) {
        Class<?>[] p = m.getParameterTypes();
        return m.getReturnType() == String.class && p.length == 2 && !p[0].isPrimitive() && p[1] == float.class;
    }

    private static boolean hookShape(Method m) {
        Class<?>[] p = m.getParameterTypes();
        return m.getReturnType() == void.class && p.length == 1 && !p[0].isPrimitive();
    }

    private void contextType(Method m, String where) {
        Class<?> t = m.getParameterTypes()[0];
        if (t != Object.class && t != StateContextCore.class) {
            contextTypes.add(t);
            contextTypeUsers.add(where);
        }
    }

    /** What a game does so that this library may call a behavior's methods: on the module path, open the package to the core module. */
    private static String openHint(Class<?> type) {
        String library = StateMachineBuilder.class.getModule().getName();
        String game = type.getModule().getName();
        if (library == null || game == null) {
            return "make it public";
        }
        return "make it public, or open its package to " + library + " (in " + game + "'s module-info.java: opens "
                + type.getPackageName() + " to " + library + ";)";
    }

    private static String describe(Method m) {
        StringBuilder b = new StringBuilder(m.getDeclaringClass().getSimpleName()).append('.').append(m.getName()).append('(');
        Class<?>[] p = m.getParameterTypes();
        for (int i = 0; i < p.length; i++) {
            b.append(i == 0 ? "" : ", ").append(p[i].getSimpleName());
        }
        return b.append(')').toString();
    }

    // ------------------------------------------------------------------ per state

    private Spec spec(String name) {
        Spec s = states.computeIfAbsent(name, Spec::new);
        s.declared = true;
        return s;
    }

    /** A state named by a hook: it must be declared by a handler or configureState, before or after. */
    private Spec namedBy(String name, String where) {
        Spec s = states.computeIfAbsent(name, Spec::new);
        s.namedBy.add(where);
        return s;
    }

    private final class Spec {
        final String name;
        boolean declared;
        final List<String> namedBy = new ArrayList<>();
        final List<String> initialBy = new ArrayList<>();
        final List<String> handlers = new ArrayList<>();
        final List<String> enters = new ArrayList<>();
        final List<String> exits = new ArrayList<>();
        StateHandler<Object> handler;
        Consumer<Object> enter;
        Consumer<Object> exit;
        float duration;
        float delay;
        String tag = "";
        final Map<String, Window> windows = new LinkedHashMap<>();
        final List<WindowHook> windowHooks = new ArrayList<>();
        Object data;
        StateMotionProfile motion;
        /** The states the handler may return, as declared ({@code transitionsTo}, {@code @State(to = ...)}). */
        final List<String> next = new ArrayList<>();
        final List<String> nextBy = new ArrayList<>();

        Spec(String name) {
            this.name = name;
        }

        void declareNext(String[] names, String where) {
            for (String n : names) {
                if (n == null || n.isBlank()) {
                    problems.add(where + " has a blank state name; expected the name of a state the handler may return");
                } else if (!next.contains(n)) {
                    next.add(n);
                    nextBy.add(where);
                }
            }
        }

        void setHandler(StateHandler<Object> h, String where) {
            handlers.add(where);
            handler = h;
        }

        void setDelay(float seconds, String where) {
            if (!(seconds >= 0f) || Float.isInfinite(seconds)) {
                problems.add(where + " has delay " + seconds + "; expected finite seconds, 0 or more");
            } else {
                delay = seconds;
            }
        }
    }

    private record WindowHook(String window, boolean onExit, Consumer<Object> hook, String where) {
    }

    /**
     * One state's configuration, from {@link #configureState}. Its calls chain, and the builder's
     * own calls continue the chain: {@code .configureState("A").duration(1).configureState("B")...build()}.
     */
    public final class StateConfig {
        private final Spec spec;
        private final String where;

        private StateConfig(Spec spec) {
            this.spec = spec;
            this.where = "configureState(\"" + spec.name + "\")";
        }

        /**
         * How long the state lasts, in seconds: its progress is time in state over it.
         *
         * @param seconds the duration, finite and above 0
         * @return this configuration, for chaining
         */
        public StateConfig duration(float seconds) {
            if (!(seconds > 0f) || Float.isInfinite(seconds)) {
                problems.add(where + ".duration(" + seconds + "); expected finite seconds above 0");
            } else {
                spec.duration = seconds;
            }
            return this;
        }

        /**
         * Seconds after entry during which the handler does not run (enter hooks run at once).
         *
         * @param seconds the delay, finite and 0 or more
         * @return this configuration, for chaining
         */
        public StateConfig delay(float seconds) {
            spec.setDelay(seconds, where + ".delay(...)");
            return this;
        }

        /**
         * A tag the context reads as {@code currentStateTag}: which of the states one handler backs.
         *
         * @param tag the tag, such as {@code "light"}; not {@code null}
         * @return this configuration, for chaining
         */
        public StateConfig tag(String tag) {
            if (tag == null) {
                problems.add(where + ".tag(null); expected a tag");
            } else {
                spec.tag = tag;
            }
            return this;
        }

        /**
         * A timing window, its bounds in progress: fractions of the duration, {@code 0 <= from <= to}.
         * See {@link Window}.
         *
         * @param name the window's name, unique in the state, such as {@code "damage"}
         * @param from the progress it opens at, 0 or more
         * @param to   the progress it closes at, {@code from} or more
         * @return this configuration, for chaining
         */
        public StateConfig window(String name, float from, float to) {
            String w = where + ".window(" + (name == null ? "null" : "\"" + name + "\"") + ", " + from + ", " + to + ")";
            if (name == null || name.isBlank()) {
                problems.add(w + "; expected a window name");
            } else if (!(from >= 0f) || !(to >= from) || Float.isInfinite(to)) {
                problems.add(w + "; expected progress bounds 0 <= from <= to (fractions of the state's duration)");
            } else if (spec.windows.containsKey(name)) {
                problems.add(w + " names window '" + name + "' twice; expected one window per name");
            } else {
                spec.windows.put(name, new Window(name, from, to));
            }
            return this;
        }

        /**
         * Data the context reads as {@code currentStateData}, such as an attack step's cost.
         *
         * @param data any object, shared by every instance; {@code null} for none
         * @return this configuration, for chaining
         */
        public StateConfig data(Object data) {
            spec.data = data;
            return this;
        }

        /**
         * The motion profile the context reads as {@code currentStateMotion}.
         *
         * @param motion the profile; {@code null} for none
         * @return this configuration, for chaining
         */
        public StateConfig motion(StateMotionProfile motion) {
            spec.motion = motion;
            return this;
        }

        /**
         * The states the handler may return, declared for the tools that read a machine without
         * running it: the test kit's generated paths and transition coverage, and diagrams, which
         * draw them as transitions. The machine still moves wherever the handler says; coverage
         * names a move to an undeclared state. A name no state has is refused by {@link #build()}.
         *
         * @param states the names of the states this one may move to, such as {@code "Playing"}
         * @return this configuration, for chaining
         */
        public StateConfig transitionsTo(String... states) {
            spec.declareNext(states, where + ".transitionsTo(...)");
            return this;
        }

        /**
         * Makes this the initial state.
         *
         * @return this configuration, for chaining
         */
        public StateConfig asInitial() {
            if (!spec.initialBy.contains(where + ".asInitial()")) {
                spec.initialBy.add(where + ".asInitial()");
            }
            return this;
        }

        /**
         * The state's handler: returns the next state's name, or {@code null} to stay.
         *
         * @param handler called with the context and the step's seconds; not {@code null}
         * @return this configuration, for chaining
         */
        @SuppressWarnings("unchecked")
        public StateConfig handler(StateHandler<? super C> handler) {
            if (handler == null) {
                problems.add(where + ".handler(null); expected (ctx, dt) -> next state or null");
            } else {
                spec.setHandler((StateHandler<Object>) handler, where + ".handler(...)");
            }
            return this;
        }

        /**
         * The state's enter hook, run on every entry, at once even with a delay.
         *
         * @param hook called with the context; not {@code null}
         * @return this configuration, for chaining
         */
        @SuppressWarnings("unchecked")
        public StateConfig enter(Consumer<? super C> hook) {
            if (hook == null) {
                problems.add(where + ".enter(null); expected ctx -> ...");
            } else {
                spec.enters.add(where + ".enter(...)");
                spec.enter = (Consumer<Object>) hook;
            }
            return this;
        }

        /**
         * The state's exit hook, run first in every transition out of it.
         *
         * @param hook called with the context; not {@code null}
         * @return this configuration, for chaining
         */
        @SuppressWarnings("unchecked")
        public StateConfig exit(Consumer<? super C> hook) {
            if (hook == null) {
                problems.add(where + ".exit(null); expected ctx -> ...");
            } else {
                spec.exits.add(where + ".exit(...)");
                spec.exit = (Consumer<Object>) hook;
            }
            return this;
        }

        /**
         * Configures another state (the builder's own call, to go on chaining).
         *
         * @param name the other state's name
         * @return that state's configuration
         */
        public StateConfig configureState(String name) {
            return StateMachineBuilder.this.configureState(name);
        }

        /**
         * The builder's {@link StateMachineBuilder#registerHandlers(Class)}.
         *
         * @param behavior the class to scan
         * @return the builder, for chaining
         */
        public StateMachineBuilder<C> registerHandlers(Class<?> behavior) {
            return StateMachineBuilder.this.registerHandlers(behavior);
        }

        /**
         * The builder's {@link StateMachineBuilder#onStateEnter}.
         *
         * @param hook called with the context and the entered state's name
         * @return the builder, for chaining
         */
        public StateMachineBuilder<C> onStateEnter(BiConsumer<? super C, String> hook) {
            return StateMachineBuilder.this.onStateEnter(hook);
        }

        /**
         * The builder's {@link StateMachineBuilder#build()}.
         *
         * @return the definition
         * @throws InvalidMachineException listing every problem at once
         */
        public StateMachineDefinition<C> build() {
            return StateMachineBuilder.this.build();
        }
    }

    @Override
    public String toString() {
        return "StateMachineBuilder(" + (id != null ? id : behaviorName != null ? behaviorName : DEFAULT_ID) + ", states "
                + Arrays.toString(states.keySet().toArray()) + ")";
    }

    /**
     * Declares the machine's version, which checkpoints, snapshots, streams and input logs record,
     * and how records of older versions become records of this one. A machine that declares none
     * is version 0. Migrations from a version to the next chain: a checkpoint of version 1 restored
     * by version 3 goes through the migrations from 1 and from 2.
     *
     * @param version this definition's version, 0 or more
     * @param migrations how each older version's records become the next's, each from a version below {@code version}
     * @return this builder, for chaining
     */
    public StateMachineBuilder<C> version(int version, dev.enginestates.declare.Migration... migrations) {
        this.version = version;
        this.migrations = java.util.List.of(migrations);
        return this;
    }

    /**
     * The version declared, 0 when none was.
     *
     * @return the version
     */
    public int declaredVersion() {
        return version;
    }

    /**
     * The migrations declared with the version.
     *
     * @return the migrations, unmodifiable
     */
    public java.util.List<dev.enginestates.declare.Migration> migrations() {
        return migrations;
    }

}

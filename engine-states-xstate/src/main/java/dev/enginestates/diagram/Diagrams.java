package dev.enginestates.diagram;

import dev.enginestates.Machine;
import dev.enginestates.StatesDef;
import dev.enginestates.declare.MachineException;
import dev.enginestates.ecs.States;
import dev.enginestates.fsm.StateMachineDefinition;
import dev.enginestates.records.Access;

import java.util.Collection;
import java.util.List;
import java.util.Objects;

/**
 * Draws a machine of any declaration style as a Mermaid {@code stateDiagram-v2} (which GitHub
 * renders in a {@code ```mermaid} block) or as a Graphviz DOT digraph ({@code dot -Tsvg}).
 *
 * <pre>{@code
 * String mermaid = Diagrams.mermaid(SIEGE);
 * String dot = Diagrams.dot(GUARD, List.of("patrol.watch"));   // the active state highlighted
 * }</pre>
 *
 * <p>The machine is one box named after it; compound states are boxes inside it (clusters in
 * DOT), a parallel state's regions are separated ({@code --} in Mermaid, dashed clusters in
 * DOT), a history state is a circle {@code H} or {@code H*} with a dashed edge to its default,
 * a final state has an edge to the end ({@code [*]}) in Mermaid and a double border in DOT.
 * Edges are labelled with what takes them: the event, {@code always}, {@code onDone},
 * {@code wait 12 s}, {@code when isSlow}; a guard in brackets, named actions after a slash,
 * {@code (reenter)}; a targetless transition is a loop marked {@code (targetless)}. Code
 * wrapped with {@code Named} shows its name, other code a generic word ({@code [guard]},
 * {@code when test}). The polled style draws its {@code to} guards in priority order, its
 * {@code after} and its event targets; a handler or {@code update} that returns a name at run
 * time is written on the state, and {@code $back} is a node of its own. The builder style's
 * next states are returned by its handlers at run time, so its diagram shows the states with
 * their duration, delay, tag and windows, and the initial state, and as transitions only the
 * states each handler is declared to return ({@code transitionsTo}, {@code @State(to)}).
 *
 * <p>The text is the same for the same machine; the methods only read the definition, so they
 * may be called from any thread.
 */
public final class Diagrams {
    private Diagrams() {
    }

    /**
     * A machine as Mermaid's {@code stateDiagram-v2}.
     *
     * @param machine any machine: declared with {@code Machine.define}, imported, or the {@code machine()} of
     *                a {@code StatesDef} or builder-style definition
     * @return the diagram's text, starting with {@code stateDiagram-v2}
     * @throws NullPointerException if {@code machine} is {@code null}
     */
    public static String mermaid(Machine<?> machine) {
        return mermaid(machine, List.of());
    }

    /**
     * A machine as Mermaid's {@code stateDiagram-v2}, with some states highlighted (class {@code active}).
     *
     * @param machine any machine
     * @param active  dotted paths of the states to highlight, such as a running machine's
     *                {@code leaves()}; their ancestors are highlighted with them
     * @return the diagram's text, starting with {@code stateDiagram-v2}
     * @throws NullPointerException if an argument is {@code null}
     * @throws MachineException if a path names no state of the machine
     */
    public static String mermaid(Machine<?> machine, Collection<String> active) {
        return MermaidWriter.write(picture(machine, active));
    }

    /**
     * A polled machine as Mermaid's {@code stateDiagram-v2}.
     *
     * @param definition the polled table
     * @return the diagram's text
     * @throws NullPointerException if {@code definition} is {@code null}
     */
    public static String mermaid(StatesDef<?> definition) {
        return mermaid(Objects.requireNonNull(definition, "definition").machine());
    }

    /**
     * A polled machine as Mermaid's {@code stateDiagram-v2}, with some states highlighted.
     *
     * @param definition the polled table
     * @param active     dotted paths of the states to highlight; their ancestors are highlighted with them
     * @return the diagram's text
     * @throws NullPointerException if an argument is {@code null}
     * @throws MachineException if a path names no state of the machine
     */
    public static String mermaid(StatesDef<?> definition, Collection<String> active) {
        return mermaid(Objects.requireNonNull(definition, "definition").machine(), active);
    }

    /**
     * A builder-style machine as Mermaid's {@code stateDiagram-v2}: its states, not its transitions.
     *
     * @param definition the built definition
     * @return the diagram's text
     * @throws NullPointerException if {@code definition} is {@code null}
     */
    public static String mermaid(StateMachineDefinition<?> definition) {
        return mermaid(Objects.requireNonNull(definition, "definition").machine());
    }

    /**
     * A builder-style machine as Mermaid's {@code stateDiagram-v2}, with some states highlighted.
     *
     * @param definition the built definition
     * @param active     names of the states to highlight, such as a running machine's {@code state()}
     * @return the diagram's text
     * @throws NullPointerException if an argument is {@code null}
     * @throws MachineException if a name names no state of the machine
     */
    public static String mermaid(StateMachineDefinition<?> definition, Collection<String> active) {
        return mermaid(Objects.requireNonNull(definition, "definition").machine(), active);
    }

    /**
     * An ECS binding's machine as Mermaid's {@code stateDiagram-v2}, whatever its style.
     *
     * @param states the binding, such as one made with {@code States.define} or {@code States.of}
     * @return the diagram's text
     * @throws NullPointerException if {@code states} is {@code null}
     */
    public static String mermaid(States<?> states) {
        return mermaid(Objects.requireNonNull(states, "states").machine());
    }

    /**
     * An ECS binding's machine as Mermaid's {@code stateDiagram-v2}, with some states highlighted.
     *
     * @param states the binding
     * @param active dotted paths of the states to highlight, such as a record's {@code leaves()}; their
     *               ancestors are highlighted with them
     * @return the diagram's text
     * @throws NullPointerException if an argument is {@code null}
     * @throws MachineException if a path names no state of the machine
     */
    public static String mermaid(States<?> states, Collection<String> active) {
        return mermaid(Objects.requireNonNull(states, "states").machine(), active);
    }

    /**
     * A machine as a Graphviz DOT digraph.
     *
     * @param machine any machine: declared with {@code Machine.define}, imported, or the {@code machine()} of
     *                a {@code StatesDef} or builder-style definition
     * @return the digraph's text, for {@code dot -Tsvg}
     * @throws NullPointerException if {@code machine} is {@code null}
     */
    public static String dot(Machine<?> machine) {
        return dot(machine, List.of());
    }

    /**
     * A machine as a Graphviz DOT digraph, with some states highlighted (filled).
     *
     * @param machine any machine
     * @param active  dotted paths of the states to highlight; their ancestors are highlighted with them
     * @return the digraph's text
     * @throws NullPointerException if an argument is {@code null}
     * @throws MachineException if a path names no state of the machine
     */
    public static String dot(Machine<?> machine, Collection<String> active) {
        return DotWriter.write(picture(machine, active));
    }

    /**
     * A polled machine as a Graphviz DOT digraph.
     *
     * @param definition the polled table
     * @return the digraph's text
     * @throws NullPointerException if {@code definition} is {@code null}
     */
    public static String dot(StatesDef<?> definition) {
        return dot(Objects.requireNonNull(definition, "definition").machine());
    }

    /**
     * A polled machine as a Graphviz DOT digraph, with some states highlighted.
     *
     * @param definition the polled table
     * @param active     dotted paths of the states to highlight; their ancestors are highlighted with them
     * @return the digraph's text
     * @throws NullPointerException if an argument is {@code null}
     * @throws MachineException if a path names no state of the machine
     */
    public static String dot(StatesDef<?> definition, Collection<String> active) {
        return dot(Objects.requireNonNull(definition, "definition").machine(), active);
    }

    /**
     * A builder-style machine as a Graphviz DOT digraph: its states, not its transitions.
     *
     * @param definition the built definition
     * @return the digraph's text
     * @throws NullPointerException if {@code definition} is {@code null}
     */
    public static String dot(StateMachineDefinition<?> definition) {
        return dot(Objects.requireNonNull(definition, "definition").machine());
    }

    /**
     * A builder-style machine as a Graphviz DOT digraph, with some states highlighted.
     *
     * @param definition the built definition
     * @param active     names of the states to highlight
     * @return the digraph's text
     * @throws NullPointerException if an argument is {@code null}
     * @throws MachineException if a name names no state of the machine
     */
    public static String dot(StateMachineDefinition<?> definition, Collection<String> active) {
        return dot(Objects.requireNonNull(definition, "definition").machine(), active);
    }

    /**
     * An ECS binding's machine as a Graphviz DOT digraph, whatever its style.
     *
     * @param states the binding, such as one made with {@code States.define} or {@code States.of}
     * @return the digraph's text
     * @throws NullPointerException if {@code states} is {@code null}
     */
    public static String dot(States<?> states) {
        return dot(Objects.requireNonNull(states, "states").machine());
    }

    /**
     * An ECS binding's machine as a Graphviz DOT digraph, with some states highlighted.
     *
     * @param states the binding
     * @param active dotted paths of the states to highlight; their ancestors are highlighted with them
     * @return the digraph's text
     * @throws NullPointerException if an argument is {@code null}
     * @throws MachineException if a path names no state of the machine
     */
    public static String dot(States<?> states, Collection<String> active) {
        return dot(Objects.requireNonNull(states, "states").machine(), active);
    }

    /**
     * A machine of any style as Mermaid, marked as a transition-coverage report draws it: the
     * transitions never taken dashed and labelled {@code (untaken)} (a polled {@code on} handler,
     * drawn as a line on its state, labelled), the states never entered shaded. The test kit's
     * {@code TransitionCoverage} writes it.
     *
     * @param states          the machine
     * @param untakenMoves    the untaken transitions, by the numbers the coverage report gives them
     * @param unenteredStates the dotted paths of the states never entered
     * @return Mermaid's {@code stateDiagram-v2} text
     * @throws NullPointerException if an argument is {@code null}
     * @throws MachineException if a move number is not one of the chart's, or a path names no state
     */
    public static String coverageMermaid(States<?> states, java.util.BitSet untakenMoves, Collection<String> unenteredStates) {
        return MermaidWriter.write(picture(Objects.requireNonNull(states, "states").machine(), List.of())
                .marked(Objects.requireNonNull(untakenMoves, "untakenMoves"), Objects.requireNonNull(unenteredStates, "unenteredStates")));
    }

    /**
     * A machine of any style as Graphviz DOT, marked as a transition-coverage report draws it; see
     * {@link #coverageMermaid}.
     *
     * @param states          the machine
     * @param untakenMoves    the untaken transitions, by the numbers the coverage report gives them
     * @param unenteredStates the dotted paths of the states never entered
     * @return the DOT digraph's text
     * @throws NullPointerException if an argument is {@code null}
     * @throws MachineException if a move number is not one of the chart's, or a path names no state
     */
    public static String coverageDot(States<?> states, java.util.BitSet untakenMoves, Collection<String> unenteredStates) {
        return DotWriter.write(picture(Objects.requireNonNull(states, "states").machine(), List.of())
                .marked(Objects.requireNonNull(untakenMoves, "untakenMoves"), Objects.requireNonNull(unenteredStates, "unenteredStates")));
    }

    private static Picture picture(Machine<?> machine, Collection<String> active) {
        Objects.requireNonNull(machine, "machine");
        Objects.requireNonNull(active, "active");
        return Picture.of(Access.chart(machine), active);
    }
}

package dev.enginestates.declare;

import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.function.Consumer;
import java.util.function.Function;

/**
 * Declares a child machine a state runs while it is active, as XState's {@code invoke} does:
 * {@code s.invoke("wave", WAVE, i -> i.input(siege -> new Wave(siege.level)).onDone("rest"))}.
 *
 * <p>On a world, the child is a machine of its own: by default on a new entity the world
 * spawns when the state is entered and despawns when it is left (keyed {@code "<parent key>/<id>"}
 * when the parent's entity has a key, and owned by the parent entity's owner), or, with
 * {@link #onSameEntity()}, a record attached to the parent's entity and detached with the state.
 * When the child reaches a final state at its top level, the parent receives
 * {@code "xstate.done.actor.<id>"} with the field {@code "output"} (the child's context, or
 * what {@link #output} makes of it); {@link #onDone} declares the parent's transition on it.
 *
 * @param <C> the parent's context type
 * @param <K> the child's context type
 */
public final class InvokeBuilder<C, K> {
    private final String id;
    private final ChildMachine<K> machine;
    private Function<? super C, ? extends K> input;
    private Function<? super K, ?> output;
    private boolean sameEntity;
    private final List<Consumer<TransitionBuilder<C>>> onDone = new ArrayList<>();

    InvokeBuilder(String id, ChildMachine<K> machine) {
        this.id = id;
        this.machine = machine;
    }

    /**
     * The event a child invoked or spawned as {@code id} sends its parent when it is done.
     *
     * @param id the child's id, as given to {@code invoke} or {@code spawn}
     * @return {@code "xstate.done.actor.<id>"}, as XState names it
     */
    public static String doneEvent(String id) {
        return "xstate.done.actor." + id;
    }

    /**
     * Makes the child's context from the parent's when the child starts.
     *
     * @param input called with the parent's context; its result, not {@code null}, is the child's context.
     *              Without it, the child's context comes from its own factory
     * @return this builder, for chaining
     */
    public InvokeBuilder<C, K> input(Function<? super C, ? extends K> input) {
        this.input = Objects.requireNonNull(input, "input");
        return this;
    }

    /**
     * What the done event carries as {@code "output"}: by default the child's context itself.
     *
     * @param output called with the child's context once it is done
     * @return this builder, for chaining
     */
    public InvokeBuilder<C, K> output(Function<? super K, ?> output) {
        this.output = Objects.requireNonNull(output, "output");
        return this;
    }

    /**
     * Runs the child on the parent's own entity (a record attached while the state is active)
     * rather than on an entity of its own. The child machine must then differ from every other
     * machine on that entity, since an entity holds one record per machine.
     *
     * @return this builder, for chaining
     */
    public InvokeBuilder<C, K> onSameEntity() {
        this.sameEntity = true;
        return this;
    }

    /**
     * When the child is done, go to {@code target}.
     *
     * @param target the state to go to, written as for {@link TransitionBuilder#target(String...)}
     * @return this builder, for chaining
     */
    public InvokeBuilder<C, K> onDone(String target) {
        Objects.requireNonNull(target, "target");
        return onDone(t -> t.target(target));
    }

    /**
     * When the child is done, the transition declared by {@code body}; its guard and actions read
     * the child's output as {@code event.get("output")}. Several calls form a priority list.
     *
     * @param body declares the transition
     * @return this builder, for chaining
     */
    public InvokeBuilder<C, K> onDone(Consumer<TransitionBuilder<C>> body) {
        onDone.add(Objects.requireNonNull(body, "body"));
        return this;
    }

    /**
     * The child's id.
     *
     * @return the id given to {@code invoke}
     */
    public String id() {
        return id;
    }

    /**
     * The child's machine.
     *
     * @return the machine given to {@code invoke}
     */
    public ChildMachine<K> machine() {
        return machine;
    }

    /**
     * How the child's context is made.
     *
     * @return the function given to {@link #input}, or {@code null} for the child's own factory
     */
    public Function<? super C, ? extends K> input() {
        return input;
    }

    /**
     * What the done event carries.
     *
     * @return the function given to {@link #output}, or {@code null} for the child's context itself
     */
    public Function<? super K, ?> output() {
        return output;
    }

    /**
     * Whether the child runs on the parent's entity.
     *
     * @return {@code true} after {@link #onSameEntity()}
     */
    public boolean sameEntity() {
        return sameEntity;
    }

    List<Consumer<TransitionBuilder<C>>> doneTransitions() {
        return onDone;
    }
}

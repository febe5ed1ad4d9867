package dev.enginestates.fsm;

/**
 * The builder style's AI flavour: a {@link StateMachine} over an {@link AIContext}, as a
 * bot's brain uses it (a role chosen by {@code transitionTo}, the brain ticked by {@code update}).
 *
 * @param <C> the bot's context
 */
public class AIStateMachine<C extends AIContext> extends StateMachine<C> {
    /**
     * A brain over a definition; {@link #initialize} starts it.
     *
     * @param definition the built machine to run; not {@code null}
     */
    public AIStateMachine(StateMachineDefinition<C> definition) {
        super(definition);
    }
}

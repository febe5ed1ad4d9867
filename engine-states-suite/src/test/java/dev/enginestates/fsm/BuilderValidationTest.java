package dev.enginestates.fsm;

import dev.enginestates.declare.InvalidMachineException;
import org.junit.jupiter.api.Test;

import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * A builder-style machine's mistakes are build-time errors, every one listed in one exception
 * (the issue: "a wrong signature, an unknown state name in an annotation, two initial states
 * or none is a build-time error listing every problem").
 */
class BuilderValidationTest {
    static final class Ctx extends AIContext {
    }

    @StateBehavior("broken")
    static final class Broken {
        @State(value = "Closed", initial = true)
        void closedReturnsNothing(Ctx c, float dt) {
        }

        @State("Opening")
        String openingTakesDouble(Ctx c, double dt) {
            return null;
        }

        @State(value = "Open", initial = true)
        String open(Ctx c, float dt) {
            return null;
        }

        @StateEnter("Opnening")
        void enterTypo(Ctx c) {
        }

        @StateExit("Open")
        void exitTakesTwo(Ctx c, float dt) {
        }

        @StateWindow(state = "Open", window = "creak")
        void creak(Ctx c) {
        }

        @State("Shut")
        @StateEnter("Shut")
        String both(Ctx c, float dt) {
            return null;
        }
    }

    private static List<String> problems(Runnable build) {
        InvalidMachineException x = assertThrows(InvalidMachineException.class, build::run);
        return x.problems();
    }

    private static void has(List<String> problems, String... parts) {
        for (String p : problems) {
            boolean all = true;
            for (String part : parts) {
                all &= p.contains(part);
            }
            if (all) {
                return;
            }
        }
        throw new AssertionError("no problem mentions " + List.of(parts) + " in " + problems);
    }

    @Test
    void every_annotation_mistake_is_listed_at_once() {
        List<String> p = problems(() -> new StateMachineBuilder<Ctx>().registerHandlers(Broken.class).build());
        has(p, "@State(\"Closed\")", "closedReturnsNothing", "expected String closedReturnsNothing(Context ctx, float dt)");
        has(p, "@State(\"Opening\")", "openingTakesDouble(Ctx, double)");
        has(p, "more than one state is initial", "'Closed'", "'Open'");
        has(p, "@StateEnter(\"Opnening\")", "names state 'Opnening'", "did you mean 'Opening'");
        has(p, "@StateExit(\"Open\")", "expected void exitTakesTwo(Context ctx)");
        has(p, "@StateWindow(state = \"Open\", window = \"creak\")", "window 'creak'", "does not have");
        has(p, "both(Ctx, float)", "both a @State handler and a hook");
        assertTrue(p.size() >= 7, p.toString());
    }

    @Test
    void no_initial_state_is_an_error() {
        List<String> p = problems(() -> {
            var b = new StateMachineBuilder<Ctx>("none");
            b.configureState("A").handler((c, dt) -> null);
            b.build();
        });
        has(p, "no state is initial", "asInitial()");
    }

    @Test
    void no_state_at_all_is_an_error() {
        has(problems(() -> new StateMachineBuilder<Ctx>("empty").build()), "no states");
    }

    @Test
    void metadata_that_cannot_work_is_an_error() {
        List<String> p = problems(() -> new StateMachineBuilder<Ctx>("meta")
                .configureState("Attack").asInitial().handler((c, dt) -> null).window("hit", 0.1f, 0.2f)
                .configureState("Atack").duration(1f)
                .configureState("Swing").handler((c, dt) -> null).duration(-1f).delay(Float.NaN).window("w", 0.5f, 0.2f)
                .window("", 0f, 1f)
                .configureState("Block").handler((c, dt) -> null).handler((c, dt) -> "Attack").enter(c -> { }).enter(c -> { })
                .configureState(" ")
                .configureState("a.b").handler((c, dt) -> null)
                .build());
        has(p, "state 'Attack'", "windows [hit] but no duration");
        has(p, "state 'Atack'", "a duration but no handler", "did you mean 'Attack'");
        has(p, "duration(-1.0)", "above 0");
        has(p, "delay", "NaN");
        has(p, "window(\"w\", 0.5, 0.2)", "0 <= from <= to");
        has(p, "window(\"\"", "expected a window name");
        has(p, "state 'Block' has 2 handlers");
        has(p, "state 'Block' has 2 enter hooks");
        has(p, "configureState(' ')");
        has(p, "'a.b'", "contains '.'");
    }

    static final class NoDefaultConstructor {
        NoDefaultConstructor(int x) {
        }

        @State(value = "A", initial = true)
        String a(Ctx c, float dt) {
            return null;
        }
    }

    static final class NothingAnnotated {
        String a(Ctx c, float dt) {
            return null;
        }
    }

    @Test
    void a_behavior_that_cannot_be_made_or_has_nothing_to_register_is_an_error() {
        has(problems(() -> new StateMachineBuilder<Ctx>().registerHandlers(NoDefaultConstructor.class).build()),
                "NoDefaultConstructor", "no constructor without arguments", "registerHandlers(new NoDefaultConstructor(...))");
        has(problems(() -> new StateMachineBuilder<Ctx>().registerHandlers(NothingAnnotated.class)
                .configureState("A").asInitial().build()), "NothingAnnotated has no @State");
        has(problems(() -> new StateMachineBuilder<Ctx>().registerHandlers((Class<?>) null).build()), "registerHandlers(null)");
    }

    @Test
    void an_instance_with_state_registers_its_handlers_bound_to_it() {
        NoDefaultConstructor behavior = new NoDefaultConstructor(1);
        StateMachineDefinition<Ctx> def = new StateMachineBuilder<Ctx>("inst").registerHandlers(behavior).build();
        assertEquals(List.of("A"), def.states());
        assertEquals("A", def.initialState());
    }

    /** Static handlers need no instance: the class is never made. */
    static final class StaticOnly {
        private StaticOnly() {
            throw new AssertionError("never made");
        }

        @State(value = "A", initial = true)
        static String a(Ctx c, float dt) {
            return "B";
        }

        @State("B")
        private static String b(Ctx c, float dt) {
            return null;
        }
    }

    @Test
    void static_and_private_handlers_are_bound_too() {
        StateMachine<Ctx> m = new StateMachine<>(new StateMachineBuilder<Ctx>().registerHandlers(StaticOnly.class).build());
        Ctx c = new Ctx();
        m.initialize(c);
        m.update(c, 0.1f);
        assertEquals("B", m.state());
    }

    @Test
    void annotated_states_are_numbered_in_name_order_then_configured_ones_in_call_order() {
        StateMachineDefinition<Ctx> def = new StateMachineBuilder<Ctx>()
                .configureState("Zeta").handler((c, dt) -> null)
                .registerHandlers(Document002ExamplesTest.DoorBehavior.class)
                .configureState("Alpha")
                .build();
        assertEquals(List.of("Zeta", "Closed", "Closing", "Open", "Opening", "Alpha"), def.states());
        assertEquals("door", def.id());
    }
}

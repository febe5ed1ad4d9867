package dev.enginestates.bench;

import org.springframework.messaging.support.MessageBuilder;
import org.springframework.statemachine.StateMachine;
import org.springframework.statemachine.config.StateMachineBuilder;
import org.springframework.statemachine.config.configurers.StateConfigurer;
import reactor.core.publisher.Mono;

import java.util.Collection;
import java.util.List;
import java.util.Set;

/**
 * The memory peer's machines in Spring Statemachine: {@link MemoryPerMachine}'s flat 3-state
 * machine and the 3-level guard ({@link Machines#guard}), each instance built and started as
 * Spring's {@code StateMachineBuilder} makes one (its states and transitions are objects of the
 * instance, not shared between instances as ours are by the chart).
 */
final class SpringMachines {
    private SpringMachines() {
    }

    /** idle → walk → run → idle on GO, started in idle. */
    static StateMachine<String, String> flat3() {
        try {
            StateMachineBuilder.Builder<String, String> b = StateMachineBuilder.builder();
            b.configureConfiguration().withConfiguration().autoStartup(false);
            b.configureStates().withStates().initial("idle").states(Set.of("idle", "walk", "run"));
            b.configureTransitions()
                    .withExternal().source("idle").target("walk").event("GO").and()
                    .withExternal().source("walk").target("run").event("GO").and()
                    .withExternal().source("run").target("idle").event("GO");
            return started(b.build());
        } catch (Exception e) {
            throw new IllegalStateException("could not build Spring's flat machine", e);
        }
    }

    /** The guard: patrol (walking: north ↔ south on TURN; looking; deep history) and alert (search, chase); ALARM and CALM. */
    static StateMachine<String, String> guard() {
        try {
            StateMachineBuilder.Builder<String, String> b = StateMachineBuilder.builder();
            b.configureConfiguration().withConfiguration().autoStartup(false);
            b.configureStates()
                    .withStates().initial("patrol").states(Set.of("patrol", "alert")).and()
                    .withStates().parent("patrol").initial("walking").state("looking")
                    .history("resume", StateConfigurer.History.DEEP).and()
                    .withStates().parent("walking").initial("north").state("south").and()
                    .withStates().parent("alert").initial("search").state("chase");
            b.configureTransitions()
                    .withExternal().source("north").target("south").event("TURN").and()
                    .withExternal().source("south").target("north").event("TURN").and()
                    .withExternal().source("patrol").target("alert").event("ALARM").and()
                    .withExternal().source("alert").target("resume").event("CALM");
            return started(b.build());
        } catch (Exception e) {
            throw new IllegalStateException("could not build Spring's guard machine", e);
        }
    }

    private static StateMachine<String, String> started(StateMachine<String, String> m) {
        m.startReactively().block();
        return m;
    }

    static void send(StateMachine<String, String> m, String event) {
        m.sendEvent(Mono.just(MessageBuilder.withPayload(event).build())).blockLast();
    }

    static Collection<String> ids(StateMachine<String, String> m) {
        return m.getState().getIds();
    }

    /**
     * Checks that the peer machines behave as ours before they are measured: the flat one
     * cycles on GO, the guard turns, is alarmed and comes back to where it walked through its
     * deep history.
     *
     * @throws IllegalStateException naming the step that went elsewhere
     */
    static void check() {
        StateMachine<String, String> flat = flat3();
        expect(flat, List.of("idle"), "flat, started");
        send(flat, "GO");
        expect(flat, List.of("walk"), "flat, after GO");
        send(flat, "GO");
        send(flat, "GO");
        expect(flat, List.of("idle"), "flat, after three GO");

        StateMachine<String, String> guard = guard();
        expect(guard, List.of("patrol", "walking", "north"), "guard, started");
        send(guard, "TURN");
        expect(guard, List.of("patrol", "walking", "south"), "guard, after TURN");
        send(guard, "ALARM");
        expect(guard, List.of("alert", "search"), "guard, after ALARM");
        send(guard, "CALM");
        expect(guard, List.of("patrol", "walking", "south"), "guard, after CALM (deep history)");
    }

    private static void expect(StateMachine<String, String> m, List<String> expected, String when) {
        Collection<String> ids = ids(m);
        if (!(ids.size() == expected.size() && ids.containsAll(expected))) {
            throw new IllegalStateException("Spring's machine is in " + ids + " " + when + "; expected " + expected);
        }
    }
}

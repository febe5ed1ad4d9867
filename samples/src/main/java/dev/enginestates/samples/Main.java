package dev.enginestates.samples;

import dev.enginestates.Machine;
import dev.enginestates.plain.StateMachine;

/**
 * The samples' main job: declares the {@code 003} document's siege and guard machines, drives
 * them with events and prints each move. Run it with {@code mvn -q -pl samples exec:java}
 * after {@code mvn -q install -DskipTests}.
 */
public final class Main {
    private Main() {
    }

    /** Drives the siege and the guard and prints every move. */
    public static void main(String[] args) {
        System.out.println("== siege (003: Declaring a machine) ==");
        StateMachine<Siege> siege = new StateMachine<>(Siege.MACHINE);
        print(siege, "start");
        drive(siege, "START", "WAVE_HELD", "ALL_DOWN");
        System.out.println("  (ALL_DOWN is not taken in breather: only fight names it; breather's 12 s wait leads back to fight)");
        StateMachine<Siege> lost = new StateMachine<>(Siege.MACHINE);
        drive(lost, "START", "ALL_DOWN");
        System.out.println("  waves held: " + siege.context().wave + " and " + lost.context().wave);

        System.out.println();
        System.out.println("== guard (003: Waiting, deep history) ==");
        StateMachine<Guard> guard = new StateMachine<>(Guard.MACHINE);
        print(guard, "start");
        drive(guard, "BELL", "RESUME", "BELL", "RESTART");
        System.out.println("  bells answered: " + guard.context().bells);
        System.out.println();
        System.out.println("Machines: " + describe(Siege.MACHINE) + "; " + describe(Guard.MACHINE));
    }

    private static void drive(StateMachine<?> machine, String... events) {
        for (String event : events) {
            String before = json(machine.value());
            boolean taken = machine.send(event);
            System.out.printf("  %-10s %-20s -> %s%s%n", event, before, json(machine.value()), taken ? "" : "  (not taken)");
        }
    }

    private static void print(StateMachine<?> machine, String what) {
        System.out.printf("  %-10s %s%n", what, json(machine.value()));
    }

    /** A state value as XState prints it: "fight", {"patrol": "watch"}. */
    static String json(Object value) {
        if (value instanceof java.util.Map) {
            StringBuilder sb = new StringBuilder("{");
            for (java.util.Map.Entry<?, ?> e : ((java.util.Map<?, ?>) value).entrySet()) {
                sb.append(sb.length() > 1 ? ", " : "").append('"').append(e.getKey()).append("\": ").append(json(e.getValue()));
            }
            return sb.append('}').toString();
        }
        return "\"" + value + "\"";
    }

    private static String describe(Machine<?> m) {
        return m.id() + " " + m.statePaths();
    }
}

package dev.enginestates.testing;

import dev.enginestates.Machine;
import dev.enginestates.algorithm.MoveObserver;
import dev.enginestates.chart.Chart;
import dev.enginestates.ecs.States;
import dev.enginestates.records.Access;
import org.junit.jupiter.api.extension.AfterAllCallback;
import org.junit.jupiter.api.extension.BeforeAllCallback;
import org.junit.jupiter.api.extension.ExtensionContext;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;

/**
 * A JUnit 5 extension that records which states the tests entered and which transitions they
 * took, across a test class (or, with {@link #acrossRun()}, the whole run), then prints a table,
 * writes a report and can fail below a threshold:
 *
 * <pre>{@code
 * @RegisterExtension
 * static TransitionCoverage coverage = TransitionCoverage.of(GUARD).failBelow(1.0);
 * }</pre>
 *
 * <p>It counts every move of the named machines in the process while the class runs, on any
 * world or plain object, whoever made it; the path generator's own search is not counted. Run
 * the classes that share a report one at a time (JUnit's default). {@code @ExtendWith(TransitionCoverage.class)}
 * reports every machine that moved, without diagrams.
 *
 * <p>The report goes to {@code target/engine-states-coverage/<class>} by default: {@code coverage.json}
 * and, per machine, {@code <machine>.coverage.mmd} and {@code .dot} with untaken transitions
 * dashed and marked {@code (untaken)}.
 */
public final class TransitionCoverage implements BeforeAllCallback, AfterAllCallback {
    /**
     * The JUnit configuration parameter that, set to {@code false}, stops every coverage extension
     * of the run printing its table (a build that must print nothing of its own sets it in
     * Surefire's {@code configurationParameters}); reports are still written and thresholds checked.
     */
    public static final String PRINT = "engine-states.coverage.print";
    /** Where reports go unless {@link #reportTo} says otherwise. */
    public static final Path DEFAULT_FOLDER = Path.of("target", "engine-states-coverage");

    private final Map<Chart, States<?>> machines = new LinkedHashMap<>();
    private double threshold = 0;
    private Path folder;
    private boolean quiet;
    private boolean run;
    private SeenMoves recording;
    private CoverageReport last;

    /** Every machine that moves while the class runs, reported without diagrams (what {@code @ExtendWith} makes). */
    public TransitionCoverage() {
    }

    /**
     * Coverage of these machines.
     *
     * @param machines the machines to report, such as {@code GUARD}
     * @return a new extension, to register with {@code @RegisterExtension}
     */
    public static TransitionCoverage of(States<?>... machines) {
        TransitionCoverage t = new TransitionCoverage();
        for (States<?> m : machines) {
            t.machines.put(Access.chart(Objects.requireNonNull(m, "machine").machine()), m);
        }
        return t;
    }

    /**
     * Coverage of these machines.
     *
     * @param machines the machines to report
     * @return a new extension
     */
    public static TransitionCoverage of(Machine<?>... machines) {
        return of(java.util.Arrays.stream(machines).map(m -> States.of(Objects.requireNonNull(m, "machine"))).toArray(States<?>[]::new));
    }

    /**
     * Fails the class (or the run) when a machine took fewer than this share of its transitions or
     * entered fewer than this share of its states.
     *
     * @param fraction 0 to 1, such as {@code 1.0} for every transition
     * @return this extension
     */
    public TransitionCoverage failBelow(double fraction) {
        if (!(fraction >= 0 && fraction <= 1)) {
            throw new IllegalArgumentException("failBelow(" + fraction + "); expected a share from 0 to 1, such as 0.9");
        }
        this.threshold = fraction;
        return this;
    }

    /**
     * The folder the report is written to.
     *
     * @param folder a folder, made if missing
     * @return this extension
     */
    public TransitionCoverage reportTo(Path folder) {
        this.folder = Objects.requireNonNull(folder, "folder");
        return this;
    }

    /**
     * Prints nothing; the report is still written and the threshold still checked.
     *
     * @return this extension
     */
    public TransitionCoverage quiet() {
        this.quiet = true;
        return this;
    }

    /**
     * Records across the whole test run rather than one class: every class registering an
     * extension with the same report folder adds to one report, written and checked when the run ends.
     *
     * @return this extension
     */
    public TransitionCoverage acrossRun() {
        this.run = true;
        return this;
    }

    /**
     * The report of the last class this extension ran, or {@code null} before one ended (the run's report is written at its end).
     *
     * @return the last report, or {@code null}
     */
    public CoverageReport report() {
        return last;
    }

    @Override
    public void beforeAll(ExtensionContext context) {
        if (run) {
            ExtensionContext.Store store = context.getRoot().getStore(ExtensionContext.Namespace.create(TransitionCoverage.class));
            RunRecording r = store.getOrComputeIfAbsent(folder(context).toAbsolutePath().toString(),
                    k -> new RunRecording(this, folder(context), printing(context)), RunRecording.class);
            r.add(machines);
            return;
        }
        recording = new SeenMoves();
        MoveObserver.install(recording);
    }

    @Override
    public void afterAll(ExtensionContext context) {
        if (run) {
            return;
        }
        MoveObserver.uninstall(recording);
        SeenMoves seen = recording;
        recording = null;
        finish(context.getRequiredTestClass().getName(), seen, machines, folder(context), printing(context));
    }

    private boolean printing(ExtensionContext context) {
        return !quiet && !"false".equalsIgnoreCase(context.getConfigurationParameter(PRINT).orElse("true").strip());
    }

    private Path folder(ExtensionContext context) {
        if (folder != null) {
            return folder;
        }
        return run ? DEFAULT_FOLDER.resolve("run") : DEFAULT_FOLDER.resolve(context.getRequiredTestClass().getName());
    }

    /** Builds the report (kept for {@link #report()}, also when it fails), prints it, writes it and checks the threshold. */
    private void finish(String title, SeenMoves seen, Map<Chart, States<?>> named, Path into, boolean print) {
        List<CoverageReport.MachineCoverage> out = new ArrayList<>();
        Map<String, States<?>> drawable = new LinkedHashMap<>();
        if (named.isEmpty()) {
            for (SeenMoves.OfChart o : seen.all()) {
                out.add(CoverageReport.of(o));
            }
            out.sort(java.util.Comparator.comparing(CoverageReport.MachineCoverage::machine));
        } else {
            named.forEach((chart, states) -> {
                out.add(CoverageReport.of(seen.of(chart)));
                drawable.put(chart.machineId, states);
            });
        }
        CoverageReport report = new CoverageReport(title, out, drawable);
        last = report;
        if (print) {
            System.out.print(report.table());
        }
        report.writeTo(into);
        List<String> below = new ArrayList<>();
        for (CoverageReport.MachineCoverage m : report.machines()) {
            if (m.transitionRatio() < threshold || m.stateRatio() < threshold) {
                below.add("machine '" + m.machine() + "': " + CoverageReport.percent(m.transitionRatio()) + " of transitions taken, "
                        + CoverageReport.percent(m.stateRatio()) + " of states entered; untaken: " + m.untaken()
                        + (m.unentered().isEmpty() ? "" : "; never entered: " + m.unentered()));
            }
        }
        if (!below.isEmpty()) {
            throw new AssertionError("transition coverage below " + CoverageReport.percent(threshold) + " (" + title + "):\n  "
                    + String.join("\n  ", below) + "\nreport: " + into.toAbsolutePath());
        }
    }

    /** One run's recording, kept in JUnit's root store and closed by JUnit when the run ends. */
    private static final class RunRecording implements AutoCloseable {
        private final TransitionCoverage owner;
        private final Path folder;
        private final SeenMoves seen = new SeenMoves();
        private final Map<Chart, States<?>> machines = new LinkedHashMap<>();
        private final boolean print;

        RunRecording(TransitionCoverage owner, Path folder, boolean print) {
            this.owner = owner;
            this.folder = folder;
            this.print = print;
            MoveObserver.install(seen);
        }

        synchronized void add(Map<Chart, States<?>> more) {
            more.forEach(machines::putIfAbsent);
        }

        @Override
        public void close() {
            MoveObserver.uninstall(seen);
            owner.finish("the test run", seen, machines, folder, print);
        }
    }
}

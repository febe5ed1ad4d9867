// Reads the JMH JSON of bench/compare-builder.sh and prints one Markdown table: the builder
// style's cases (the 002 document), engine-states' plain and ECS faces (mean, p99, bytes an
// operation) beside gdx-ai's DefaultStateMachine (the same), and the ratios engine-states /
// gdx-ai; then the steps per machine beyond the handlers' own cost, and the issue's targets.
//
//   node bench/compare-builder.mjs bench/jmh-result-builder.json
import { figures, time, bytes, per, zero, verdict, peerTable, readJmh } from "./format.mjs";

const jmh = readJmh("node compare-builder.mjs <jmh-result-builder.json>");

const MACHINES = 1000;
const ours = (bench, params) => figures(jmh, bench, params);

const PHASES = [["inPhase", "in phase"], ["staggered", "staggered"]];

// H: a tick of 1,000 machines whose handler returns null
const handlers = {
    plain: ours("BuilderHandlersBench.engineStates"),
    ecs: ours("BuilderHandlersBench.engineStatesEcs"),
    alone: ours("BuilderHandlersBench.handlersAlone"),
    peer: ours("BuilderHandlersBench.gdxAi"),
};
// D: 1,000 machines once a second
const cycleAlone = ours("BuilderCycle1sBench.handlersAlone");
const cycle = Object.fromEntries(PHASES.map(([phase]) => [phase, {
    plain: ours("BuilderCycle1sBench.engineStates", { phase }),
    ecsTags: ours("BuilderCycle1sBench.engineStatesEcs", { phase, tags: true }),
    ecsNoTags: ours("BuilderCycle1sBench.engineStatesEcs", { phase, tags: false }),
    peer: ours("BuilderCycle1sBench.gdxAi", { phase }),
}]));
// T: one transition with metadata
const transition = {
    plain: ours("BuilderTransitionBench.engineStates"),
    ecsTags: ours("BuilderTransitionBench.engineStatesEcs", { tags: true }),
    ecsNoTags: ours("BuilderTransitionBench.engineStatesEcs", { tags: false }),
    peer: ours("BuilderTransitionBench.gdxAi"),
};

const rows = [
    { label: "control: a busy loop of ~50 ns (the machine's noise floor)", es: ours("NoiseFloorBench.busyLoop") },
    { label: "H: 1,000 machines, handler returns null: plain `update(ctx, 1/60f)` each (a tick)", es: handlers.plain, peer: handlers.peer },
    { label: "H: the same on 1,000 entities: `world.step(1/60)`", es: handlers.ecs, peer: handlers.peer },
    { label: "H baseline: the handler lambda alone on 1,000 contexts, no machine", es: handlers.alone },
    { label: "H plain, per machine (÷ 1,000)", es: per(handlers.plain, MACHINES), peer: per(handlers.peer, MACHINES) },
    { label: "H ECS, per machine (÷ 1,000)", es: per(handlers.ecs, MACHINES), peer: per(handlers.peer, MACHINES) },
    { label: "H baseline, per machine (÷ 1,000)", es: per(handlers.alone, MACHINES) },
];
for (const [phase, words] of PHASES) {
    const c = cycle[phase];
    rows.push(
        { label: `D: 1,000 once a second, ${words}: plain \`update\``, es: c.plain, peer: c.peer },
        { label: `D: the same on entities, ${words}, tag components`, es: c.ecsTags, peer: c.peer },
        { label: `D: the same on entities, ${words}, tags(false)`, es: c.ecsNoTags, peer: c.peer },
    );
}
rows.push(
    { label: "D baseline: the two handlers alone on 1,000 contexts, no machine", es: cycleAlone },
    { label: "T: one transitionTo with metadata (duration, tag, 2 windows, data, motion), plain; gdx-ai changeState", es: transition.plain,
        peer: transition.peer },
    { label: "T: the same on an entity, `States.transitionTo`, tag components", es: transition.ecsTags, peer: transition.peer },
    { label: "T: the same on an entity, tags(false)", es: transition.ecsNoTags, peer: transition.peer },
);

const { lines, missing, timedMeans } = peerTable(rows);
console.log(lines.join("\n"));
console.log();
console.log("Times per tick of 1,000 machines (H, D; the per-machine rows divide by 1,000) or per transition (T)."
    + " Ratio: engine-states / gdx-ai (how many times gdx-ai's time engine-states takes). p99 comes from the ...Timed twins, which time"
    + " each operation with System.nanoTime() and so include the timer (~20 ns)."
    + " The builder's cycle moves every 61 ticks (float time in state from 0), gdx-ai's every 60."
    + (timedMeans ? " Some means come from the timed runs (no AverageTime result), so they include the timer too." : ""));
if (missing.length) {
    console.log(`No result (a failed or skipped run, see bench/target/builder-run.log): ${missing.join("; ")}.`);
}

// The targets for the builder style.
const beyond = (f, alone) => (f?.mean != null && alone?.mean != null ? (f.mean - alone.mean) / MACHINES : null);
const ns = (x) => (x == null ? "—" : `${x.toFixed(1)} ns`);
const targets = [];
const step = (label, f, alone) => {
    const b = beyond(f, alone);
    targets.push(`| ${label}: at most 10 ns a machine beyond the handlers' own cost | ${ns(b)} ((step − baseline) ÷ 1,000; `
        + `${time(f?.mean == null ? null : f.mean / MACHINES)} a machine in all) | ${verdict(b == null ? null : b <= 10)} |`);
    targets.push(`| ${label}: 0 B once warm | ${bytes(f?.bytes)} a tick | ${verdict(zero(f))} |`);
};
step("H plain", handlers.plain, handlers.alone);
step("H ECS", handlers.ecs, handlers.alone);
for (const [phase, words] of PHASES) {
    step(`D ${words}, plain`, cycle[phase].plain, cycleAlone);
    step(`D ${words}, ECS tags(false)`, cycle[phase].ecsNoTags, cycleAlone);
    step(`D ${words}, ECS with tag components`, cycle[phase].ecsTags, cycleAlone);
}
const move = (label, f, bytesTargeted) => {
    targets.push(`| ${label}: at most 100 ns | ${time(f?.mean)} mean (p99 ${time(f?.p99)}, timer included) | `
        + `${verdict(f?.mean == null ? null : f.mean <= 100)} |`);
    if (bytesTargeted) {
        targets.push(`| ${label}: 0 B | ${bytes(f?.bytes)} | ${verdict(zero(f))} |`);
    }
};
move("T plain", transition.plain, true);
move("T ECS tags(false)", transition.ecsNoTags, true);
move("T ECS with tag components (bytes not targeted: Dominion's composition move)", transition.ecsTags, false);
console.log();
console.log("| target (issue 16) | figure | |");
console.log("| --- | --- | --- |");
console.log(targets.join("\n"));

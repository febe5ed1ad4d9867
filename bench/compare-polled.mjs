// Reads the JMH JSON of bench/compare-polled.sh and prints one Markdown table: the polled
// style's cases, engine-states (mean, p99, bytes an operation) beside gdx-ai's
// DefaultStateMachine (the same), and the ratios engine-states / gdx-ai; then the guard case per
// guard tested and the issue's targets.
//
//   node bench/compare-polled.mjs bench/jmh-result-polled.json
import { readFileSync } from "node:fs";
import { figures, time, bytes } from "./format.mjs";

const [jmhFile] = process.argv.slice(2);
if (!jmhFile) {
    console.error("usage: node compare-polled.mjs <jmh-result-polled.json>");
    process.exit(2);
}
const jmh = JSON.parse(readFileSync(jmhFile, "utf8"));

const MACHINES = 1000;
const GUARDS = 3 * MACHINES; // guards tested in one step of case G

const ours = (bench, params) => figures(jmh, bench, params);

const per = (f, n) => (f ? { ...f, mean: f.mean == null ? null : f.mean / n, p99: f.p99 == null ? null : f.p99 / n, bytes: null } : null);

const guardsOurs = ours("PolledGuardsBench.engineStates", { machines: MACHINES, kinds: 1 });
const guardsPeer = ours("PolledGuardsBench.gdxAi", { machines: MACHINES, kinds: 1 });
const guardsAlone = ours("PolledGuardsBench.guardsAlone", { machines: MACHINES });
const transitionOurs = ours("PolledTransitionBench.engineStates");
const transitionPeer = ours("PolledTransitionBench.gdxAi");

const rows = [
    { label: "control: a busy loop of ~50 ns (the machine's noise floor)", es: ours("NoiseFloorBench.busyLoop") },
    { label: "G: 1,000 machines, 3 guards each, none true (a step)", es: guardsOurs, peer: guardsPeer },
    { label: "G: the same, per guard tested (÷ 3,000)", es: per(guardsOurs, GUARDS), peer: per(guardsPeer, GUARDS) },
    { label: "G baseline: the 3 guard lambdas alone on 1,000 contexts, no machine", es: guardsAlone },
    { label: "G baseline, per guard (÷ 3,000)", es: per(guardsAlone, GUARDS) },
    { label: "G spread: the same, the machines over 4 states (12 guard lambdas; 4 gdx-ai state classes)",
        es: ours("PolledGuardsBench.engineStates", { machines: MACHINES, kinds: 4 }),
        peer: ours("PolledGuardsBench.gdxAi", { machines: MACHINES, kinds: 4 }) },
    { label: "D: 1,000 once a second through after(1.0), in phase", es: ours("PolledCycle1sBench.engineStates", { phase: "inPhase" }),
        peer: ours("PolledCycle1sBench.gdxAi", { phase: "inPhase" }) },
    { label: "D: 1,000 once a second through after(1.0), staggered", es: ours("PolledCycle1sBench.engineStates", { phase: "staggered" }),
        peer: ours("PolledCycle1sBench.gdxAi", { phase: "staggered" }) },
    { label: "T: one transition taken on a guard", es: transitionOurs, peer: transitionPeer },
];

const ratio = (e, g) => (e == null || g == null || !(g > 0) ? "—" : `${(e / g).toPrecision(e / g >= 100 ? 3 : 2)}×`);

const lines = [
    "| case | engine-states mean | p99 | B/op | gdx-ai mean | p99 | B/op | ratio mean | ratio p99 |",
    "| --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: |",
];
const missing = [];
for (const { label, es, peer } of rows) {
    if (!es && !peer) {
        missing.push(label);
        continue;
    }
    lines.push(`| ${label} | ${time(es?.mean)} | ${time(es?.p99)} | ${bytes(es?.bytes)} | `
        + `${time(peer?.mean)} | ${time(peer?.p99)} | ${bytes(peer?.bytes)} | ${ratio(es?.mean, peer?.mean)} | ${ratio(es?.p99, peer?.p99)} |`);
}
console.log(lines.join("\n"));
console.log();
const timedMeans = rows.some((r) => r.es?.meanFrom === "timed" || r.peer?.meanFrom === "timed");
console.log("Times per step of 1,000 machines (G, D; G's per-guard rows divide by the 3,000 guards tested) or per transition (T)."
    + " Ratio: engine-states / gdx-ai (how many times gdx-ai's time engine-states takes). p99 comes from the ...Timed twins, which time"
    + " each operation with System.nanoTime() and so include the timer (~20 ns)."
    + (timedMeans ? " Some means come from the timed runs (no AverageTime result), so they include the timer too." : ""));
if (missing.length) {
    console.log(`No result (a failed or skipped run, see bench/target/polled-run.log): ${missing.join("; ")}.`);
}

// The issue's targets for the polled style.
const verdict = (ok) => (ok == null ? "—" : ok ? "met" : "**missed**");
const beyond = guardsOurs?.mean != null && guardsAlone?.mean != null ? (guardsOurs.mean - guardsAlone.mean) / GUARDS : null;
const zero = (f) => (f?.bytes == null ? null : f.bytes < 1); // JMH's own per-iteration bytes spread over the operations stay under 1 B
console.log();
console.log("| target (issue 11) | figure | |");
console.log("| --- | --- | --- |");
console.log(`| a step that only tests guards: at most 5 ns per guard tested beyond the lambda call itself | `
    + `${beyond == null ? "—" : `${beyond.toFixed(1)} ns`} ((G − G baseline) ÷ 3,000; ${time(guardsOurs?.mean / GUARDS)} a guard in all) | `
    + `${verdict(beyond == null ? null : beyond <= 5)} |`);
console.log(`| that step: 0 B once warm | ${bytes(guardsOurs?.bytes)} a step | ${verdict(zero(guardsOurs))} |`);
console.log(`| a transition at most 100 ns | ${time(transitionOurs?.mean)} mean (p99 ${time(transitionOurs?.p99)}, timer included) | `
    + `${verdict(transitionOurs?.mean == null ? null : transitionOurs.mean <= 100)} |`);
console.log(`| a transition: 0 B | ${bytes(transitionOurs?.bytes)} | ${verdict(zero(transitionOurs))} |`);

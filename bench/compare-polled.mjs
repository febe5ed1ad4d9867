// Reads the JMH JSON of bench/compare-polled.sh and prints one Markdown table: the polled
// style's cases, engine-states (mean, p99, bytes an operation) beside gdx-ai's
// DefaultStateMachine (the same), and the ratios engine-states / gdx-ai; then the guard case per
// guard tested and the issue's targets.
//
//   node bench/compare-polled.mjs bench/jmh-result-polled.json
import { figures, time, bytes, per, zero, verdict, peerTable, readJmh } from "./format.mjs";

const jmh = readJmh("node compare-polled.mjs <jmh-result-polled.json>");

const MACHINES = 1000;
const GUARDS = 3 * MACHINES; // guards tested in one step of case G

const ours = (bench, params) => figures(jmh, bench, params);

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

const { lines, missing, timedMeans } = peerTable(rows);
console.log(lines.join("\n"));
console.log();
console.log("Times per step of 1,000 machines (G, D; G's per-guard rows divide by the 3,000 guards tested) or per transition (T)."
    + " Ratio: engine-states / gdx-ai (how many times gdx-ai's time engine-states takes). p99 comes from the ...Timed twins, which time"
    + " each operation with System.nanoTime() and so include the timer (~20 ns)."
    + (timedMeans ? " Some means come from the timed runs (no AverageTime result), so they include the timer too." : ""));
if (missing.length) {
    console.log(`No result (a failed or skipped run, see bench/target/polled-run.log): ${missing.join("; ")}.`);
}

// The issue's targets for the polled style.
const beyond = guardsOurs?.mean != null && guardsAlone?.mean != null ? (guardsOurs.mean - guardsAlone.mean) / GUARDS : null;
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

// Reads a JMH JSON result (bench/run.sh) and the XState peer's JSON (peers/xstate/bench.mjs)
// and prints one Markdown table: case, engine-states (mean, p50, p99, bytes an operation),
// XState (the same), and the ratio XState / engine-states of the means and of the p99s.
//
//   node bench/compare.mjs bench/jmh-result.json bench/peers/xstate/xstate-result.json
import { readFileSync } from "node:fs";
import { figures, time, bytes, ratio } from "./format.mjs";

const [jmhFile, peerFile] = process.argv.slice(2);
if (!jmhFile) {
    console.error("usage: node compare.mjs <jmh-result.json> [xstate-result.json]");
    process.exit(2);
}
const jmh = JSON.parse(readFileSync(jmhFile, "utf8"));
const peer = peerFile ? JSON.parse(readFileSync(peerFile, "utf8")) : { results: [] };


const ours = (bench, params) => figures(jmh, bench, params);

function theirs(id) {
    const r = peer.results.find((x) => x.case === id);
    return r ? { mean: r.meanNs, p50: r.p50Ns, p99: r.p99Ns, bytes: r.bytesPerOp } : null;
}

// The 003 document's published figures ("What it costs": TypeScript, one XState snapshot per
// entity, on a laptop): mean and worst 1% of the machines' part of a 60 Hz step, and a transition.
const DOC_003 = {
    A: "0.10 ms / 0.25 ms",
    B: "0.16 ms / 0.41 ms",
    C: "0.02 ms / 0.07 ms",
    D: "0.50 ms / 11 ms",
    T: "~11 µs, ~1.5 kB",
};

const rows = [];
rows.push({ label: "control: a busy loop of ~50 ns (the machine's noise floor)", es: ours("NoiseFloorBench.busyLoop", {}), xs: null });
const both = (label, bench, params, peerId) => {
    const doc = peerId ? DOC_003[peerId[0]] : undefined;
    rows.push({ label: `${label}, tags`, es: ours(bench, { ...params, tags: true }), xs: theirs(peerId), doc });
    rows.push({ label: `${label}, tags(false)`, es: ours(bench, { ...params, tags: false }), xs: theirs(peerId), doc });
};
both("A: 1,000 parked", "ParkedBench.step", {}, "A");
both("B: 1,000 in a 1e9 s wait", "LongWaitBench.step", {}, "B");
both("C: 100 every 5 s, in phase", "Cycle5sBench.step", { phase: "inPhase" }, "C-inPhase");
both("C: 100 every 5 s, staggered", "Cycle5sBench.step", { phase: "staggered" }, "C-staggered");
both("D: 1,000 once a second, in phase", "Cycle1sBench.step", { phase: "inPhase", machines: 1000 }, "D-inPhase");
both("D: 1,000 once a second, staggered", "Cycle1sBench.step", { phase: "staggered", machines: 1000 }, "D-staggered");
both("E: 10,000 once a second, staggered", "Cycle1s10kBench.step", {}, "E");
rows.at(-1).doc = rows.at(-2).doc = undefined;
for (const n of [10000, 100000]) {
    for (const phase of ["inPhase", "staggered"]) {
        both(`D scaling: ${n.toLocaleString("en")}, ${phase === "inPhase" ? "in phase" : "staggered"}`, "Cycle1sBench.step",
            { phase, machines: n }, null);
    }
}
const transitions = [
    ["T: flat on/off", "flatToggle", "T-flat"],
    ["T: guard TURN (3 levels)", "guardTurn", "T-guardTurn"],
    ["T: guard ALARM+CALM (2 transitions, deep history)", "guardAlarmThenCalm", "T-guardAlarmCalm"],
    ["T: parallel, 3 regions", "parallelThreeRegions", "T-parallel"],
];
for (const [label, method, peerId] of transitions) {
    const doc = method === "flatToggle" ? DOC_003.T : undefined;
    rows.push({ label: `${label}, plain`, es: ours(`TransitionBench.${method}`, {}), xs: theirs(peerId), doc });
    rows.push({ label: `${label}, ECS tags`, es: ours(`EcsTransitionBench.${method}`, { tags: true }), xs: theirs(peerId), doc });
    rows.push({ label: `${label}, ECS tags(false)`, es: ours(`EcsTransitionBench.${method}`, { tags: false }), xs: theirs(peerId), doc });
}

const lines = [
    "| case | engine-states mean | p50 | p99 | B/op | XState mean | p50 | p99 | B/op | ratio mean | ratio p99 | 003 doc mean / worst 1% |",
    "| --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: |",
];
for (const { label, es, xs, doc } of rows) {
    if (!es && !xs) {
        continue;
    }
    lines.push(`| ${label} | ${time(es?.mean)} | ${time(es?.p50)} | ${time(es?.p99)} | ${bytes(es?.bytes)} | `
        + `${time(xs?.mean)} | ${time(xs?.p50)} | ${time(xs?.p99)} | `
        + `${bytes(xs?.bytes)} | ${ratio(xs?.mean, es?.mean)} | ${ratio(xs?.p99, es?.p99)} | ${doc ?? ""} |`);
}
console.log(lines.join("\n"));
const sampleOnly = rows.some((r) => r.es && r.es.meanFrom === "timed");
console.log();
console.log(`Times per step (A–E) or per operation (T; ALARM+CALM is two transitions). Ratio: XState / engine-states.`
    + ` 003 doc: the published figures of the 003 document (TypeScript engine on XState, a laptop; per step, or per transition for T).`
    + (sampleOnly ? " Quick mode: engine-states means come from the timed runs, so they include the timer (~20 ns)." : ""));
if (peer.xstate) {
    console.log(`XState ${peer.xstate} on Node ${peer.node}${peer.quick ? " (quick)" : ""}.`);
}

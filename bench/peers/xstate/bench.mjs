// The XState peer of engine-states' benchmarks (issue 6): cases A–E and T, run the way an
// engine keeping one XState snapshot per entity does (the 003 document's states()):
//
// - a record per machine holds its XState snapshot, the seconds of the wait its state has
//   (a `wait: { seconds, then }` of the engine's own, which XState does not know) and the
//   seconds waited so far;
// - the step walks the records, adds dt to each waiting record's `waited`, and when a wait
//   ends calls XState's pure `transition(machine, snapshot, event)` with the engine's wait
//   event, keeping the step's remaining seconds for the next state's wait (as engine-states
//   does);
// - a machine with no wait costs the walk and a test.
//
// It times each step (or each transition for T) with process.hrtime.bigint() and prints
// one JSON document: mean, p50, p99 and max in nanoseconds, and the bytes allocated per
// operation (heap growth over a window with no collection in it, measured in a child
// process). It checks that each case moves as many machines a step as it should.
//
//   npm install                     # xstate 5.33.3, exact
//   node bench.mjs [--quick] [--no-alloc] [--only A,D-inPhase,T-flat,...]
import { createMachine, initialTransition, transition } from "xstate";
import { PerformanceObserver } from "node:perf_hooks";
import { createRequire } from "node:module";
import { spawnSync } from "node:child_process";
import { fileURLToPath } from "node:url";

const require = createRequire(import.meta.url);
const XSTATE_VERSION = require("xstate/package.json").version;

const DT = 1 / 60;
const TOLERANCE = 1e-9;
const WAIT = { type: "engine.wait" };

const args = process.argv.slice(2);
const quick = args.includes("--quick");
const allocOnly = args.includes("--alloc-only");
const onlyAt = args.indexOf("--only");
const only = onlyAt >= 0 ? new Set(args[onlyAt + 1].split(",")) : null;

// ------------------------------------------------------------------ machines, as states() takes them

/**
 * An engine's states(): an XState config whose atomic states may carry
 * `wait: { seconds, then }`. The wait becomes an XState transition on the engine's own
 * event; the seconds stay with the engine, by state key.
 */
function states(config) {
    const waits = new Map();
    const xconfig = structuredClone(config);
    for (const [key, s] of Object.entries(xconfig.states ?? {})) {
        if (s.wait) {
            waits.set(key, s.wait.seconds);
            s.on = { ...(s.on ?? {}), [WAIT.type]: s.wait.then };
            delete s.wait;
        }
    }
    const machine = createMachine(xconfig);
    return { machine, waits };
}

const PARKED = states({
    id: "parked",
    initial: "idle",
    states: { idle: { on: { GO: "walk" } }, walk: { on: { GO: "run" } }, run: { on: { GO: "idle" } } },
});
const LONG_WAIT = states({
    id: "longWait",
    initial: "waiting",
    states: { waiting: { wait: { seconds: 1e9, then: "done" } }, done: {} },
});
const cycle = (period) => states({
    id: `cycle${period}`,
    initial: "off",
    states: { off: { wait: { seconds: period, then: "on" } }, on: { wait: { seconds: period, then: "off" } } },
});
const CYCLE_5S = cycle(5);
const CYCLE_1S = cycle(1);

const FLAT = createMachine({
    id: "flat",
    initial: "off",
    states: { off: { on: { TOGGLE: "on" } }, on: { on: { TOGGLE: "off" } } },
});
const GUARD = createMachine({
    id: "guard",
    initial: "patrol",
    states: {
        patrol: {
            initial: "walking",
            states: {
                walking: {
                    initial: "north",
                    states: { north: { on: { TURN: "south" } }, south: { on: { TURN: "north" } } },
                },
                looking: {},
                resume: { type: "history", history: "deep" },
            },
            on: { ALARM: "alert" },
        },
        alert: { initial: "search", states: { search: {}, chase: {} }, on: { CALM: "patrol.resume" } },
    },
});
const region = (k) => ({
    initial: `${k}1`,
    states: { [`${k}1`]: { on: { GO: `${k}2` } }, [`${k}2`]: { on: { GO: `${k}1` } } },
});
const REGIONS = createMachine({ id: "regions", type: "parallel", states: { a: region("a"), b: region("b"), c: region("c") } });

// ------------------------------------------------------------------ the engine's records and step

function waitOf(m, snapshot) {
    const w = typeof snapshot.value === "string" ? m.waits.get(snapshot.value) : undefined;
    return w === undefined ? -1 : w;
}

function world(m, n) {
    const [initial] = initialTransition(m.machine);
    const records = new Array(n);
    for (let i = 0; i < n; i++) {
        records[i] = { snapshot: initial, wait: waitOf(m, initial), waited: 0 };
    }
    return { m, records, transitions: 0 };
}

/** Machine i starts i/n of a period into its wait. */
function stagger(w, period) {
    const n = w.records.length;
    w.records.forEach((r, i) => { r.waited = (i * period) / n; });
}

function step(w, dt) {
    const { m, records } = w;
    for (let i = 0; i < records.length; i++) {
        const r = records[i];
        if (r.wait < 0) {
            continue;
        }
        r.waited += dt;
        if (r.waited >= r.wait - TOLERANCE) {
            const rest = r.waited - r.wait;
            const [next] = transition(m.machine, r.snapshot, WAIT);
            r.snapshot = next;
            r.wait = waitOf(m, next);
            r.waited = r.wait >= 0 ? Math.max(0, rest) : 0;
            w.transitions++;
        }
    }
}

// ------------------------------------------------------------------ measuring

let gcs = 0;
new PerformanceObserver((list) => { gcs += list.getEntries().length; }).observe({ entryTypes: ["gc"] });
// GC entries reach the observer on a later turn of the event loop, so wait a little for them.
const settle = () => new Promise((resolve) => setTimeout(resolve, 20));

function summarize(samples) {
    const sorted = BigInt64Array.from(samples).sort();
    let sum = 0n;
    for (const s of sorted) {
        sum += s;
    }
    const at = (q) => Number(sorted[Math.min(sorted.length - 1, Math.ceil(q * sorted.length) - 1)]);
    return {
        ops: sorted.length,
        meanNs: Number(sum) / sorted.length,
        p50Ns: at(0.5),
        p99Ns: at(0.99),
        maxNs: Number(sorted[sorted.length - 1]),
    };
}

function time(op, warmup, count) {
    for (let i = 0; i < warmup; i++) {
        op();
    }
    const samples = new Array(count);
    for (let i = 0; i < count; i++) {
        const t0 = process.hrtime.bigint();
        op();
        samples[i] = process.hrtime.bigint() - t0;
    }
    return summarize(samples);
}

/**
 * Bytes allocated per op: heap growth over `count` ops with no collection among them. Runs
 * in a child process (--alloc-only) started with --expose-gc and a young generation large
 * enough to hold a whole window, so the timings above run on Node's default heap.
 */
async function allocated(op, count) {
    for (let attempt = 0; attempt < 5; attempt++) {
        globalThis.gc();
        await settle();
        const before = gcs;
        const h0 = process.memoryUsage().heapUsed;
        for (let i = 0; i < count; i++) {
            op();
        }
        const h1 = process.memoryUsage().heapUsed;
        await settle();
        if (gcs === before && h1 >= h0) {
            return (h1 - h0) / count;
        }
    }
    return null;
}

// ------------------------------------------------------------------ the cases

const scale = quick ? 0.25 : 1;
const steps = (n, multipleOf) => Math.max(multipleOf, Math.round((n * scale) / multipleOf) * multipleOf);

const stepCases = [
    { id: "A", what: "1,000 parked (no wait)", m: PARKED, n: 1000, steps: 60000, period: 60, alloc: 600, moves: 0 },
    { id: "B", what: "1,000 in a wait of 1e9 s", m: LONG_WAIT, n: 1000, steps: 60000, period: 60, alloc: 600, moves: 0 },
    { id: "C-inPhase", what: "100 cycling every 5 s, in phase", m: CYCLE_5S, n: 100, steps: 12000, period: 300, alloc: 300, moves: 100 / 300 },
    { id: "C-staggered", what: "100 cycling every 5 s, staggered", m: CYCLE_5S, n: 100, steps: 12000, period: 300, alloc: 300, stagger: 5, moves: 100 / 300 },
    { id: "D-inPhase", what: "1,000 cycling once a second, in phase", m: CYCLE_1S, n: 1000, steps: 6000, period: 60, alloc: 60, moves: 1000 / 60 },
    { id: "D-staggered", what: "1,000 cycling once a second, staggered", m: CYCLE_1S, n: 1000, steps: 6000, period: 60, alloc: 60, stagger: 1, moves: 1000 / 60 },
    { id: "E", what: "10,000 cycling once a second, staggered", m: CYCLE_1S, n: 10000, steps: 1200, period: 60, alloc: 6, stagger: 1, moves: 10000 / 60 },
];

const transitionCases = [
    { id: "T-flat", what: "flat on/off", machine: FLAT, events: [{ type: "TOGGLE" }] },
    { id: "T-guardTurn", what: "guard TURN (leaf to sibling, 3 levels deep)", machine: GUARD, events: [{ type: "TURN" }] },
    { id: "T-guardAlarmCalm", what: "guard ALARM then CALM (2 transitions: exit 3 levels, restore deep history)", machine: GUARD,
        events: [{ type: "ALARM" }, { type: "CALM" }] },
    { id: "T-parallel", what: "3-region parallel, one event taken by all 3", machine: REGIONS, events: [{ type: "GO" }] },
];

const results = [];

for (const c of stepCases) {
    if (only && !only.has(c.id)) {
        continue;
    }
    const w = world(c.m, c.n);
    if (c.stagger) {
        stagger(w, c.stagger);
    }
    const op = () => step(w, DT);
    const warm = steps(Math.min(c.steps, 6000), c.period);
    for (let i = 0; i < warm; i++) {
        op();
    }
    if (allocOnly) {
        results.push({ case: c.id, bytesPerOp: await allocated(op, c.alloc) });
        continue;
    }
    const count = steps(c.steps, c.period);
    const before = w.transitions;
    const stats = time(op, 0, count);
    const transitionsPerStep = (w.transitions - before) / count;
    if (Math.abs(transitionsPerStep - c.moves) > 0.01 * c.moves + 1e-9) {
        throw new Error(`${c.id}: ${transitionsPerStep} transitions a step; expected ${c.moves}`);
    }
    results.push({ case: c.id, what: c.what, machines: c.n, unit: "step", ...stats, bytesPerOp: null, transitionsPerStep });
}

for (const c of transitionCases) {
    if (only && !only.has(c.id)) {
        continue;
    }
    let [snapshot] = initialTransition(c.machine);
    const start = JSON.stringify(snapshot.value);
    const events = c.events;
    const op = () => {
        for (let i = 0; i < events.length; i++) {
            snapshot = transition(c.machine, snapshot, events[i])[0];
        }
    };
    op();
    if (JSON.stringify(snapshot.value) === start && events.length === 1) {
        throw new Error(`${c.id}: the event moved nothing`);
    }
    if (allocOnly) {
        time(op, 2000, 0);
        results.push({ case: c.id, bytesPerOp: await allocated(op, 1000) });
        continue;
    }
    const stats = time(op, Math.round(20000 * scale), Math.round(50000 * scale));
    results.push({ case: c.id, what: c.what, unit: events.length === 1 ? "transition" : `${events.length} transitions`,
        ...stats, bytesPerOp: null, value: snapshot.value });
}

if (allocOnly) {
    console.log(JSON.stringify(results));
    process.exit(0);
}

if (!args.includes("--no-alloc")) {
    const child = spawnSync(process.execPath,
        ["--expose-gc", "--min-semi-space-size=128", "--max-semi-space-size=128", fileURLToPath(import.meta.url), "--alloc-only",
            ...(only ? ["--only", [...only].join(",")] : [])],
        { encoding: "utf8", maxBuffer: 1 << 24 });
    if (child.status !== 0) {
        throw new Error(`the allocation pass failed: ${child.stderr}`);
    }
    for (const a of JSON.parse(child.stdout)) {
        results.find((r) => r.case === a.case).bytesPerOp = a.bytesPerOp;
    }
}

console.log(JSON.stringify({
    peer: "xstate",
    xstate: XSTATE_VERSION,
    node: process.version,
    quick,
    dtSeconds: DT,
    results,
}, null, 2));

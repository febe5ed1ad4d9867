// Bytes per machine instance on XState 5.33.3 (issue 14), the peer of MemoryPerMachine.java:
// the heap that 100,000 snapshots (initialTransition, as the step benchmarks keep one per
// entity) and 100,000 started actors (createActor(machine).start()) take, measured with
// process.memoryUsage().heapUsed after global.gc(), less the heap before.
//
//   node --expose-gc bench/peers/xstate/memory.mjs
import { createMachine, createActor, initialTransition } from "xstate";
import { createRequire } from "node:module";

const require = createRequire(import.meta.url);
const N = 100_000;

const FLAT3 = createMachine({
    id: "flat3",
    initial: "idle",
    states: { idle: { on: { GO: "walk" } }, walk: { on: { GO: "run" } }, run: { on: { GO: "idle" } } },
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

function used() {
    for (let i = 0; i < 4; i++) {
        global.gc();
    }
    return process.memoryUsage().heapUsed;
}

function per(make) {
    const warm = [];
    for (let i = 0; i < 1000; i++) {
        warm.push(make());
    }
    const keep = new Array(N);
    const before = used();
    for (let i = 0; i < N; i++) {
        keep[i] = make();
    }
    const after = used();
    const bytes = Math.round((after - before) / N);
    if (keep.length !== N || warm.length !== 1000) {
        throw new Error("lost");
    }
    return bytes;
}

if (typeof global.gc !== "function") {
    throw new Error("run with node --expose-gc");
}
const out = { xstate: require("xstate/package.json").version, node: process.version, n: N, bytesPerInstance: {} };
for (const [name, m] of [["flat 3-state", FLAT3], ["3-level guard", GUARD]]) {
    out.bytesPerInstance[`${name}: snapshot (initialTransition)`] = per(() => initialTransition(m)[0]);
    out.bytesPerInstance[`${name}: actor (createActor().start())`] = per(() => createActor(m).start());
}
console.log(JSON.stringify(out, null, 2));

// Random conformance trace generator; XState 5.33.3 is the oracle.
// Usage: node generate.mjs OUTDIR FIRST_SEED COUNT [WORKERS]
// Writes OUTDIR/gen-<seed>.json in the trace format of
// /work/shared/conformance/FORMAT.md. The same seed always gives the same file.
//
// Some random machines make XState loop forever (an onDone that leads back to
// an always chain reaching the same final state, ...). The oracle bounds XState's
// microsteps (maxIterations), so such a machine throws and another is drawn from
// the same PRNG stream. As a safety net each seed runs in a worker thread with a
// time limit; a seed that still hangs is redrawn with the next "variant" of its
// PRNG stream, so results stay reproducible.
import fs from 'node:fs';
import path from 'node:path';
import os from 'node:os';
import { Worker, isMainThread, parentPort } from 'node:worker_threads';
import { mulberry32, Rand, randomMachine, activeNodes, EVENT_TYPES, PROFILE_WEIGHTS } from './machinegen.mjs';
import { OracleRun } from './oracle.mjs';

const TIME_LIMIT_MS = 3000;
const XSTATE_VERSION = '5.33.3';

function streamSeed(seed, variant) {
  let h = Math.imul(seed ^ 0x5bd1e995, 0x9e3779b1) ^ Math.imul(variant + 1, 0x85ebca77);
  h ^= h >>> 16;
  h = Math.imul(h, 0x7feb352d);
  h ^= h >>> 15;
  return h >>> 0;
}

function randomEvent(r, type) {
  const ev = { type };
  const ok = r.weighted({ none: 0.48, yes: 0.45, no: 0.07 });
  if (ok === 'yes') ev.ok = true;
  else if (ok === 'no') ev.ok = false;
  return ev;
}

function handledTypes(root, value) {
  const types = new Set();
  for (const n of activeNodes(root, value)) for (const { event } of n.on) types.add(event);
  return [...types].sort();
}

function chooseEvent(r, machine, value) {
  const handled = handledTypes(machine.root, value);
  if (handled.length && r.chance(0.72)) return randomEvent(r, r.pick(handled));
  return randomEvent(r, r.pick(EVENT_TYPES));
}

/** How many leaves of a state value are final states (keys fin, fin2, ...). */
function finalLeaves(value) {
  if (typeof value === 'string') return value.startsWith('fin') ? 1 : 0;
  let n = 0;
  for (const v of Object.values(value)) n += finalLeaves(v);
  return n;
}

function sameValue(a, b) {
  return JSON.stringify(a) === JSON.stringify(b);
}

/** Builds one trace object for a seed (and variant), or throws. */
export function makeTrace(seed, variant) {
  const r = new Rand(mulberry32(streamSeed(seed, variant)));
  for (let attempt = 0; attempt < 100; attempt++) {
    const size = r.weighted({ small: 0.5, medium: 0.4, large: 0.1 });
    const profile = r.weighted(PROFILE_WEIGHTS);
    const machine = randomMachine(r, size, profile);
    const configJson = JSON.stringify(machine.config);
    let run;
    let initial;
    try {
      run = new OracleRun(JSON.parse(configJson), machine.guards);
      initial = run.start();
    } catch (e) {
      continue; // a config XState rejects: draw another
    }
    if (initial.status !== 'active') continue;
    const length = r.int(20, 40);
    const steps = [];
    let value = initial.value;
    const features = new Set(machine.features);
    let failed = false;
    for (let i = 0; i < length; i++) {
      let event = chooseEvent(r, machine, value);
      let peeked;
      try {
        peeked = run.peek(event);
        if (r.chance(0.25)) {
          // now and then prefer the event that puts the most final states in the value,
          // so that done events of compound and parallel states happen more often
          let best = finalLeaves(peeked.result.value);
          for (let k = 0; k < 3; k++) {
            const cand = chooseEvent(r, machine, value);
            const p = run.peek(cand);
            const score = finalLeaves(p.result.value);
            if (score > best) {
              best = score;
              event = cand;
              peeked = p;
            }
          }
        }
        if (i < 19) {
          // keep the machine running for at least 20 events when possible
          for (let tries = 0; tries < 16 && peeked.result.status === 'done'; tries++) {
            event = chooseEvent(r, machine, value);
            peeked = run.peek(event);
          }
        } else if (peeked.result.status !== 'done' && r.chance(0.5)) {
          // try to end the trace by reaching a top-level final state
          for (const type of r.shuffle(EVENT_TYPES)) {
            const cand = randomEvent(r, type);
            const p = run.peek(cand);
            if (p.result.status === 'done') {
              event = cand;
              peeked = p;
              break;
            }
          }
        }
      } catch (e) {
        failed = true;
        break;
      }
      const result = run.commit(peeked);
      if (event.ok === true) features.add('event_ok_true');
      if (event.ok === false) features.add('event_ok_false');
      if (!result.actions.length && sameValue(result.value, value)) features.add('event_unhandled');
      for (const a of result.actions) for (const t of machine.actionTags[a] || []) features.add(`fired_${t}`);
      steps.push({ event, value: result.value, status: result.status, actions: result.actions });
      value = result.value;
      if (result.status === 'done') {
        features.add('done_reached');
        break;
      }
    }
    if (failed) continue;
    for (const a of initial.actions) for (const t of machine.actionTags[a] || []) features.add(`fired_${t}`);
    if (machine.eventPool.length < EVENT_TYPES.length) features.add('event_never_handled');
    const name = `gen-${seed}`;
    return {
      name,
      seed,
      size,
      xstate: XSTATE_VERSION,
      machine: JSON.parse(configJson),
      guards: machine.guards,
      initial,
      steps,
      features: [...features].sort(),
    };
  }
  throw new Error(`seed ${seed}: no usable machine`);
}

/** JSON text in the corpus' style: nested objects indented, short leaves on one line. */
function formatTrace(trace) {
  const lines = ['{'];
  const keys = Object.keys(trace);
  keys.forEach((k, i) => {
    const comma = i < keys.length - 1 ? ',' : '';
    if (k === 'machine') {
      const body = JSON.stringify(trace.machine, null, 1).split('\n').join('\n ');
      lines.push(` "machine": ${body}${comma}`);
    } else if (k === 'steps') {
      lines.push(' "steps": [');
      trace.steps.forEach((s, j) => lines.push(`  ${JSON.stringify(s)}${j < trace.steps.length - 1 ? ',' : ''}`));
      lines.push(` ]${comma}`);
    } else {
      lines.push(` ${JSON.stringify(k)}: ${JSON.stringify(trace[k])}${comma}`);
    }
  });
  lines.push('}');
  return lines.join('\n') + '\n';
}

// ---------------------------------------------------------------- worker

if (!isMainThread) {
  parentPort.on('message', ({ seed, variant }) => {
    try {
      const trace = makeTrace(seed, variant);
      parentPort.postMessage({ seed, variant, text: formatTrace(trace) });
    } catch (e) {
      parentPort.postMessage({ seed, variant, error: String(e && e.stack ? e.stack : e) });
    }
  });
}

// ---------------------------------------------------------------- main

async function main() {
  const [outDir, firstArg, countArg, workersArg] = process.argv.slice(2);
  if (!outDir || firstArg === undefined || countArg === undefined) {
    console.error('usage: node generate.mjs OUTDIR FIRST_SEED COUNT [WORKERS]');
    process.exit(2);
  }
  const first = Number(firstArg);
  const count = Number(countArg);
  const nWorkers = Math.max(1, Number(workersArg) || Math.min(2, os.cpus().length));
  fs.mkdirSync(outDir, { recursive: true });

  const queue = [];
  for (let s = first; s < first + count; s++) queue.push({ seed: s, variant: 0 });
  let written = 0;
  let redrawn = 0;
  let errors = 0;

  await new Promise((resolve) => {
    let running = 0;
    const startWorker = () => {
      const w = new Worker(new URL(import.meta.url));
      const slot = { w, task: null, timer: null };
      const next = () => {
        const task = queue.shift();
        if (!task) {
          w.terminate();
          running--;
          if (running === 0) resolve();
          return;
        }
        slot.task = task;
        slot.timer = setTimeout(() => {
          // XState is looping on this machine: kill the worker, redraw the seed
          redrawn++;
          queue.unshift({ seed: task.seed, variant: task.variant + 1 });
          slot.timer = null;
          w.removeAllListeners('message');
          w.terminate();
          running--;
          running++;
          startWorker();
        }, TIME_LIMIT_MS);
        w.postMessage(task);
      };
      w.on('message', (msg) => {
        clearTimeout(slot.timer);
        if (msg.error) {
          errors++;
          console.error(`seed ${msg.seed}: ${msg.error}`);
        } else {
          fs.writeFileSync(path.join(outDir, `gen-${msg.seed}.json`), msg.text);
          written++;
        }
        next();
      });
      w.on('error', (e) => {
        console.error(`worker error: ${e}`);
      });
      next();
    };
    for (let i = 0; i < nWorkers; i++) {
      running++;
      startWorker();
    }
  });
  console.log(`${written} traces written to ${outDir} (${redrawn} seeds redrawn after a hang, ${errors} errors)`);
}

if (isMainThread) main();

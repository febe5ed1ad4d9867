// Shrinks a trace that our engine fails into a smaller one that it still fails.
// Usage: node shrink.mjs TRACE.json OUT.json "REPLAYER COMMAND"
// The replayer command gets a folder appended and must print "FAIL <name>: step N: expected {...}, got {...}"
// lines (as engine-states-testing's TraceReplayer does), e.g.
//   "java -cp <classpath> dev.enginestates.testing.conformance.TraceReplayer"
// Every candidate is re-run through XState (the oracle) to get its expected results, so each
// written trace is a valid trace; a candidate is kept when the engine still fails it in the
// same way (same step kind of mismatch: value, actions or status).
import fs from 'node:fs';
import path from 'node:path';
import os from 'node:os';
import { execSync } from 'node:child_process';
import { OracleRun } from './oracle.mjs';

const [inFile, outFile, replayer] = process.argv.slice(2);
if (!inFile || !outFile || !replayer) {
  console.error('usage: node shrink.mjs TRACE.json OUT.json "REPLAYER COMMAND"');
  process.exit(2);
}

const clone = (x) => JSON.parse(JSON.stringify(x));

/** Expected results from XState, or null when XState rejects the config or loops. */
function oracle(machine, guards, events) {
  try {
    const run = new OracleRun(clone(machine), guards);
    run.machine.options.maxIterations = 500;
    const initial = run.start();
    const steps = [];
    if (initial.status === 'active') {
      for (const event of events) {
        const r = run.send(event);
        steps.push({ event, ...r });
        if (r.status === 'done') break;
      }
    }
    return { initial, steps };
  } catch (e) {
    return null;
  }
}

// ------------------------------------------------------------- config helpers

function nodesOf(machine) {
  const out = [];
  const walk = (cfg, pathKeys, parent) => {
    const n = { cfg, path: pathKeys, parent, children: [] };
    out.push(n);
    if (parent) parent.children.push(n);
    for (const [k, c] of Object.entries(cfg.states || {})) walk(c, [...pathKeys, k], n);
  };
  walk(machine, [], null);
  return out;
}

function resolveTarget(nodes, src, t) {
  const byPath = (base, parts) => {
    let n = base;
    for (const p of parts) {
      n = n && n.children.find((c) => c.path[c.path.length - 1] === p);
    }
    return n || null;
  };
  const root = nodes[0];
  if (t.startsWith('#')) {
    const [id, ...rest] = t.slice(1).split('.');
    const base = id === root.cfg.id ? root : nodes.find((n) => n.parent && n.cfg.id === id);
    return base ? byPath(base, rest) : null;
  }
  if (t.startsWith('.')) return byPath(src, t.slice(1).split('.'));
  return src.parent ? byPath(src.parent, t.split('.')) : null;
}

const asList = (x) => (x === undefined ? [] : Array.isArray(x) ? x : [x]);
const targetsOf = (c) => (typeof c === 'string' ? [c] : asList(c.target));

function inside(n, anc) {
  for (let x = n; x; x = x.parent) if (x === anc) return true;
  return false;
}

/** Removes every transition candidate with a target in `gone` (a predicate on resolved nodes). */
function dropTransitionsTo(machine, gone) {
  const nodes = nodesOf(machine);
  for (const n of nodes) {
    const keep = (c) => targetsOf(c).every((t) => {
      const r = resolveTarget(nodes, n, t);
      return r && !gone(r);
    });
    const fix = (spec) => {
      if (spec === undefined) return undefined;
      if (Array.isArray(spec)) {
        const k = spec.filter(keep);
        return k.length ? k : undefined;
      }
      return keep(spec) ? spec : undefined;
    };
    if (n.cfg.on) {
      for (const ev of Object.keys(n.cfg.on)) {
        const f = fix(n.cfg.on[ev]);
        if (f === undefined) delete n.cfg.on[ev];
        else n.cfg.on[ev] = f;
      }
      if (!Object.keys(n.cfg.on).length) delete n.cfg.on;
    }
    for (const k of ['always', 'onDone']) {
      if (n.cfg[k] !== undefined) {
        const f = fix(n.cfg[k]);
        if (f === undefined) delete n.cfg[k];
        else n.cfg[k] = f;
      }
    }
    if (n.cfg.type === 'history' && n.cfg.target) {
      const r = resolveTarget(nodes, n.parent, n.cfg.target.startsWith('#') ? n.cfg.target : n.cfg.target);
      // history targets resolve from the history's parent
      let rr = n.cfg.target.startsWith('#') ? r : null;
      if (!n.cfg.target.startsWith('#')) {
        let x = n.parent;
        for (const p of n.cfg.target.split('.')) x = x && x.children.find((c) => c.path[c.path.length - 1] === p);
        rr = x || null;
      }
      if (!rr || gone(rr)) delete n.cfg.target;
    }
  }
}

const isNormal = (cfg) => cfg.type !== 'final' && cfg.type !== 'history';

/** Removes state at node index i (not the root); returns the new machine or null. */
function removeState(machine, i) {
  const m = clone(machine);
  const nodes = nodesOf(m);
  const victim = nodes[i];
  if (!victim.parent) return null;
  dropTransitionsTo(m, (r) => inside(r, victim));
  // dropTransitionsTo works on a fresh node list; find the victim again by path
  const again = nodesOf(m).find((n) => n.path.join('.') === victim.path.join('.'));
  const parentCfg = again.parent.cfg;
  const key = again.path[again.path.length - 1];
  delete parentCfg.states[key];
  const left = Object.entries(parentCfg.states);
  const normals = left.filter(([, c]) => isNormal(c));
  if (parentCfg.type === 'parallel') {
    if (!normals.length) {
      delete parentCfg.type;
      delete parentCfg.states;
      delete parentCfg.onDone;
    }
  } else if (!normals.length) {
    if (!again.parent.parent && left.length) return null; // root keeps a normal child
    // compound with no normal child left: becomes atomic
    const parentPath = again.parent.path.join('.');
    dropTransitionsTo(m, (r) => r.path.join('.').startsWith(parentPath ? parentPath + '.' : '') && r.path.length > again.parent.path.length);
    delete parentCfg.states;
    delete parentCfg.initial;
    delete parentCfg.onDone;
    if (!again.parent.parent) return null;
  } else if (parentCfg.initial === key) {
    parentCfg.initial = normals[0][0];
  }
  return m;
}

function* candidates(trace) {
  const { machine, events } = trace;
  // fewer events
  for (let k = events.length - 1; k >= 0; k--) yield { machine, events: events.filter((_, j) => j !== k) };
  // fewer states (bigger subtrees first)
  const nodes = nodesOf(machine);
  const order = nodes.map((n, i) => i).slice(1).sort((a, b) => JSON.stringify(nodes[b].cfg).length - JSON.stringify(nodes[a].cfg).length);
  for (const i of order) {
    const m = removeState(machine, i);
    if (m) yield { machine: m, events };
  }
  // fewer transitions
  for (let i = 0; i < nodes.length; i++) {
    const n = nodes[i];
    for (const ev of Object.keys(n.cfg.on || {})) {
      const m = clone(machine);
      const c = nodesOf(m)[i].cfg;
      delete c.on[ev];
      if (!Object.keys(c.on).length) delete c.on;
      yield { machine: m, events };
      const spec = n.cfg.on[ev];
      if (Array.isArray(spec)) {
        for (let k = 0; k < spec.length; k++) {
          const m2 = clone(machine);
          const c2 = nodesOf(m2)[i].cfg;
          c2.on[ev] = spec.length === 2 ? clone(spec[1 - k]) : spec.filter((_, j) => j !== k);
          yield { machine: m2, events };
        }
      }
    }
    for (const k of ['always', 'onDone']) {
      if (n.cfg[k] === undefined) continue;
      const m = clone(machine);
      delete nodesOf(m)[i].cfg[k];
      yield { machine: m, events };
      if (Array.isArray(n.cfg[k])) {
        for (let j = 0; j < n.cfg[k].length; j++) {
          const m2 = clone(machine);
          const c2 = nodesOf(m2)[i].cfg;
          c2[k] = n.cfg[k].length === 2 ? clone(n.cfg[k][1 - j]) : n.cfg[k].filter((_, x) => x !== j);
          yield { machine: m2, events };
        }
      }
    }
  }
  // simpler pieces: actions, ids, guards, reenter, event flags
  for (let i = 0; i < nodes.length; i++) {
    for (const k of ['entry', 'exit', 'id', 'target']) {
      if (nodes[i].cfg[k] === undefined || (k === 'id' && i === 0)) continue;
      if (k === 'target' && nodes[i].cfg.type !== 'history') continue;
      const m = clone(machine);
      delete nodesOf(m)[i].cfg[k];
      yield { machine: m, events };
    }
    const cfg = nodes[i].cfg;
    if (cfg.type === 'history' && cfg.history !== 'deep' && cfg.history !== undefined) {
      const m = clone(machine);
      delete nodesOf(m)[i].cfg.history;
      yield { machine: m, events };
    }
    const specSlots = [];
    for (const ev of Object.keys(cfg.on || {})) specSlots.push(['on', ev]);
    if (cfg.always) specSlots.push(['always']);
    if (cfg.onDone) specSlots.push(['onDone']);
    for (const slot of specSlots) {
      const get = (c) => (slot[0] === 'on' ? c.on[slot[1]] : c[slot[0]]);
      const list = asList(get(cfg));
      for (let j = 0; j < list.length; j++) {
        const t = list[j];
        if (typeof t !== 'object') continue;
        for (const k of ['actions', 'guard', 'reenter']) {
          if (t[k] === undefined) continue;
          const m = clone(machine);
          const c = nodesOf(m)[i].cfg;
          const spec = get(c);
          const obj = Array.isArray(spec) ? spec[j] : spec;
          delete obj[k];
          yield { machine: m, events };
        }
        if (Array.isArray(t.target) && t.target.length > 1) {
          for (let x = 0; x < t.target.length; x++) {
            const m = clone(machine);
            const spec = get(nodesOf(m)[i].cfg);
            const obj = Array.isArray(spec) ? spec[j] : spec;
            obj.target = t.target.length === 2 ? t.target[1 - x] : t.target.filter((_, y) => y !== x);
            yield { machine: m, events };
          }
        }
      }
    }
  }
  for (let k = 0; k < events.length; k++) {
    if (events[k].ok !== undefined) {
      const ev2 = clone(events);
      delete ev2[k].ok;
      yield { machine, events: ev2 };
    }
  }
}

function usedGuards(machine, guards) {
  const text = JSON.stringify(machine);
  const out = {};
  for (const [k, v] of Object.entries(guards)) if (text.includes(`"${k}"`)) out[k] = v;
  return out;
}

function toTrace(base, cand, result) {
  return {
    name: base.name,
    seed: base.seed,
    size: base.size,
    xstate: base.xstate,
    machine: cand.machine,
    guards: usedGuards(cand.machine, base.guards),
    initial: result.initial,
    steps: result.steps,
    features: [],
  };
}

/** Runs the replayer on a folder; returns map name -> signature of the first mismatch. */
function replay(dir) {
  let out = '';
  try {
    out = execSync(`${replayer} ${dir}`, { encoding: 'utf8', maxBuffer: 1 << 28, stdio: ['ignore', 'pipe', 'pipe'] });
  } catch (e) {
    out = e.stdout || '';
  }
  const res = new Map();
  for (const line of out.split('\n')) {
    const m = /^FAIL (\S+?): (.*)$/.exec(line);
    if (m) {
      const st = /^step (\d+):/.exec(m[2]);
      res.set(m[1], { sig: signature(m[2]), step: st ? Number(st[1]) : -1 });
    }
  }
  return res;
}

function signature(msg) {
  const m = /expected (\{.*\}), got (\{.*\})$/.exec(msg);
  if (!m) return msg.replace(/[0-9]+/g, 'N').slice(0, 60);
  try {
    const e = JSON.parse(m[1]);
    const g = JSON.parse(m[2]);
    const parts = [];
    if (JSON.stringify(sortKeys(e.value)) !== JSON.stringify(sortKeys(g.value))) parts.push('value');
    if (e.status !== g.status) parts.push('status');
    if (JSON.stringify(e.actions) !== JSON.stringify(g.actions)) parts.push('actions');
    return parts.join('+');
  } catch {
    return 'unparsed';
  }
}

function sortKeys(v) {
  if (!v || typeof v !== 'object') return v;
  return Object.fromEntries(Object.keys(v).sort().map((k) => [k, sortKeys(v[k])]));
}

const original = JSON.parse(fs.readFileSync(inFile, 'utf8'));
let current = { machine: original.machine, events: original.steps.map((s) => s.event) };
const work = fs.mkdtempSync(path.join(os.tmpdir(), 'shrink-'));
const first = path.join(work, 'orig');
fs.mkdirSync(first);
fs.writeFileSync(path.join(first, 'c.json'), JSON.stringify({ ...original, name: 'c' }));
const firstRun = replay(first).get('c');
const target = firstRun && firstRun.sig;
if (!target) {
  console.error('the engine passes this trace: nothing to shrink');
  process.exit(1);
}
console.error(`failure kind: ${target}`);
current.events = current.events.slice(0, firstRun.step + 1);
let best = toTrace(original, current, oracle(current.machine, original.guards, current.events));
const BATCH = 60;
for (let round = 0; round < 200; round++) {
  // truncate events to the first failing step
  let improved = false;
  const gen = candidates(current);
  let done = false;
  while (!done && !improved) {
    const batchDir = path.join(work, `r${round}-${Math.random().toString(36).slice(2, 8)}`);
    fs.mkdirSync(batchDir);
    const batch = [];
    while (batch.length < BATCH) {
      const n = gen.next();
      if (n.done) {
        done = true;
        break;
      }
      const cand = n.value;
      const res = oracle(cand.machine, original.guards, cand.events);
      if (!res) continue;
      const name = `c${String(batch.length).padStart(3, '0')}`;
      const t = toTrace(original, cand, res);
      t.name = name;
      fs.writeFileSync(path.join(batchDir, `${name}.json`), JSON.stringify(t));
      batch.push({ name, cand, trace: t });
    }
    if (!batch.length) break;
    const fails = replay(batchDir);
    for (const b of batch) {
      const f = fails.get(b.name);
      if (f && f.sig === target) {
        current = { machine: b.cand.machine, events: b.trace.steps.map((s) => s.event).slice(0, f.step + 1) };
        best = toTrace(original, current, oracle(current.machine, original.guards, current.events));
        improved = true;
        break;
      }
    }
    fs.rmSync(batchDir, { recursive: true, force: true });
  }
  const size = JSON.stringify(current.machine).length;
  console.error(`round ${round}: ${improved ? 'smaller' : 'no change'} (config ${size} chars, ${current.events.length} events)`);
  if (!improved) break;
}
best.name = path.basename(outFile, '.json');
fs.writeFileSync(outFile, JSON.stringify(best, null, 1) + '\n');
fs.rmSync(work, { recursive: true, force: true });
console.error(`written ${outFile}`);

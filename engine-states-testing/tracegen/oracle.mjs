// Runs a machine config through the real XState (the oracle) with its pure
// functions initialTransition / transition, and reports value, status and the
// names of the executed actions declared in the config.
import { setup, initialTransition, transition } from 'xstate';

/** Every action name declared in the config (entry, exit, transition actions). */
export function declaredActions(config) {
  const names = new Set();
  const addList = (x) => {
    if (x === undefined) return;
    for (const n of Array.isArray(x) ? x : [x]) if (typeof n === 'string') names.add(n);
  };
  const addSpec = (spec) => {
    if (spec === undefined) return;
    for (const c of Array.isArray(spec) ? spec : [spec]) {
      if (c && typeof c === 'object') addList(c.actions);
    }
  };
  const walk = (node) => {
    addList(node.entry);
    addList(node.exit);
    if (node.on) for (const spec of Object.values(node.on)) addSpec(spec);
    addSpec(node.always);
    addSpec(node.onDone);
    if (node.states) for (const child of Object.values(node.states)) walk(child);
  };
  walk(config);
  return names;
}

export function buildMachine(config, guardValues) {
  const guards = {};
  for (const [name, value] of Object.entries(guardValues)) guards[name] = () => value;
  guards.evFlag = ({ event }) => event.ok === true;
  return setup({ guards }).createMachine(config);
}

function report(snapshot, actions, declared) {
  return {
    value: snapshot.value,
    status: snapshot.status,
    actions: actions.map((a) => a.type).filter((t) => declared.has(t)),
  };
}

/** A stepping session over one machine: start() then send(event) repeatedly. */
export class OracleRun {
  constructor(config, guardValues) {
    this.machine = buildMachine(config, guardValues);
    // a machine whose eventless transitions and done events never settle makes XState loop
    // forever; with a bound it throws instead (runtime option, not part of the config)
    this.machine.options.maxIterations = 1000;
    this.declared = declaredActions(config);
    this.snapshot = null;
  }
  start() {
    const [snapshot, actions] = initialTransition(this.machine);
    this.snapshot = snapshot;
    return report(snapshot, actions, this.declared);
  }
  /** Result of sending event from the current snapshot, without committing it. */
  peek(event) {
    const [snapshot, actions] = transition(this.machine, this.snapshot, event);
    return { snapshot, result: report(snapshot, actions, this.declared) };
  }
  commit(peeked) {
    this.snapshot = peeked.snapshot;
    return peeked.result;
  }
  send(event) {
    return this.commit(this.peek(event));
  }
}

/** Deep equality of JSON values, ignoring key order in objects. */
export function jsonEqual(a, b) {
  if (a === b) return true;
  if (typeof a !== typeof b || a === null || b === null || typeof a !== 'object') return false;
  if (Array.isArray(a) !== Array.isArray(b)) return false;
  if (Array.isArray(a)) return a.length === b.length && a.every((x, i) => jsonEqual(x, b[i]));
  const ka = Object.keys(a), kb = Object.keys(b);
  return ka.length === kb.length && ka.every((k) => Object.prototype.hasOwnProperty.call(b, k) && jsonEqual(a[k], b[k]));
}

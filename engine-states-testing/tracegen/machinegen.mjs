// Random statechart configs in the XState subset described by
// /work/shared/conformance/FORMAT.md. Everything is drawn from the PRNG passed
// in, so a seed always gives the same machine.

export function mulberry32(seed) {
  let a = seed >>> 0;
  return function next() {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** Small helper around a PRNG function. */
export class Rand {
  constructor(next) {
    this.next = next;
  }
  chance(p) {
    return this.next() < p;
  }
  int(lo, hi) {
    return lo + Math.floor(this.next() * (hi - lo + 1));
  }
  pick(arr) {
    return arr[Math.floor(this.next() * arr.length)];
  }
  /** Picks a key of {key: weight}, weights >= 0. */
  weighted(table) {
    const entries = Object.entries(table).filter(([, w]) => w > 0);
    let total = 0;
    for (const [, w] of entries) total += w;
    let r = this.next() * total;
    for (const [k, w] of entries) {
      r -= w;
      if (r < 0) return k;
    }
    return entries[entries.length - 1][0];
  }
  shuffle(arr) {
    const a = arr.slice();
    for (let i = a.length - 1; i > 0; i--) {
      const j = Math.floor(this.next() * (i + 1));
      [a[i], a[j]] = [a[j], a[i]];
    }
    return a;
  }
}

export const SIZES = { small: [4, 12], medium: [12, 30], large: [40, 80] };
export const EVENT_TYPES = ['E0', 'E1', 'E2', 'E3', 'E4', 'E5', 'E6', 'E7'];
// Generation profiles: the base one, plus a few that push one area harder.
const BASE = {
  maxDepth: 4,
  rootParallel: 0.1,
  ops: { compound: 0.62, parallel: 0.22, widen: 0.16 },
  pFinal: 0.5,
  pHistory: 0.3,
  regionFinal: 0.65,
  regionHistory: 0.15,
  parallelHistory: 0.1,
  targets: { self: 0.8, sibling: 2.4, descendant: 1.0, ancestor: 0.8, far: 2.0, history: 0.8, final: 1.0 },
  ownHistory: 0.3,
  multi: 0.07,
  targetless: 0.14,
  pAlways: 0.09,
  pOnDone: 0.6,
  rootOnDone: 0.3,
};
export const PROFILES = {
  base: BASE,
  parallel: { ...BASE, rootParallel: 0.35, ops: { compound: 0.45, parallel: 0.45, widen: 0.1 }, parallelHistory: 0.35, regionHistory: 0.35, multi: 0.16 },
  history: { ...BASE, pHistory: 0.7, regionHistory: 0.5, parallelHistory: 0.3, targets: { ...BASE.targets, history: 3 }, ownHistory: 0.6 },
  eventless: { ...BASE, pAlways: 0.3, pOnDone: 0.9, rootOnDone: 0.5, pFinal: 0.8, regionFinal: 0.9, targets: { ...BASE.targets, final: 2.5 } },
  deep: { ...BASE, maxDepth: 5 },
};
export const PROFILE_WEIGHTS = { base: 0.55, parallel: 0.15, history: 0.15, eventless: 0.1, deep: 0.05 };
const LETTERS = 'abcdefghijklmnopqrstuvwxyz';

// ---------------------------------------------------------------- tree

class Node {
  constructor(kind, parent) {
    this.kind = kind; // 'atomic' | 'compound' | 'parallel' | 'final' | 'history'
    this.parent = parent;
    this.children = [];
    this.key = null;
    this.id = null; // explicit id
    this.history = null; // for history nodes: config value of `history` (or undefined)
    this.deep = false;
    this.historyTarget = null; // string
    this.initial = null; // key
    this.entry = [];
    this.exit = [];
    this.on = []; // [{event, spec}]
    this.always = null;
    this.onDone = null;
    this.entryForm = 'array';
    this.exitForm = 'array';
  }
  get depth() {
    let d = 0;
    for (let n = this.parent; n; n = n.parent) d++;
    return d;
  }
  get path() {
    const p = [];
    for (let n = this; n.parent; n = n.parent) p.unshift(n.key);
    return p;
  }
  get isNormal() {
    return this.kind === 'atomic' || this.kind === 'compound' || this.kind === 'parallel';
  }
  isAncestorOf(other) {
    for (let n = other.parent; n; n = n.parent) if (n === this) return true;
    return false;
  }
}

function nameChildren(node) {
  let letter = 0;
  let fin = 0;
  let hist = 0;
  for (const c of node.children) {
    if (c.kind === 'final') c.key = fin++ === 0 ? 'fin' : `fin${fin}`;
    else if (c.kind === 'history') c.key = hist++ === 0 ? 'h' : `h${hist}`;
    else c.key = LETTERS[letter++];
  }
}

/** Gives node children: `normal` atomic ones plus finals and histories at random places. */
function populate(r, node, normal, finals, histories) {
  const kinds = [];
  for (let i = 0; i < normal; i++) kinds.push('atomic');
  for (let i = 0; i < finals; i++) kinds.push('final');
  for (let i = 0; i < histories; i++) kinds.push('history');
  // normal children keep their relative order; specials land anywhere
  const order = r.shuffle(kinds);
  node.children = order.map((k) => new Node(k, node));
  nameChildren(node);
}

function specialCounts(r, pFinal, pHistory) {
  let finals = r.chance(pFinal) ? 1 : 0;
  if (finals && r.chance(0.12)) finals = 2;
  let histories = r.chance(pHistory) ? 1 : 0;
  if (histories && r.chance(0.15)) histories = 2;
  return [finals, histories];
}

function makeCompound(r, prof, node, maxNormal) {
  node.kind = 'compound';
  const normal = r.int(2, Math.max(2, maxNormal));
  const [finals, histories] = specialCounts(r, prof.pFinal, prof.pHistory);
  populate(r, node, normal, finals, histories);
}

function makeParallel(r, prof, node) {
  node.kind = 'parallel';
  const regions = r.chance(0.78) ? 2 : 3;
  const histories = r.chance(prof.parallelHistory) ? 1 : 0;
  const kinds = [];
  for (let i = 0; i < regions; i++) kinds.push('compound');
  for (let i = 0; i < histories; i++) kinds.push('history');
  node.children = r.shuffle(kinds).map((k) => new Node(k, node));
  nameChildren(node);
  for (const region of node.children) {
    if (region.kind !== 'compound') continue;
    const [finals, hs] = specialCounts(r, prof.regionFinal, prof.regionHistory);
    populate(r, region, r.int(2, 3), finals, hs);
  }
}

function allNodes(root) {
  const out = [];
  const walk = (n) => {
    out.push(n);
    for (const c of n.children) walk(c);
  };
  walk(root);
  return out;
}

function buildTree(r, prof, size) {
  const [lo, hi] = SIZES[size];
  const goal = r.int(lo, hi);
  const root = new Node('compound', null);
  if (r.chance(prof.rootParallel)) {
    makeParallel(r, prof, root);
  } else {
    const normal = r.int(2, size === 'small' ? 3 : 4);
    const finals = r.chance(prof.pFinal + 0.05) ? 1 : 0;
    populate(r, root, normal, finals, 0);
    root.kind = 'compound';
  }
  const count = () => allNodes(root).length - 1;
  for (let guard = 0; guard < 500 && count() < goal; guard++) {
    const room = hi - count();
    const atomics = allNodes(root).filter((n) => n.kind === 'atomic' && n.depth < prof.maxDepth);
    const compounds = allNodes(root).filter((n) => n.kind === 'compound');
    const op = r.weighted(prof.ops);
    if (op === 'widen' || atomics.length === 0) {
      const c = r.pick(compounds);
      if (!c || room < 1) break;
      const child = new Node('atomic', c);
      const normals = c.children.filter((x) => x.isNormal).length;
      if (normals >= LETTERS.length) continue;
      c.children.splice(r.int(0, c.children.length), 0, child);
      // keep letters in order of position
      nameChildren(c);
      continue;
    }
    const target = r.pick(atomics);
    if (op === 'parallel' && room >= 6 && target.depth <= prof.maxDepth - 2) {
      makeParallel(r, prof, target);
    } else if (room >= 2) {
      makeCompound(r, prof, target, Math.min(4, room));
    } else break;
    // trim if overshooting hi
    if (count() > hi) {
      target.kind = 'atomic';
      target.children = [];
    }
  }
  return root;
}

// ---------------------------------------------------------------- config

function docIndex(root) {
  const nodes = allNodes(root);
  nodes.forEach((n, i) => {
    n.idx = i;
  });
  for (const n of nodes) {
    let end = n.idx + 1;
    const last = (x) => (x.children.length ? last(x.children[x.children.length - 1]) : x);
    end = last(n).idx + 1;
    n.end = end; // subtree = [idx, end)
  }
  return nodes;
}

function lca(a, b) {
  const anc = new Set();
  for (let n = a; n; n = n.parent) anc.add(n);
  for (let n = b; n; n = n.parent) if (anc.has(n)) return n;
  return null;
}

/** The target-string forms that name `t` from a transition defined on `s`. */
function targetSyntaxes(s, t, machineId) {
  const forms = [];
  const tp = t.path;
  if (s.parent) {
    const pp = s.parent.path;
    const below = tp.length > pp.length && pp.every((k, i) => tp[i] === k);
    if (below) {
      const rel = tp.slice(pp.length);
      if (rel.length === 1) forms.push(['syn_sibling', rel[0]]);
      else forms.push(['syn_dotted', rel.join('.')]);
    }
  }
  if (s.isAncestorOf(t)) {
    const rel = tp.slice(s.path.length);
    if (rel.length === 1) forms.push(['syn_dot_child', '.' + rel[0]]);
    else forms.push(['syn_dot_path', '.' + rel.join('.')]);
  }
  if (t.id) forms.push(['syn_id', '#' + t.id]);
  for (let a = t.parent; a && a.parent; a = a.parent) {
    if (a.id) forms.push(['syn_id_path', '#' + a.id + '.' + tp.slice(a.path.length).join('.')]);
  }
  forms.push(['syn_default_id', '#' + [machineId, ...tp].join('.')]);
  return forms;
}

function chooseSyntax(r, s, t, machineId, tags) {
  const forms = targetSyntaxes(s, t, machineId);
  // prefer the short relative forms a bit
  const weights = forms.map(([tag]) => (tag === 'syn_default_id' ? 1 : tag === 'syn_id_path' ? 1 : 1.6));
  let total = weights.reduce((x, y) => x + y, 0);
  let x = r.next() * total;
  let i = 0;
  for (; i < forms.length - 1; i++) {
    x -= weights[i];
    if (x < 0) break;
  }
  tags.add(forms[i][0]);
  return forms[i][1];
}

function relationTag(s, t) {
  if (s === t) return 'self';
  if (s.parent && t.parent === s.parent) return 'sibling';
  if (s.isAncestorOf(t)) return 'descendant';
  if (t.isAncestorOf(s)) return 'ancestor';
  return 'far';
}

class ConfigBuilder {
  constructor(r, prof, root, size) {
    this.r = r;
    this.prof = prof;
    this.root = root;
    this.size = size;
    this.machineId = r.pick(['m', 'mach', 'sc']);
    this.nodes = docIndex(root);
    this.nextAction = 0;
    this.actionTags = {}; // action name -> tags of its transition
    this.features = new Set();
    this.guardNames = [];
    const nGuards = r.int(2, 4);
    this.guards = {};
    for (let i = 0; i < nGuards; i++) {
      this.guardNames.push(`g${i}`);
      this.guards[`g${i}`] = r.chance(0.5);
    }
    // event types that some state handles; at least one type is never handled
    const pool = r.shuffle(EVENT_TYPES);
    this.eventPool = pool.slice(0, r.int(5, 7)).sort();
  }

  actionsFor(tags) {
    const r = this.r;
    const n = r.weighted({ 0: 0.22, 1: 0.53, 2: 0.25 });
    const names = [];
    for (let i = 0; i < Number(n); i++) names.push(`t${this.nextAction++}`);
    for (const a of names) this.actionTags[a] = tags;
    return names;
  }

  guardFor(allowNone) {
    const r = this.r;
    const k = r.weighted({ none: allowNone ? 1 : 0, named: 1, evFlag: 1 });
    if (k === 'named') return r.pick(this.guardNames);
    if (k === 'evFlag') return { type: 'evFlag' };
    return undefined;
  }

  /** Candidates for a plain target of a transition on `s`. */
  pickTarget(s) {
    const r = this.r;
    const nodes = this.nodes;
    const isRoot = !s.parent;
    const all = nodes.filter((n) => n !== this.root);
    const byRel = {
      self: isRoot ? [] : [s],
      sibling: isRoot ? [] : s.parent.children.filter((c) => c !== s && c.kind !== 'history'),
      descendant: all.filter((n) => s.isAncestorOf(n) && n.kind !== 'history'),
      ancestor: all.filter((n) => n.isAncestorOf(s)),
      far: all.filter((n) => n !== s && !n.isAncestorOf(s) && !s.isAncestorOf(n) && n.parent !== s.parent && n.kind !== 'history'),
      history: all.filter((n) => n.kind === 'history'),
      final: all.filter((n) => n.kind === 'final'),
    };
    const weights = this.prof.targets;
    const rel = r.weighted(Object.fromEntries(Object.entries(weights).filter(([k]) => byRel[k].length)));
    if (!rel) return null;
    if (rel === 'history') {
      // histories of the source's own ancestors: entering them may re-enter the source itself
      const own = byRel.history.filter((h) => h.parent === s || h.parent.isAncestorOf(s));
      if (own.length && r.chance(this.prof.ownHistory)) return r.pick(own);
    }
    return r.pick(byRel[rel]);
  }

  /** A multi-target: nodes in 2-3 different regions of one parallel state. */
  pickMultiTarget() {
    const r = this.r;
    const pars = this.nodes.filter((n) => n.kind === 'parallel');
    if (!pars.length) return null;
    const p = r.pick(pars);
    const regions = r.shuffle(p.children.filter((c) => c.kind !== 'history'));
    const k = Math.min(regions.length, r.chance(0.8) ? 2 : 3);
    const chosen = regions.slice(0, k).sort((a, b) => a.idx - b.idx);
    return chosen.map((region) => {
      const inside = this.nodes.filter((n) => region.isAncestorOf(n) && n.kind !== 'history');
      if (!inside.length || r.chance(0.08)) return region;
      return r.pick(inside);
    });
  }

  /** One candidate transition (object or string) for `on` of state s. */
  transition(s, { guarded, allowString }) {
    const r = this.r;
    const tags = new Set(s.parent ? ['on'] : ['on', 'root_on']);
    const kind = r.weighted({ targetless: this.prof.targetless, single: 0.79, multi: this.nodes.some((n) => n.kind === 'parallel') ? this.prof.multi : 0 });
    const t = {};
    let targets = null;
    if (kind === 'single') {
      const tgt = this.pickTarget(s);
      if (tgt) targets = [tgt];
    } else if (kind === 'multi') {
      targets = this.pickMultiTarget();
      if (targets) tags.add('multi_target');
    }
    if (targets) {
      const strs = targets.map((x) => chooseSyntax(r, s, x, this.machineId, tags));
      for (const x of targets) {
        tags.add(relationTag(s, x));
        if (x.kind === 'history') tags.add('to_history');
        if (x.kind === 'final') tags.add('to_final');
      }
      t.target = strs.length === 1 ? strs[0] : strs;
    } else {
      tags.add('targetless');
    }
    if (guarded) {
      t.guard = this.guardFor(false);
      tags.add(typeof t.guard === 'string' ? 'guard_named' : 'guard_evFlag');
    }
    if (allowString && targets && targets.length === 1 && !guarded && r.chance(0.25)) {
      tags.add('string_shorthand');
      return { spec: t.target, tags };
    }
    if (targets && r.chance(0.16)) {
      t.reenter = true;
      tags.add('reenter');
    }
    const actions = targets || r.chance(0.9) ? this.actionsFor(tags) : [];
    if (actions.length) t.actions = actions.length === 1 && r.chance(0.35) ? actions[0] : actions;
    // put keys in a stable, natural order
    const out = {};
    for (const k of ['target', 'guard', 'actions', 'reenter']) if (k in t) out[k] = t[k];
    return { spec: out, tags };
  }

  transitionSpec(s) {
    const r = this.r;
    const shape = r.weighted({ single: 0.68, array: 0.32 });
    if (shape === 'single') {
      const { spec, tags } = this.transition(s, { guarded: r.chance(0.3), allowString: true });
      for (const t of tags) this.features.add(t);
      return spec;
    }
    const n = r.int(2, 3);
    const out = [];
    for (let i = 0; i < n; i++) {
      const last = i === n - 1;
      const guarded = !last || r.chance(0.55);
      const { spec, tags } = this.transition(s, { guarded, allowString: !guarded });
      tags.add('guarded_array');
      for (const t of tags) this.features.add(t);
      out.push(spec);
    }
    return out;
  }

  /** always targets: after the source's whole subtree, not crossing regions, no history. */
  alwaysCandidates(s) {
    return this.nodes.filter((t) => {
      if (t.idx < s.end || t.kind === 'history') return false;
      const l = lca(s, t);
      return l.kind !== 'parallel';
    });
  }

  alwaysSpec(s) {
    const r = this.r;
    const cands = this.alwaysCandidates(s);
    if (!cands.length) return undefined;
    const one = (guarded) => {
      const tags = new Set(['always']);
      const tgt = r.pick(cands);
      const t = { target: chooseSyntax(r, s, tgt, this.machineId, tags) };
      tags.add(relationTag(s, tgt));
      if (tgt.kind === 'final') tags.add('to_final');
      if (guarded) {
        t.guard = r.chance(0.55) ? { type: 'evFlag' } : r.pick(this.guardNames);
        tags.add(typeof t.guard === 'string' ? 'always_named' : 'always_evFlag');
      } else tags.add('always_unguarded');
      const actions = this.actionsFor(tags);
      if (actions.length) t.actions = actions.length === 1 && r.chance(0.3) ? actions[0] : actions;
      return { t, tags };
    };
    if (r.chance(0.35)) {
      const n = 2;
      const arr = [];
      for (let i = 0; i < n; i++) {
        const { t, tags } = one(i < n - 1 || r.chance(0.6));
        tags.add('always_array');
        for (const x of tags) this.features.add(x);
        arr.push(t);
      }
      return arr;
    }
    const { t, tags } = one(r.chance(0.75));
    for (const x of tags) this.features.add(x);
    return t;
  }

  onDoneSpec(s) {
    const r = this.r;
    const tags = new Set([s.parent ? (s.kind === 'parallel' ? 'onDone_parallel' : 'onDone_compound') : 'onDone_root']);
    const t = {};
    if (r.chance(0.7)) {
      const all = this.nodes.filter((n) => n !== this.root);
      let tgt;
      if (r.chance(0.75)) {
        const after = all.filter((n) => n.idx >= s.end && n.kind !== 'history');
        tgt = after.length ? r.pick(after) : null;
      }
      if (!tgt) tgt = this.pickTarget(s);
      if (tgt) {
        t.target = chooseSyntax(r, s, tgt, this.machineId, tags);
        tags.add(relationTag(s, tgt));
        if (tgt.kind === 'history') tags.add('to_history');
        if (tgt.kind === 'final') tags.add('to_final');
        if (r.chance(0.15)) {
          t.reenter = true;
          tags.add('reenter');
        }
      }
    }
    if (r.chance(0.15)) {
      t.guard = this.guardFor(false);
    }
    const actions = this.actionsFor(tags);
    if (actions.length) t.actions = actions.length === 1 && r.chance(0.3) ? actions[0] : actions;
    for (const x of tags) this.features.add(x);
    const out = {};
    for (const k of ['target', 'guard', 'actions', 'reenter']) if (k in t) out[k] = t[k];
    if (!('target' in out) && !('actions' in out)) out.actions = [`t${this.nextAction++}`];
    return out;
  }

  decorate() {
    const r = this.r;
    let sid = 0;
    let hid = 0;
    for (const n of this.nodes) {
      if (n === this.root) continue;
      if (n.kind === 'history') {
        if (r.chance(0.3)) n.id = `H${hid++}`;
      } else if (r.chance(0.22)) n.id = `S${sid++}`;
    }
    for (const n of this.nodes) {
      if (n.kind === 'history') {
        this.decorateHistory(n);
        continue;
      }
      const p = n.parent ? n.path.join('.') : 'root';
      if (r.chance(0.72)) n.entry.push(`en_${p}`);
      if (n.entry.length && r.chance(0.15)) n.entry.push(`en2_${p}`);
      if (r.chance(0.72)) n.exit.push(`ex_${p}`);
      if (n.exit.length && r.chance(0.15)) n.exit.push(`ex2_${p}`);
      if (n.entry.length > 1 || n.exit.length > 1) this.features.add('multiple_entry_exit_actions');
      n.entryForm = n.entry.length === 1 && r.chance(0.3) ? 'string' : 'array';
      n.exitForm = n.exit.length === 1 && r.chance(0.3) ? 'string' : 'array';
      if (n.kind === 'compound' || n.kind === 'parallel') {
        if (n.kind === 'compound') n.initial = r.pick(n.children.filter((c) => c.isNormal)).key;
      }
    }
    // transitions
    for (const n of this.nodes) {
      if (n.kind === 'history' || n.kind === 'final') continue;
      const nOn = n.kind === 'atomic' ? r.weighted({ 0: 0.1, 1: 0.3, 2: 0.3, 3: 0.2, 4: 0.1 }) : !n.parent ? r.weighted({ 0: 0.35, 1: 0.4, 2: 0.25 }) : r.weighted({ 0: 0.45, 1: 0.35, 2: 0.2 });
      const events = r.shuffle(this.eventPool).slice(0, Number(nOn));
      for (const ev of events) n.on.push({ event: ev, spec: this.transitionSpec(n) });
      if (n.parent && r.chance(this.prof.pAlways)) n.always = this.alwaysSpec(n);
      const hasFinalChild = n.children.some((c) => c.kind === 'final');
      if (n.kind === 'compound' && n.parent && hasFinalChild && r.chance(this.prof.pOnDone)) n.onDone = this.onDoneSpec(n);
      if (n.kind === 'parallel' && n.parent && r.chance(this.prof.pOnDone)) n.onDone = this.onDoneSpec(n);
      if (!n.parent && r.chance(this.prof.rootOnDone)) n.onDone = this.onDoneSpec(n);
    }
  }

  decorateHistory(h) {
    const r = this.r;
    const style = r.weighted({ deep: 0.45, shallow: 0.3, none: 0.15, true: 0.1 });
    h.deep = style === 'deep';
    h.history = style === 'deep' ? 'deep' : style === 'shallow' ? 'shallow' : style === 'true' ? true : undefined;
    this.features.add(h.deep ? 'history_deep' : 'history_shallow');
    if (h.parent.kind === 'parallel') this.features.add('history_in_parallel');
    if (r.chance(0.5)) {
      const p = h.parent;
      const cands = this.nodes.filter((n) => p.isAncestorOf(n) && n.isNormal);
      const t = r.pick(cands);
      const rel = t.path.slice(p.path.length);
      if (t.id && r.chance(0.3)) h.historyTarget = '#' + t.id;
      else if (r.chance(0.1)) h.historyTarget = '#' + [this.machineId, ...t.path].join('.');
      else h.historyTarget = rel.join('.');
      this.features.add('history_default_target');
    } else this.features.add('history_no_target');
  }

  toConfig(n) {
    const c = {};
    if (!n.parent) c.id = this.machineId;
    else if (n.id) c.id = n.id;
    if (n.kind === 'history') {
      c.type = 'history';
      if (n.history !== undefined) c.history = n.history;
      if (n.historyTarget) c.target = n.historyTarget;
      return c;
    }
    if (n.kind === 'parallel' || n.kind === 'final') c.type = n.kind;
    if (n.initial) c.initial = n.initial;
    if (n.entry.length) c.entry = n.entryForm === 'string' ? n.entry[0] : n.entry.slice();
    if (n.exit.length) c.exit = n.exitForm === 'string' ? n.exit[0] : n.exit.slice();
    if (n.on.length) {
      c.on = {};
      for (const { event, spec } of n.on) c.on[event] = spec;
    }
    if (n.always) c.always = n.always;
    if (n.onDone) c.onDone = n.onDone;
    if (n.children.length) {
      c.states = {};
      for (const ch of n.children) c.states[ch.key] = this.toConfig(ch);
    }
    return c;
  }

  structureFeatures() {
    const f = this.features;
    let maxDepth = 0;
    for (const n of this.nodes) {
      maxDepth = Math.max(maxDepth, n.depth);
      if (n.kind === 'parallel') {
        f.add('parallel');
        if (n.children.filter((c) => c.kind !== 'history').length === 3) f.add('parallel_3_regions');
        if (!n.parent) f.add('parallel_root');
        for (let a = n.parent; a; a = a.parent) if (a.kind === 'parallel') f.add('parallel_nested');
      }
      if (n.kind === 'final') {
        f.add('final');
        if (n.parent === this.root) f.add('final_top_level');
      }
      if (n.id && n.kind !== 'history') f.add('explicit_id');
    }
    for (let d = 2; d <= Math.min(maxDepth, 4); d++) f.add(`depth_${d}`);
  }
}

/**
 * A random machine: { config, guards, eventPool, actionTags, features, root }.
 * `root` is the internal tree (used to know which events the active states handle).
 */
export function randomMachine(r, size, profileName = 'base') {
  const prof = PROFILES[profileName];
  const root = buildTree(r, prof, size);
  const b = new ConfigBuilder(r, prof, root, size);
  b.decorate();
  b.structureFeatures();
  return {
    config: b.toConfig(root),
    guards: b.guards,
    eventPool: b.eventPool,
    actionTags: b.actionTags,
    features: b.features,
    root,
  };
}

/** Nodes active for a state value (root included). */
export function activeNodes(root, value) {
  const out = [];
  const walk = (n, v) => {
    out.push(n);
    if (n.kind === 'compound') {
      const key = typeof v === 'string' ? v : Object.keys(v)[0];
      const child = n.children.find((c) => c.key === key);
      if (child) walk(child, typeof v === 'string' ? undefined : v[key]);
    } else if (n.kind === 'parallel') {
      for (const c of n.children) if (v && c.key in v) walk(c, v[c.key]);
    }
  };
  walk(root, value);
  return out;
}

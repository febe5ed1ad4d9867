// Re-runs trace files through XState and compares with what they record.
// Usage: node check.mjs FILE_OR_DIR...
import fs from 'node:fs';
import path from 'node:path';
import { OracleRun, jsonEqual } from './oracle.mjs';

function sameResult(expected, got) {
  return jsonEqual(expected.value, got.value) && expected.status === got.status && jsonEqual(expected.actions, got.actions);
}

function checkTrace(file) {
  const trace = JSON.parse(fs.readFileSync(file, 'utf8'));
  const run = new OracleRun(trace.machine, trace.guards);
  const init = run.start();
  if (!sameResult(trace.initial, init)) return `initial: expected ${JSON.stringify(trace.initial)} got ${JSON.stringify(init)}`;
  for (let i = 0; i < trace.steps.length; i++) {
    const step = trace.steps[i];
    const got = run.send(step.event);
    if (!sameResult(step, got)) return `step ${i} ${JSON.stringify(step.event)}: expected ${JSON.stringify(step)} got ${JSON.stringify(got)}`;
  }
  return null;
}

const files = [];
for (const arg of process.argv.slice(2)) {
  if (fs.statSync(arg).isDirectory()) {
    for (const f of fs.readdirSync(arg).sort()) if (f.endsWith('.json')) files.push(path.join(arg, f));
  } else files.push(arg);
}
let passed = 0, failed = 0;
for (const f of files) {
  let err;
  try { err = checkTrace(f); } catch (e) { err = `error: ${e.message}`; }
  if (err) { failed++; console.log(`FAIL ${f}: ${err}`); } else passed++;
}
console.log(`${passed} passed, ${failed} failed`);
process.exitCode = failed ? 1 : 0;

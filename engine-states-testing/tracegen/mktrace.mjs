// Writes a trace file from a hand-written {name, machine, guards, events} spec, with the
// expected results computed by XState. Usage: node mktrace.mjs SPEC.json OUT.json
import fs from 'node:fs';
import { OracleRun } from './oracle.mjs';
const [specFile, outFile] = process.argv.slice(2);
const spec = JSON.parse(fs.readFileSync(specFile, 'utf8'));
const run = new OracleRun(JSON.parse(JSON.stringify(spec.machine)), spec.guards || {});
const initial = run.start();
const steps = [];
for (const event of spec.events) {
  if (steps.length && steps[steps.length - 1].status === 'done') break;
  steps.push({ event, ...run.send(event) });
}
const trace = { name: spec.name, seed: null, size: 'small', xstate: '5.33.3', description: spec.description, machine: spec.machine, guards: spec.guards || {}, initial, steps, features: [] };
if (!trace.description) delete trace.description;
fs.writeFileSync(outFile, JSON.stringify(trace, null, 1) + '\n');
console.log(JSON.stringify(initial));
for (const s of steps) console.log(JSON.stringify(s));

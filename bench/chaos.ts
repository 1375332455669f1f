// `npm run chaos`: the long chaos run (test/chaos/run.ts). Three real cocod nodes, redis-server and
// PostgreSQL; steady roshambo matches; a seeded schedule of faults; then the checker's verdict.
//   npm run chaos -- [--seed TEXT] [--faults N] [--nodes N] [--slots N]
// Exits 1 when the checker finds a problem (each named on stderr). Progress goes to stderr, the
// figures (matches, faults, time, what the checker found) to stdout as one Markdown table.
import { parseArgs } from 'node:util';
import { runChaos } from '../test/chaos/run.js';

const { values } = parseArgs({
  options: {
    seed: { type: 'string', default: 'chaos-1' },
    faults: { type: 'string', default: '30' },
    nodes: { type: 'string', default: '3' },
    slots: { type: 'string', default: '3' },
  },
});
const count = (name: string, text: string): number => {
  const n = Number(text);
  if (!Number.isInteger(n) || n < 1) {
    process.stderr.write(`chaos: --${name} takes a whole number of at least 1, not "${text}"\n`);
    process.exit(2);
  }
  return n;
};
const faults = count('faults', values.faults!);
const nodes = count('nodes', values.nodes!);
const slots = count('slots', values.slots!);
const began = process.hrtime.bigint();
// Each progress line says when it came (seconds since the start): where a slow run waited shows.
const elapsed = (): string => (Number(process.hrtime.bigint() - began) / 1e9).toFixed(1);
const result = await runChaos({ seed: values.seed!, faults, nodes, slots, progress: (line) => process.stderr.write(`chaos [${elapsed()} s]: ${line}\n`) });
const kinds = new Map<string, number>();
for (const fault of result.faults) kinds.set(fault.kind, (kinds.get(fault.kind) ?? 0) + 1);
const rows: [string, string][] = [
  ['seed', values.seed!],
  ['faults', `${result.faults.length} (${[...kinds].map(([kind, n]) => `${kind} ${n}`).join(', ')})`],
  ['matches created', String(result.created)],
  ['matches started', String(result.report.started)],
  ['started and recorded', String(result.report.recorded)],
  ['records by reason', Object.entries(result.report.byReason).map(([reason, n]) => `${reason} ${n}`).join(', ')],
  ['`coco new` refused during a fault', String(result.refusedCreations)],
  ['paused nodes: exit status 1, nothing recorded after waking', `${result.pausedExits.filter((e) => e.code === 1 && !e.recordedAfterWaking).length} of ${result.pausedExits.length} (${result.pausedExits.filter((e) => e.refusal).length} refused a write)`],
  ['nodes that exited by themselves', String(result.unexpectedExits)],
  ['time', `${Math.round(result.seconds)} s`],
  ['checker', result.report.problems.length === 0 ? 'no problem found' : `${result.report.problems.length} problems`],
];
process.stdout.write(`| | |\n|---|---|\n${rows.map(([k, v]) => `| ${k} | ${v} |`).join('\n')}\n`);
for (const problem of result.report.problems) process.stderr.write(`chaos: PROBLEM: ${problem}\n`);
process.exit(result.report.problems.length === 0 ? 0 : 1);

/**
 * `npm run fuzz`: every hostile-input attack of test/hostile/ with a large budget and several seeds,
 * each against a fresh cocod with a legitimate match beside it. Prints, per front door: inputs
 * tried, server crashes, the server's peak RSS, the worst stall the legitimate match saw (largest
 * gap between two rounds it received while the attack ran) and whether every invariant held.
 * Not a test: figures go to bench/README.md ("Hostile-input fuzz run").
 *
 * Options (environment): FUZZ_BUDGET (default 5: five times the inputs of `npm test`),
 * FUZZ_SEEDS (default "fuzz-1,fuzz-2"), FUZZ_ONLY (attack names or parts of them, comma-separated),
 * FUZZ_ROUNDS (rounds of each legitimate match, default 2000; they follow each other during the
 * attack), FUZZ_CAP_SECONDS (an attack still running after this long is reported as a hang;
 * default 300), FUZZ_JSON (a file for every report in full).
 */
import { writeFileSync } from 'node:fs';
import { cpus, loadavg, totalmem } from 'node:os';
import { DOORS, type Door } from '../test/hostile/attack.js';
import { ALL_ATTACKS } from '../test/hostile/attacks/index.js';
import { failed, runAttack, type AttackReport } from '../test/hostile/harness.js';

const budget = Number(process.env['FUZZ_BUDGET'] ?? 5);
const seeds = (process.env['FUZZ_SEEDS'] ?? 'fuzz-1,fuzz-2').split(',').filter(Boolean);
const only = (process.env['FUZZ_ONLY'] ?? '').split(',').filter(Boolean);
const rounds = Number(process.env['FUZZ_ROUNDS'] ?? 2000);
const capMs = Number(process.env['FUZZ_CAP_SECONDS'] ?? 300) * 1000;
const attacks = ALL_ATTACKS.filter((attack) => only.length === 0 || only.some((word) => attack.name.includes(word)));

const began = new Date();
console.log(`hostile-input fuzz run, ${began.toISOString()}: ${attacks.length} attacks x ${seeds.length} seeds, budget ${budget}`);
console.log(`machine: ${cpus().length} cores, ${Math.round(totalmem() / 2 ** 30)} GiB, Node.js ${process.version}, load average ${loadavg().map((l) => l.toFixed(1)).join(' ')}\n`);

const reports: AttackReport[] = [];
for (const seed of seeds) {
  for (const attack of attacks) {
    const report = await runAttack(attack, { seed, budget, legitRounds: rounds, chain: true, capMs });
    reports.push(report);
    const broken = failed(report);
    console.log(
      `${attack.name} [${seed}] ${report.inputs} inputs, ${(report.durationMs / 1000).toFixed(1)} s, peak RSS ${report.peakRssMiB} MiB, worst stall ${report.worstStallMs} ms, ` +
        `${report.legitMatches} legit matches${report.exit && !report.stopsServer ? `, SERVER EXITED (${report.exit.code ?? report.exit.signal})` : ''}: ` +
        (broken.length ? `${broken.length} invariants broken` : 'all invariants held'),
    );
    for (const check of broken) console.log(`    broken: ${check.name}: ${check.detail.slice(0, 300)}`);
    for (const note of report.notes) console.log(`    note: ${note.slice(0, 300)}`);
    // Written after every attack, so a run cut short keeps what it found.
    if (process.env['FUZZ_JSON']) writeFileSync(process.env['FUZZ_JSON'], JSON.stringify(reports, null, 1));
  }
}

interface Row {
  runs: number;
  inputs: number;
  crashes: number;
  peakRss: number;
  worstStall: number;
  held: number;
  broken: Map<string, number>;
}

function summarize(group: readonly AttackReport[]): Row {
  const row: Row = { runs: group.length, inputs: 0, crashes: 0, peakRss: 0, worstStall: 0, held: 0, broken: new Map() };
  for (const report of group) {
    row.inputs += report.inputs;
    if (report.exit && !report.stopsServer) row.crashes++;
    row.peakRss = Math.max(row.peakRss, report.peakRssMiB);
    row.worstStall = Math.max(row.worstStall, report.worstStallMs);
    const broken = failed(report);
    if (broken.length === 0) row.held++;
    for (const check of broken) row.broken.set(check.name, (row.broken.get(check.name) ?? 0) + 1);
  }
  return row;
}

const cells = (row: Row): string =>
  `${row.runs} | ${row.inputs.toLocaleString('en')} | ${row.crashes} | ${row.peakRss} MiB | ${row.worstStall.toLocaleString('en')} ms | ${row.held === row.runs ? 'yes' : `no: ${row.runs - row.held} of ${row.runs} runs broke one`}`;

console.log(`\n## Per front door (budget ${budget}, seeds ${seeds.join(', ')})\n`);
console.log('| front door | runs | inputs tried | server crashes | peak RSS | worst stall | every invariant held |');
console.log('|---|---:|---:|---:|---:|---:|---|');
for (const door of DOORS) {
  const group = reports.filter((r) => r.door === (door as Door));
  if (group.length) console.log(`| ${door} | ${cells(summarize(group))} |`);
}

console.log('\n## Per attack\n');
console.log('| attack | runs | inputs tried | server crashes | peak RSS | worst stall | every invariant held | invariants broken (runs) |');
console.log('|---|---:|---:|---:|---:|---:|---|---|');
for (const attack of attacks) {
  const row = summarize(reports.filter((r) => r.attack === attack.name));
  console.log(`| ${attack.name} | ${cells(row)} | ${[...row.broken].map(([name, n]) => `${name} (${n})`).join('; ') || '-'} |`);
}
console.log(`\n${((Date.now() - began.getTime()) / 60_000).toFixed(1)} minutes; load average at the end ${loadavg().map((l) => l.toFixed(1)).join(' ')}`);

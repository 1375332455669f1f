/**
 * `npm run bench`: measures cocod against the bare relay of bench/relay.ts in one invocation,
 * alternating them (relay, cocod, relay, cocod, ...) so that both see the same machine, and
 * reports each figure per run, as a range over runs, and as cocod's ratio to the relay. Not a
 * test: nothing here asserts a time. bench/README.md explains the modes and every figure.
 *
 * Options (environment):
 *   BENCH_MODE       closed (default), open, memory, bridged, or several: closed,open,memory;
 *                    bridged: a seat bridged through Redis against a local one (bench/bridged.ts);
 *                    or tournament alone: the server's tournaments (bench/tournament.ts, its options there)
 *   BENCH_RUNS       runs of each server in each mode (default 3)
 *   BENCH_SERVER     relay | cocod | both (default both)
 *   BENCH_NODES      e.g. 1,2: cocod once per value, with `--nodes N` (not passed when unset)
 *   BENCH_REDIS=1    each cocod also with `--redis` and `--postgres` (a redis-server and a PostgreSQL on
 *                    loopback, started here; one database per server, shared by its runs): with
 *                    `--nodes N` each process is a Redis node, and a seat whose connection lands on
 *                    another node than its match's is bridged through Redis
 *   BENCH_JSON=1     print one JSON document instead of the tables
 *   BENCH_NODE_FLAGS more Node.js flags for the servers (e.g. --trace-gc)
 *   BENCH_PROFILE    DIR: a CPU profile of every server process into DIR (wall time: see bench/README.md)
 *   BENCH_SERVER_LOG FILE: every server's whole standard error appended to FILE
 *   BENCH_COCOD      another cocod to measure (its dist/src/cli/cocod.js), e.g. another branch's build
 *   BENCH_SPECTATE   K: one spectator on every K-th match of cocod's closed and open loops (default
 *                    0, none); its bytes are compared with the match's record (bench/verify.ts, which
 *                    also checks every match's recorded result after every cocod run)
 *   closed loop:     BENCH_MATCHES (1000), BENCH_ROUNDS (200), BENCH_WARMUP_MATCHES (BENCH_MATCHES)
 *   open loop:       BENCH_RATES (2000,5000,10000 rounds/s offered in total), BENCH_OPEN_SECONDS (10),
 *                    BENCH_OPEN_MATCHES (BENCH_MATCHES), BENCH_PLAYER_PROCESSES (1)
 *   memory:          BENCH_CONNECTIONS (10000), BENCH_WAITING (10000 waiting matches),
 *                    BENCH_CLIENT_PROCESSES (one per 5000 connections),
 *                    BENCH_HEAP_SNAPSHOTS (DIR: heap snapshots at each stage, and the heap's breakdown)
 */
import { cpus, loadavg } from 'node:os';
import { resolve } from 'node:path';
import { CLOSED_COLUMNS, closedRun, type ClosedRun } from './closed-loop.js';
import { growthTable } from './heap-diff.js';
import { MEMORY_COLUMNS, memoryRun, type MemoryRun } from './memory.js';
import { OPEN_COLUMNS, openRoundsPerMatch, openRun, type OpenRun } from './open-loop.js';
import { groupRows, markdownTable, ratioSummary, type Column, type Labelled } from './report.js';
import { serverLabel, type ServerSetup, type ServerSpec } from './server.js';
import { startPostgres, startRedis } from '../test/support/services.js';
import { tournamentBench } from './tournament.js';
import type { Verification } from './verify.js';
import { BRIDGED_COLUMNS, BRIDGED_LABELS, bridgedRuns } from './bridged.js';

const env = process.env;

function integer(name: string, fallback: number, least = 1): number {
  const text = env[name];
  if (text === undefined || text === '') return fallback;
  const value = Number(text);
  if (!Number.isInteger(value) || value < least) throw new Error(`${name} must be an integer of at least ${least}, not "${text}"`);
  return value;
}

function integers(name: string, fallback: number[]): number[] {
  const text = env[name];
  if (text === undefined || text === '') return fallback;
  return text.split(',').map((part) => {
    const value = Number(part.trim());
    if (!Number.isInteger(value) || value < 1) throw new Error(`${name} must be positive integers separated by commas, not "${text}"`);
    return value;
  });
}

if (env['BENCH_MODE'] === 'tournament') {
  // A measurement of its own (cocod only, no relay to compare with): see bench/tournament.ts.
  const flags = (env['BENCH_NODE_FLAGS'] ?? '').split(' ').filter(Boolean);
  await tournamentBench(env, { nodeFlags: flags, ...(env['BENCH_COCOD'] ? { cocodScript: resolve(env['BENCH_COCOD']) } : {}) });
  process.exit(0);
}

const MODES = ['closed', 'open', 'memory', 'bridged'] as const;
type Mode = (typeof MODES)[number];
const modes = (env['BENCH_MODE'] ?? 'closed').split(',').map((mode) => mode.trim());
for (const mode of modes) if (!MODES.includes(mode as Mode)) throw new Error(`BENCH_MODE: unknown mode "${mode}" (closed, open, memory, bridged)`);

const runs = integer('BENCH_RUNS', 3);
const side = env['BENCH_SERVER'] ?? 'both';
if (!['relay', 'cocod', 'both'].includes(side)) throw new Error(`BENCH_SERVER must be relay, cocod or both, not "${side}"`);
const nodes = env['BENCH_NODES'] ? integers('BENCH_NODES', []) : null;
const withRedis = env['BENCH_REDIS'] === '1';
// BENCH_MODE=bridged runs its nodes on the same redis-server and PostgreSQL (databases of its own).
const redis = withRedis || modes.includes('bridged') ? await startRedis() : null;
const postgres = redis ? await startPostgres() : null;
let databases = 0;
/** A PostgreSQL database of its own for each server measured (its runs share it). */
const redisSpec = async (spec: ServerSpec): Promise<ServerSpec> => ({ ...spec, redis: redis!.url, postgres: await postgres!.createDatabase(`bench${databases++}`) });
const cocods: ServerSpec[] = nodes ? nodes.map((n) => ({ kind: 'cocod', nodes: n }) as const) : [{ kind: 'cocod' } as const];
const servers: ServerSpec[] = [
  ...(side !== 'cocod' ? [{ kind: 'relay' } as const] : []),
  ...(side !== 'relay' ? (await Promise.all(cocods.map(async (spec) => (withRedis ? [spec, await redisSpec(spec)] : [spec])))).flat() : []),
];
const json = env['BENCH_JSON'] === '1';
const nodeFlags = (env['BENCH_NODE_FLAGS'] ?? '').split(' ').filter(Boolean);
if (env['BENCH_PROFILE']) nodeFlags.push('--cpu-prof', '--cpu-prof-dir', env['BENCH_PROFILE']);
const setup: ServerSetup = { nodeFlags, ...(env['BENCH_COCOD'] ? { cocodScript: resolve(env['BENCH_COCOD']) } : {}) };

const matches = integer('BENCH_MATCHES', 1000);
const rounds = integer('BENCH_ROUNDS', 200);
const warmupMatches = integer('BENCH_WARMUP_MATCHES', matches, 0);
const rates = integers('BENCH_RATES', [2000, 5000, 10000]);
const openSeconds = integer('BENCH_OPEN_SECONDS', 10);
const openMatches = integer('BENCH_OPEN_MATCHES', matches);
const playerProcesses = integer('BENCH_PLAYER_PROCESSES', 1);
const connections = integer('BENCH_CONNECTIONS', 10_000);
const waiting = integer('BENCH_WAITING', 10_000);
const clientProcesses = integer('BENCH_CLIENT_PROCESSES', Math.ceil(connections / 5000));
const spectateEvery = env['BENCH_SPECTATE'] === '0' ? 0 : integer('BENCH_SPECTATE', 0);
const spectatorsText = spectateEvery > 0 ? `; cocod's matches with a spectator on every ${spectateEvery}th` : '';

const heapSnapshots = env['BENCH_HEAP_SNAPSHOTS'] ? resolve(env['BENCH_HEAP_SNAPSHOTS']) : undefined;

/**
 * What a memory run's growth was made of: V8's own figures at each stage (the JS heap as
 * committed, the young generation's share of it, the heap in use, memory held by Buffers
 * outside it) and, with BENCH_HEAP_SNAPSHOTS, the heap's growth by constructor.
 */
function memoryDetail(title: string, run: MemoryRun): string | null {
  const parts: string[] = [];
  if (run.v8.length > 0) {
    const stages = ['start', 'with connections', 'with matches'];
    const mib = (bytes: number): string => (bytes / 2 ** 20).toFixed(1);
    const rows = run.v8.map((f, i) => `| ${stages[i]} | ${[f.rss, f.heapTotal, f.newSpaceTotal, f.heapUsed, f.external, f.rss - f.heapTotal - f.external].map(mib).join(' | ')} |`);
    parts.push([`V8's account of ${title} (its /metrics after each RSS reading), MiB:`, '', '| stage | RSS | JS heap committed | of it young generation | JS heap used | external (Buffers) | RSS outside both |', '|---|---:|---:|---:|---:|---:|---:|', ...rows].join('\n'));
  }
  if (run.heap) {
    parts.push(`Heap snapshots of ${title}: ${run.heap.snapshots.join(', ')}`);
    parts.push(`JS heap growth per idle connection, ${title}:\n\n${growthTable(run.heap.perConnection, 25, 'connection')}`);
    if (run.heap.perWaitingMatch) parts.push(`JS heap growth per waiting match, ${title}:\n\n${growthTable(run.heap.perWaitingMatch, 25, 'match')}`);
  }
  return parts.length > 0 ? parts.join('\n\n') : null;
}

function progress(text: string): void {
  process.stderr.write(`bench: ${text}\n`);
}

/** Runs every server `runs` times, alternating: relay, cocod, relay, cocod, ... */
async function alternate<Run>(what: string, once: (spec: ServerSpec) => Promise<Run>, summary: (run: Run) => string): Promise<Labelled<Run>[]> {
  const done: Labelled<Run>[] = [];
  for (let repetition = 1; repetition <= runs; repetition++) {
    for (const spec of servers) {
      const label = serverLabel(spec);
      progress(`${what} #${repetition} ${label} ...`);
      // An empty Redis for each run: what a run leaves there (the address's cluster-wide GameNew
      // bucket, among others) would refuse the next run's matches.
      if (spec.redis !== undefined) await redis!.restart();
      const run = await once(spec);
      progress(`${what} #${repetition} ${label}: ${summary(run)}`);
      done.push({ label, repetition, run });
    }
  }
  return done;
}

function verifiedText(verified: Verification | null): string {
  return verified ? `; ${verified.matches} records right${verified.spectated > 0 ? `, ${verified.spectated} spectator streams equal to them` : ''}` : '';
}

function table<Run>(columns: readonly Column<Run>[], group: readonly Labelled<Run>[]): string {
  return markdownTable(['run', 'server', ...columns.map((column) => column.header)], groupRows(columns, group));
}

const started = new Date();
const machine = { cores: cpus().length, node: process.version, loadAverageAtStart: loadavg().map((load) => Math.round(load * 100) / 100) };
const results: Record<string, unknown> = { started: started.toISOString(), machine, runs, servers: servers.map(serverLabel) };
const sections: string[] = [
  `cocod benchmark, ${started.toISOString()}: ${machine.cores} cores, Node.js ${machine.node}, load average ${machine.loadAverageAtStart.join(' ')} at the start; ${runs} run(s) of each server, alternating`,
];

if (modes.includes('closed')) {
  const done = await alternate<ClosedRun>(
    `closed loop, ${matches} matches x ${rounds} rounds,`,
    (spec) => closedRun(spec, matches, rounds, setup, spectateEvery, warmupMatches),
    (run) => `${run.roundsPerSecond} rounds/s, p99 ${run.latencyMs.p99} ms, ${run.server.cpuMicrosPerRound} us/round${verifiedText(run.verified)}`,
  );
  results['closed'] = { matches, roundsPerMatch: rounds, warmupMatches, runs: done, ratios: ratioSummary(CLOSED_COLUMNS, done) };
  sections.push(`## Closed loop: ${matches} matches x ${rounds} rounds, each player sending when it has the previous result${warmupMatches > 0 ? `, after ${warmupMatches} matches not measured (the server warmed up)` : ', on a server just started (no warm-up)'}${spectatorsText}\n\n${table(CLOSED_COLUMNS, done)}`);
}

if (modes.includes('open')) {
  const byRate: { rate: number; runs: Labelled<OpenRun>[]; ratios: ReturnType<typeof ratioSummary> }[] = [];
  for (const rate of rates) {
    const done = await alternate<OpenRun>(
      `open loop, ${rate} rounds/s offered,`,
      (spec) => openRun(spec, rate, openMatches, openSeconds, playerProcesses, setup, spectateEvery),
      (run) => `${run.achievedRoundsPerSecond} rounds/s achieved, p50 ${run.latencyMs.p50} ms, p99 ${run.latencyMs.p99} ms, send lag p99 ${run.sendLagMs.p99} ms${verifiedText(run.verified)}`,
    );
    byRate.push({ rate, runs: done, ratios: ratioSummary(OPEN_COLUMNS, done) });
    const perMatch = openRoundsPerMatch(rate, openMatches, openSeconds);
    sections.push(
      `## Open loop: ${rate.toLocaleString('en-US')} rounds/s offered (${openMatches} matches x ${perMatch} rounds, about ${openSeconds} s; ${playerProcesses} player process(es))${spectatorsText}\n\n${table(OPEN_COLUMNS, done)}`,
    );
  }
  results['open'] = { matches: openMatches, seconds: openSeconds, playerProcesses, rates: byRate };
}

if (modes.includes('memory')) {
  const done = await alternate<MemoryRun>(
    `memory, ${connections} idle connections and ${waiting} waiting matches,`,
    (spec) => memoryRun(spec, connections, waiting, clientProcesses, setup, heapSnapshots),
    (run) => `${run.perConnectionKiB} KiB per idle connection${run.perWaitingMatchKiB === null ? '' : `, ${run.perWaitingMatchKiB} KiB per waiting match`}`,
  );
  results['memory'] = { connections, waitingMatches: waiting, clientProcesses, runs: done, ratios: ratioSummary(MEMORY_COLUMNS, done) };
  sections.push(`## Memory: ${connections.toLocaleString('en-US')} idle connections, then ${waiting.toLocaleString('en-US')} waiting matches (cocod only)\n\n${table(MEMORY_COLUMNS, done)}`);
  for (const { label, repetition, run } of done) {
    const detail = memoryDetail(`${label} #${repetition}`, run);
    if (detail) sections.push(detail);
  }
}

if (modes.includes('bridged')) {
  const done = await bridgedRuns({ redis: redis!, postgres: postgres! }, runs, matches, rounds, setup, progress);
  results['bridged'] = { matches, roundsPerMatch: rounds, runs: done, ratios: ratioSummary(BRIDGED_COLUMNS, done, BRIDGED_LABELS.local) };
  sections.push(
    `## Bridged seats: ${matches} matches x ${rounds} rounds on node A of two \`cocod --redis --postgres\` nodes, players on node A (local) or node B (every seat bridged through Redis)\n\n` +
      `Server CPU is both cocod processes together; redis-server's is apart.\n\n` +
      markdownTable(['run', 'seats', ...BRIDGED_COLUMNS.map((column) => column.header)], groupRows(BRIDGED_COLUMNS, done, BRIDGED_LABELS.local)),
  );
}

await redis?.stop();
await postgres?.stop();
process.stdout.write(json ? `${JSON.stringify(results, null, 2)}\n` : `${sections.join('\n\n')}\n`);

/**
 * One open-loop run: a fresh server, `matches` roshambo matches, and players
 * (bench/open-loop-players.ts, in `processes` processes) that offer `rate` rounds a second in
 * total on a fixed schedule for about `seconds` seconds, whatever the server answers. Unlike the
 * closed loop, a server slower than the offered rate makes rounds queue up, and the latency shows
 * it; see bench/open-loop-players.ts for what exactly is measured.
 */
import type { ChildProcess } from 'node:child_process';
import { join } from 'node:path';
import { machineLoad, machineTicks, ProcessTreeMonitor } from './proc-stats.js';
import { percentiles, round2, type Column, type Percentiles } from './report.js';
import { benchLimits, createMatches, here, relayMatchIds, spawnBenchChild, startServer, type ServerSetup, type ServerSpec } from './server.js';
import { spectatedIds, startSpectators, verifyMatches, type Verification } from './verify.js';

/** Roshambo's largest number of rounds. */
const MAX_ROUNDS = 9999;

export interface OpenRun {
  readonly offeredRoundsPerSecond: number;
  readonly matches: number;
  readonly roundsPerMatch: number;
  readonly rounds: number;
  /** From the start of the schedule to the last result. */
  readonly seconds: number;
  readonly achievedRoundsPerSecond: number;
  readonly latencyMs: Percentiles;
  /** Rounds scheduled in the middle 80 % of the schedule. */
  readonly steadyLatencyMs: Percentiles;
  /** How late the players sent, against the schedule: large values mean the load generator, not the server, fell behind. */
  readonly sendLagMs: Percentiles;
  readonly playersCpuPercent: number;
  readonly server: { readonly processes: number; readonly cpuSeconds: number; readonly cpuPercent: number; readonly cpuMicrosPerRound: number; readonly peakRssMiB: number };
  readonly machine: ReturnType<typeof machineLoad>;
  /** cocod's records checked after the run (bench/verify.ts); null for the relay, which keeps none. */
  readonly verified: Verification | null;
}

interface PlayersResult {
  roundsPlayed: number;
  lastResultAt: number;
  cpuSeconds: number;
  sendLagMs: Percentiles;
  latencies: number[];
  scheduledAt: number[];
}

/** Rounds per match so that `rate` rounds a second over `matches` matches last about `seconds`. */
export function openRoundsPerMatch(rate: number, matches: number, seconds: number): number {
  return Math.min(MAX_ROUNDS, Math.max(1, Math.ceil((rate * seconds) / matches)));
}

/** `spectateEvery`: one spectator on every that-many-th match (cocod only; 0: none). */
export async function openRun(spec: ServerSpec, rate: number, matches: number, seconds: number, processes: number, setup: ServerSetup, spectateEvery = 0): Promise<OpenRun> {
  const rounds = openRoundsPerMatch(rate, matches, seconds);
  const server = await startServer(spec, setup, { relayRounds: rounds, limits: benchLimits(matches, 2 * matches + 16) });
  const children: ChildProcess[] = [];
  try {
    const ids = spec.kind === 'relay' ? relayMatchIds(matches) : await createMatches(server.url, matches, rounds);
    const spectators = spec.kind === 'relay' ? null : startSpectators(server.url, spectatedIds(ids, spectateEvery));
    if (spectators) children.push(spectators.child);
    await spectators?.ready;
    const monitor = new ProcessTreeMonitor(server.pid);
    monitor.start();
    const machineBefore = machineTicks();
    // Matches are dealt round-robin to the player processes; each offers its share of the rate.
    const count = Math.min(processes, matches);
    const shares = Array.from({ length: count }, (_, p) => ids.filter((_, i) => i % count === p));
    const outputs = shares.map((share) => {
      const child = spawnBenchChild(process.execPath, [join(here, 'open-loop-players.js'), server.url, share.join(','), String(rounds), String((rate * share.length) / matches)], ['pipe', 'pipe', 'inherit']);
      children.push(child);
      let output = '';
      const ready = new Promise<void>((resolve, reject) => {
        child.stdout!.on('data', (chunk: Buffer) => {
          output += chunk.toString();
          if (output.startsWith('ready\n')) resolve();
        });
        child.once('exit', (code) => reject(new Error(`an open-loop player process exited with ${code} before its matches started`)));
      });
      const done = new Promise<PlayersResult>((resolve, reject) => {
        // 'close', not 'exit': the process may exit before its last output has been read.
        child.once('close', (code) => {
          if (code !== 0) return reject(new Error(`an open-loop player process failed with ${code}`));
          try {
            resolve(JSON.parse(output.slice('ready\n'.length)) as PlayersResult);
          } catch (error) {
            reject(error instanceof Error ? error : new Error(String(error))); // so that the server is still stopped
          }
        });
      });
      done.catch(() => {}); // reported through Promise.all below
      return { child, ready, done };
    });
    await Promise.all(outputs.map((entry) => entry.ready));
    // One wall-clock start for all player processes, a moment ahead so that each has it in time.
    const go = Date.now() + 200;
    for (const { child } of outputs) child.stdin!.end(`go ${go}\n`);
    const results = await Promise.all(outputs.map((entry) => entry.done));
    const usage = monitor.stop();
    const machine = machineLoad(machineBefore, machineTicks());
    const verified = spectators ? await verifyMatches(server.url, ids, rounds, await spectators.done) : null;
    const latencies = results.flatMap((result) => result.latencies);
    const scheduledAt = results.flatMap((result) => result.scheduledAt);
    const scheduleSeconds = (rounds * matches) / rate;
    const steady = latencies.filter((_, i) => scheduledAt[i]! >= 0.1 * scheduleSeconds && scheduledAt[i]! <= 0.9 * scheduleSeconds);
    const roundsPlayed = latencies.length;
    const runSeconds = Math.max(...results.map((result) => result.lastResultAt)) / 1000;
    return {
      offeredRoundsPerSecond: rate,
      matches,
      roundsPerMatch: rounds,
      rounds: roundsPlayed,
      seconds: round2(runSeconds),
      achievedRoundsPerSecond: Math.round(roundsPlayed / runSeconds),
      latencyMs: percentiles(latencies),
      steadyLatencyMs: percentiles(steady),
      // The worst process's lag figures: the generator is only as punctual as its slowest part.
      sendLagMs: {
        p50: Math.max(...results.map((result) => result.sendLagMs.p50)),
        p99: Math.max(...results.map((result) => result.sendLagMs.p99)),
        max: Math.max(...results.map((result) => result.sendLagMs.max)),
      },
      playersCpuPercent: Math.round((100 * results.reduce((sum, result) => sum + result.cpuSeconds, 0)) / runSeconds),
      server: {
        processes: usage.processes,
        cpuSeconds: round2(usage.cpuSeconds),
        cpuPercent: Math.round((100 * usage.cpuSeconds) / runSeconds),
        cpuMicrosPerRound: Math.round((1e6 * usage.cpuSeconds) / Math.max(1, roundsPlayed)),
        peakRssMiB: round2(usage.hwmSumKiB / 1024),
      },
      machine,
      verified,
    };
  } finally {
    for (const child of children) if (child.exitCode === null && child.signalCode === null) child.kill('SIGTERM');
    await server.stop();
  }
}

export const OPEN_COLUMNS: readonly Column<OpenRun>[] = [
  { header: 'achieved rounds/s', value: (run) => run.achievedRoundsPerSecond, ratio: true },
  { header: 'p50 ms', value: (run) => run.latencyMs.p50, digits: 1, ratio: true },
  { header: 'p99 ms', value: (run) => run.latencyMs.p99, digits: 1, ratio: true },
  { header: 'max ms', value: (run) => run.latencyMs.max, digits: 0, ratio: true },
  { header: 'steady p99 ms', value: (run) => run.steadyLatencyMs.p99, digits: 1, ratio: true },
  { header: 'server CPU us/round', value: (run) => run.server.cpuMicrosPerRound, ratio: true },
  { header: 'server CPU %', value: (run) => run.server.cpuPercent },
  { header: 'server processes', value: (run) => run.server.processes },
  { header: 'peak RSS MiB', value: (run) => run.server.peakRssMiB, ratio: true },
  { header: 'send lag p99 ms', value: (run) => run.sendLagMs.p99, digits: 1 },
  { header: 'players CPU %', value: (run) => run.playersCpuPercent },
  { header: 'machine busy %', value: (run) => run.machine.busyPercent },
];

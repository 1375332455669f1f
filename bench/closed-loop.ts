/**
 * One closed-loop run: a fresh server, `matches` roshambo matches of `rounds` rounds played all at
 * once by bench/players.ts, each player sending its next gesture as soon as it has the previous
 * result. Throughput and latency are each other's mirror here (Little's law): the players wait
 * for the server, so a slow round delays the next one instead of piling up.
 */
import { join } from 'node:path';
import { machineLoad, machineTicks, ProcessTreeMonitor } from './proc-stats.js';
import { percentiles, round2, type Column, type Percentiles } from './report.js';
import { benchLimits, createMatches, here, relayMatchIds, spawnBenchChild, startServer, type ServerSetup, type ServerSpec } from './server.js';
import { spectatedIds, startSpectators, verifyMatches, type Spectators, type Verification } from './verify.js';

export interface ClosedRun {
  readonly matches: number;
  readonly roundsPerMatch: number;
  readonly rounds: number;
  readonly seconds: number;
  readonly roundsPerSecond: number;
  readonly latencyMs: Percentiles;
  /** Rounds that ended in the middle 80 % of the run. */
  readonly steadyLatencyMs: Percentiles;
  readonly playersCpuPercent: number;
  readonly server: {
    readonly processes: number;
    readonly cpuSeconds: number;
    readonly cpuPercent: number;
    readonly cpuMicrosPerRound: number;
    /** RSS summed over the server's processes before the matches were created. */
    readonly startRssMiB: number;
    readonly peakRssMiB: number;
    readonly sampledPeakRssMiB: number;
    /** (peak - start) / matches. */
    readonly peakRssPerMatchKiB: number;
  };
  readonly machine: ReturnType<typeof machineLoad>;
  /** cocod's records checked after the run (bench/verify.ts); null for the relay, which keeps none. */
  readonly verified: Verification | null;
}

/** `spectateEvery`: one spectator on every that-many-th match (cocod only; 0: none). */
export async function closedRun(spec: ServerSpec, matches: number, rounds: number, setup: ServerSetup, spectateEvery = 0): Promise<ClosedRun> {
  const server = await startServer(spec, setup, { relayRounds: rounds, limits: benchLimits(matches, 2 * matches + 16) });
  let spectators: Spectators | null = null;
  try {
    const startRss = new ProcessTreeMonitor(server.pid).usage().rssKiB;
    const ids = spec.kind === 'relay' ? relayMatchIds(matches) : await createMatches(server.url, matches, rounds);
    spectators = spec.kind === 'relay' ? null : startSpectators(server.url, spectatedIds(ids, spectateEvery));
    await spectators?.ready;
    // CPU counts from here: the players' connections, joins, rounds, and the matches' ends.
    const monitor = new ProcessTreeMonitor(server.pid);
    monitor.start();
    const machineBefore = machineTicks();
    const players = spawnBenchChild(process.execPath, [join(here, 'players.js'), server.url, ids.join(','), String(rounds)], ['ignore', 'pipe', 'inherit']);
    let output = '';
    players.stdout!.on('data', (chunk: Buffer) => (output += chunk.toString()));
    // 'close', not 'exit': the process may exit before its last output has been read.
    const code = await new Promise<number | null>((resolve) => players.once('close', resolve));
    const usage = monitor.stop();
    const machine = machineLoad(machineBefore, machineTicks());
    if (code !== 0) throw new Error(`the player process failed with ${code}`);
    const verified = spectators ? await verifyMatches(server.url, ids, rounds, await spectators.done) : null;
    const result = JSON.parse(output) as { roundsPlayed: number; seconds: number; cpuSeconds: number; latencies: number[]; endedAt: number[] };
    // Steady state: without the start (all connections and matches starting at once) and the end
    // (matches finishing and being recorded at once).
    const steady = result.latencies.filter((_, i) => result.endedAt[i]! >= 0.1 * result.seconds && result.endedAt[i]! <= 0.9 * result.seconds);
    // Each process's own peak (VmHWM) catches what happens between samples; see TreeUsage.
    const peakKiB = usage.hwmSumKiB;
    return {
      matches,
      roundsPerMatch: rounds,
      rounds: result.roundsPlayed,
      seconds: round2(result.seconds),
      roundsPerSecond: Math.round(result.roundsPlayed / result.seconds),
      latencyMs: percentiles(result.latencies),
      steadyLatencyMs: percentiles(steady),
      playersCpuPercent: Math.round((100 * result.cpuSeconds) / result.seconds),
      server: {
        processes: usage.processes,
        cpuSeconds: round2(usage.cpuSeconds),
        cpuPercent: Math.round((100 * usage.cpuSeconds) / result.seconds),
        cpuMicrosPerRound: Math.round((1e6 * usage.cpuSeconds) / Math.max(1, result.roundsPlayed)),
        startRssMiB: round2(startRss / 1024),
        peakRssMiB: round2(peakKiB / 1024),
        sampledPeakRssMiB: round2(usage.sampledPeakKiB / 1024),
        peakRssPerMatchKiB: Math.round((peakKiB - startRss) / matches),
      },
      machine,
      verified,
    };
  } finally {
    if (spectators && spectators.child.exitCode === null && spectators.child.signalCode === null) spectators.child.kill('SIGTERM');
    await server.stop();
  }
}

export const CLOSED_COLUMNS: readonly Column<ClosedRun>[] = [
  { header: 'rounds/s', value: (run) => run.roundsPerSecond, ratio: true },
  { header: 'p50 ms', value: (run) => run.latencyMs.p50, digits: 1, ratio: true },
  { header: 'p99 ms', value: (run) => run.latencyMs.p99, digits: 1, ratio: true },
  { header: 'steady p50 ms', value: (run) => run.steadyLatencyMs.p50, digits: 1, ratio: true },
  { header: 'steady p99 ms', value: (run) => run.steadyLatencyMs.p99, digits: 1, ratio: true },
  { header: 'max ms', value: (run) => run.latencyMs.max, digits: 0 },
  { header: 'server CPU us/round', value: (run) => run.server.cpuMicrosPerRound, ratio: true },
  { header: 'server CPU %', value: (run) => run.server.cpuPercent },
  { header: 'server processes', value: (run) => run.server.processes },
  { header: 'peak RSS MiB', value: (run) => run.server.peakRssMiB, ratio: true },
  { header: 'peak RSS KiB/match', value: (run) => run.server.peakRssPerMatchKiB, ratio: true },
  { header: 'players CPU %', value: (run) => run.playersCpuPercent },
  { header: 'machine busy %', value: (run) => run.machine.busyPercent },
  { header: 'steal %', value: (run) => run.machine.stealPercent },
];

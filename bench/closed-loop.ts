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
  /** CPU of the service measured apart (redis-server in BENCH_MODE=bridged), µs a round; null without one. */
  readonly serviceCpuMicrosPerRound: number | null;
  readonly machine: ReturnType<typeof machineLoad>;
  /** cocod's records checked after the run (bench/verify.ts); null for the relay, which keeps none. */
  readonly verified: Verification | null;
}

/**
 * `spectateEvery`: one spectator on every that-many-th match (cocod only; 0: none). `warmupMatches`
 * matches of as many rounds are played first and not measured: the figures are then the server's
 * steady state, without the one-time cost of compiling its code (a JIT warms up once per process).
 */
export async function closedRun(spec: ServerSpec, matches: number, rounds: number, setup: ServerSetup, spectateEvery = 0, warmupMatches = 0): Promise<ClosedRun> {
  const server = await startServer(spec, setup, { relayRounds: rounds, limits: benchLimits(Math.max(matches, warmupMatches), 2 * Math.max(matches, warmupMatches) + 16, matches + warmupMatches) });
  let spectators: Spectators | null = null;
  try {
    if (warmupMatches > 0) {
      const warmupIds = spec.kind === 'relay' ? relayMatchIds(warmupMatches) : await createMatches(server.url, warmupMatches, rounds);
      await playClosed({ playersUrl: server.url, ids: warmupIds, serverPids: [server.pid], startRssKiB: 0 }, rounds);
    }
    const startRssKiB = new ProcessTreeMonitor(server.pid).usage().rssKiB;
    const ids = spec.kind === 'relay' ? relayMatchIds(matches) : await createMatches(server.url, matches, rounds);
    spectators = spec.kind === 'relay' ? null : startSpectators(server.url, spectatedIds(ids, spectateEvery));
    await spectators?.ready;
    const run = await playClosed({ playersUrl: server.url, ids, serverPids: [server.pid], startRssKiB }, rounds);
    const verified = spectators ? await verifyMatches(server.url, ids, rounds, await spectators.done) : null;
    return { ...run, verified };
  } finally {
    if (spectators && spectators.child.exitCode === null && spectators.child.signalCode === null) spectators.child.kill('SIGTERM');
    await server.stop();
  }
}

/** What one closed loop plays against: where the players connect, their matches, and whose CPU counts. */
export interface ClosedSetting {
  readonly playersUrl: string;
  readonly ids: readonly string[];
  /** The server's processes (trees): their CPU and memory are the server's figures. */
  readonly serverPids: readonly number[];
  /** RSS of those before the matches were created. */
  readonly startRssKiB: number;
  /** A service measured apart (BENCH_MODE=bridged: redis-server), its CPU per round reported on its own. */
  readonly servicePid?: number;
}

/** Plays `setting.ids` with bench/players.ts and measures the rounds, the server and the machine. */
export async function playClosed(setting: ClosedSetting, rounds: number): Promise<Omit<ClosedRun, 'verified'>> {
  const matches = setting.ids.length;
  // CPU counts from here: the players' connections, joins, rounds, and the matches' ends.
  const monitors = setting.serverPids.map((pid) => new ProcessTreeMonitor(pid));
  const service = setting.servicePid === undefined ? null : new ProcessTreeMonitor(setting.servicePid);
  for (const monitor of [...monitors, ...(service ? [service] : [])]) monitor.start();
  const machineBefore = machineTicks();
  const players = spawnBenchChild(process.execPath, [join(here, 'players.js'), setting.playersUrl, setting.ids.join(','), String(rounds)], ['ignore', 'pipe', 'inherit']);
  let output = '';
  players.stdout!.on('data', (chunk: Buffer) => (output += chunk.toString()));
  // 'close', not 'exit': the process may exit before its last output has been read.
  const code = await new Promise<number | null>((resolve) => players.once('close', resolve));
  const usages = monitors.map((monitor) => monitor.stop());
  const serviceUsage = service?.stop() ?? null;
  const machine = machineLoad(machineBefore, machineTicks());
  if (code !== 0) throw new Error(`the player process failed with ${code}`);
  const result = JSON.parse(output) as { roundsPlayed: number; seconds: number; cpuSeconds: number; latencies: number[]; endedAt: number[] };
  // Steady state: without the start (all connections and matches starting at once) and the end
  // (matches finishing and being recorded at once).
  const steady = result.latencies.filter((_, i) => result.endedAt[i]! >= 0.1 * result.seconds && result.endedAt[i]! <= 0.9 * result.seconds);
  const sum = (figure: (usage: (typeof usages)[number]) => number): number => usages.reduce((total, usage) => total + figure(usage), 0);
  const cpuSeconds = sum((usage) => usage.cpuSeconds);
  // Each process's own peak (VmHWM) catches what happens between samples; see TreeUsage.
  const peakKiB = sum((usage) => usage.hwmSumKiB);
  const perRound = (seconds: number): number => Math.round((1e6 * seconds) / Math.max(1, result.roundsPlayed));
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
      processes: sum((usage) => usage.processes),
      cpuSeconds: round2(cpuSeconds),
      cpuPercent: Math.round((100 * cpuSeconds) / result.seconds),
      cpuMicrosPerRound: perRound(cpuSeconds),
      startRssMiB: round2(setting.startRssKiB / 1024),
      peakRssMiB: round2(peakKiB / 1024),
      sampledPeakRssMiB: round2(sum((usage) => usage.sampledPeakKiB) / 1024),
      peakRssPerMatchKiB: Math.round((peakKiB - setting.startRssKiB) / matches),
    },
    serviceCpuMicrosPerRound: serviceUsage === null ? null : perRound(serviceUsage.cpuSeconds),
    machine,
  };
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

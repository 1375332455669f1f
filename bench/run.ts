/**
 * `npm run bench`: starts cocod, creates K roshambo matches at pace 0, and plays them all at once
 * with WebSocket players in a separate process. Prints rounds per second, round latency
 * percentiles, and the server's peak memory and CPU time. Not a test: numbers go to
 * bench/README.md.
 *
 * Options (environment): BENCH_MATCHES (default 1000), BENCH_ROUNDS (default 200),
 * BENCH_SERVER=relay (measure the baseline of bench/relay.ts instead of cocod), BENCH_NODE_FLAGS
 * (more Node.js flags for the server, e.g. --trace-gc), BENCH_PROFILE=DIR (a CPU profile of it).
 */
import { spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { CocoClient } from '../src/client/coco-client.js';

const matches = Number(process.env['BENCH_MATCHES'] ?? 1000);
const rounds = Number(process.env['BENCH_ROUNDS'] ?? 200);
const here = fileURLToPath(new URL('.', import.meta.url));
const dir = mkdtempSync(join(tmpdir(), 'cocod-bench-'));

function procStats(pid: number): { rssKiB: number; peakKiB: number; cpuSeconds: number } {
  const status = readFileSync(`/proc/${pid}/status`, 'utf8');
  const kib = (key: string) => Number(new RegExp(`${key}:\\s+(\\d+)`).exec(status)?.[1] ?? 0);
  const stat = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1]!.split(' ');
  const ticks = Number(stat[11]) + Number(stat[12]);
  return { rssKiB: kib('VmRSS'), peakKiB: kib('VmHWM'), cpuSeconds: ticks / 100 };
}

/** CPU time of the whole machine so far, in clock ticks (/proc/stat). */
function machineTicks(): { total: number; busy: number; steal: number; cores: number } {
  const lines = readFileSync('/proc/stat', 'utf8').split('\n');
  // user nice system idle iowait irq softirq steal
  const [user, nice, system, idle, iowait, irq, softirq, steal] = lines[0]!.split(/\s+/).slice(1, 9).map(Number) as number[];
  const busy = user! + nice! + system! + irq! + softirq!;
  return { total: busy + idle! + iowait! + steal!, busy, steal: steal!, cores: lines.filter((line) => /^cpu\d/.test(line)).length };
}

function percentiles(latencies: number[]): { p50: number; p99: number; max: number } {
  const sorted = [...latencies].sort((a, b) => a - b);
  const at = (p: number): number => Number((sorted[Math.min(sorted.length - 1, Math.floor(p * sorted.length))] ?? 0).toFixed(2));
  return { p50: at(0.5), p99: at(0.99), max: Number((sorted.at(-1) ?? 0).toFixed(2)) };
}

/**
 * Every player of the benchmark connects from 127.0.0.1: the per-address limits, meant for the
 * open internet, are raised to what one host running K matches needs.
 */
const BENCH_LIMITS = [
  '--limit', `connections-per-address=${2 * matches + 16}`,
  '--limit', `game-new-per-minute=${matches + 16}`,
  '--limit', `waiting-matches-per-address=${matches + 16}`,
];

/** The Node.js flags `npm start` gives cocod (package.json), so that the benchmark measures the server users run. */
function startFlags(): string[] {
  const packageJson = JSON.parse(readFileSync(join(here, '../../package.json'), 'utf8')) as { scripts: { start: string } };
  return packageJson.scripts.start.split(/\s+/).filter((word) => word.startsWith('--'));
}

const nodeFlags = [...startFlags(), ...(process.env['BENCH_NODE_FLAGS'] ?? '').split(' ').filter(Boolean)];
if (process.env['BENCH_PROFILE']) nodeFlags.push('--cpu-prof', '--cpu-prof-dir', process.env['BENCH_PROFILE']);
const relay = process.env['BENCH_SERVER'] === 'relay';
const serverArgs = relay ? [join(here, 'relay.js'), String(rounds)] : [join(here, '../src/cli/cocod.js'), '-p', '0', '-d', join(dir, 'bench.sqlite'), '-v', 'bench', ...BENCH_LIMITS];
const server = spawn(process.execPath, [...nodeFlags, ...serverArgs], { stdio: ['ignore', 'inherit', 'pipe'] });
const url = await new Promise<string>((resolve, reject) => {
  let log = '';
  server.stderr!.on('data', (chunk: Buffer) => {
    log += chunk.toString();
    const found = /listening on (ws:\/\/\S+)/.exec(log);
    if (found) resolve(found[1]!);
  });
  server.once('exit', () => reject(new Error(`cocod exited: ${log}`)));
});

try {
  const ids: string[] = relay ? Array.from({ length: matches }, (_, i) => `m${i}`) : [];
  const client = relay ? null : await CocoClient.connect(url);
  for (let i = 0; client && i < matches; i++) {
    const reply = await client.request(
      { type: 'GameNew', name: `bench ${i}`, game: 'roshambo', params: { players: 2, bots: 0, timeout: 60 }, args: { rounds: String(rounds), pace: '0' }, password: null, verification: null },
      'GameNew',
    );
    if ('Err' in reply.id) throw new Error(reply.id.Err);
    ids.push(reply.id.Ok);
  }
  client?.close();
  const before = procStats(server.pid!);
  const machineBefore = machineTicks();
  const players = spawn(process.execPath, [join(here, 'players.js'), url, ids.join(','), String(rounds)], { stdio: ['ignore', 'pipe', 'inherit'] });
  let peakKiB = before.peakKiB;
  const sampler = setInterval(() => {
    peakKiB = Math.max(peakKiB, procStats(server.pid!).peakKiB);
  }, 200);
  let output = '';
  players.stdout!.on('data', (chunk: Buffer) => (output += chunk.toString()));
  const code = await new Promise<number | null>((resolve) => players.once('exit', resolve));
  clearInterval(sampler);
  if (code !== 0) throw new Error(`the player process failed with ${code}`);
  const after = procStats(server.pid!);
  const machineAfter = machineTicks();
  const result = JSON.parse(output) as { roundsPlayed: number; seconds: number; cpuSeconds: number; latencies: number[]; endedAt: number[] };
  // Steady state: the rounds that ended in the middle 80 % of the run, without the start (2000
  // connections and 1000 matches starting at once) and the end (matches finishing and recorded).
  const steady = result.latencies.filter((_, i) => result.endedAt[i]! >= 0.1 * result.seconds && result.endedAt[i]! <= 0.9 * result.seconds);
  const machineTotal = machineAfter.total - machineBefore.total;
  const report = {
    matches,
    roundsPerMatch: rounds,
    rounds: result.roundsPlayed,
    seconds: Number(result.seconds.toFixed(2)),
    roundsPerSecond: Math.round(result.roundsPlayed / result.seconds),
    latencyMs: percentiles(result.latencies),
    steadyLatencyMs: percentiles(steady),
    playersCpuPercent: Math.round((100 * result.cpuSeconds) / result.seconds),
    server: {
      peakRssMiB: Number((Math.max(peakKiB, after.peakKiB) / 1024).toFixed(1)),
      cpuSeconds: Number((after.cpuSeconds - before.cpuSeconds).toFixed(2)),
      cpuPercent: Math.round((100 * (after.cpuSeconds - before.cpuSeconds)) / result.seconds),
    },
    // Of all cores during the run: how busy they were, and how much time the hypervisor took away.
    machine: {
      cores: machineAfter.cores,
      busyPercent: Math.round((100 * (machineAfter.busy - machineBefore.busy)) / machineTotal),
      stealPercent: Math.round((100 * (machineAfter.steal - machineBefore.steal)) / machineTotal),
    },
  };
  console.log(JSON.stringify(report, null, 2));
} finally {
  server.kill('SIGTERM');
  await new Promise((resolve) => server.once('exit', resolve));
  rmSync(dir, { recursive: true, force: true });
}

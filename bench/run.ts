/**
 * `npm run bench`: starts cocod, creates K roshambo matches at pace 0, and plays them all at once
 * with WebSocket players in a separate process. Prints rounds per second, round latency
 * percentiles, and the server's peak memory and CPU time. Not a test: numbers go to
 * bench/README.md.
 *
 * Options (environment): BENCH_MATCHES (default 1000), BENCH_ROUNDS (default 200).
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

const server = spawn(process.execPath, [...(process.env['BENCH_PROFILE'] ? ['--cpu-prof', '--cpu-prof-dir', process.env['BENCH_PROFILE']] : []), join(here, '../src/cli/cocod.js'), '-p', '0', '-d', join(dir, 'bench.sqlite'), '-v', 'bench'], {
  stdio: ['ignore', 'ignore', 'pipe'],
});
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
  const client = await CocoClient.connect(url);
  const ids: string[] = [];
  for (let i = 0; i < matches; i++) {
    const reply = await client.request(
      { type: 'GameNew', name: `bench ${i}`, game: 'roshambo', params: { players: 2, bots: 0, timeout: 60 }, args: { rounds: String(rounds), pace: '0' }, password: null, verification: null },
      'GameNew',
    );
    if ('Err' in reply.id) throw new Error(reply.id.Err);
    ids.push(reply.id.Ok);
  }
  client.close();
  const before = procStats(server.pid!);
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
  const result = JSON.parse(output) as { roundsPlayed: number; seconds: number; cpuSeconds: number; latencies: number[] };
  const sorted = result.latencies.sort((a, b) => a - b);
  const pct = (p: number) => sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))]!;
  const report = {
    matches,
    roundsPerMatch: rounds,
    rounds: result.roundsPlayed,
    seconds: Number(result.seconds.toFixed(2)),
    roundsPerSecond: Math.round(result.roundsPlayed / result.seconds),
    latencyMs: { p50: Number(pct(50).toFixed(2)), p99: Number(pct(99).toFixed(2)), max: Number(sorted.at(-1)!.toFixed(2)) },
    playersCpuPercent: Math.round((100 * result.cpuSeconds) / result.seconds),
    server: {
      peakRssMiB: Number((Math.max(peakKiB, after.peakKiB) / 1024).toFixed(1)),
      cpuSeconds: Number((after.cpuSeconds - before.cpuSeconds).toFixed(2)),
      cpuPercent: Math.round((100 * (after.cpuSeconds - before.cpuSeconds)) / result.seconds),
    },
  };
  console.log(JSON.stringify(report, null, 2));
} finally {
  server.kill('SIGTERM');
  await new Promise((resolve) => server.once('exit', resolve));
  rmSync(dir, { recursive: true, force: true });
}

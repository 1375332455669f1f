/**
 * One memory run: what an idle connection and a waiting match cost the server in resident memory.
 * A fresh server; its RSS (summed over its processes) once it has settled; then `connections`
 * idle WebSocket connections (coco Handshake done, nothing else) held by bench/idle-clients.ts
 * processes, and the RSS again; then, with those still open, `waiting` roshambo matches created
 * and never joined, and the RSS again. Each figure is the difference divided by the count.
 */
import { type ChildProcess } from 'node:child_process';
import { mkdtempSync } from 'node:fs';
import { join } from 'node:path';
import { heapByKind, heapGrowth, type KindGrowth } from './heap-diff.js';
import { heapSnapshotFlags, readV8Memory, takeHeapSnapshot, type V8Memory } from './heap-stages.js';
import { ProcessTreeMonitor } from './proc-stats.js';
import { round2, type Column } from './report.js';
import { benchLimits, createMatches, here, sleep, spawnWithFileLimit, startServer, type ServerSetup, type ServerSpec } from './server.js';

export interface MemoryRun {
  readonly connections: number;
  readonly waitingMatches: number;
  readonly processes: number;
  readonly rssMiB: { readonly start: number; readonly withConnections: number; readonly withMatches: number | null };
  readonly perConnectionKiB: number;
  readonly perWaitingMatchKiB: number | null;
  readonly secondsToConnect: number;
  readonly secondsToCreateMatches: number | null;
  /** V8's figures at start, with connections, with matches (cocod's /metrics; empty for the relay). */
  readonly v8: readonly V8Memory[];
  /** With BENCH_HEAP_SNAPSHOTS: what grew in the JS heap. */
  readonly heap?: HeapBreakdown;
}

/** The heap snapshots' account of a memory run (heap-stages.ts). */
export interface HeapBreakdown {
  readonly snapshots: readonly string[];
  readonly perConnection: readonly KindGrowth[];
  readonly perWaitingMatch: readonly KindGrowth[] | null;
}

/**
 * RSS once it stops moving: sampled every 250 ms until the last 2 s of samples stay within 1 % (or
 * 15 s have passed), then their median. Right after a burst of work the heap still holds garbage
 * and freed pages are returned late; waiting makes the figures repeatable, though the collector's
 * timing still moves them by a few percent.
 */
async function settledRssKiB(monitor: ProcessTreeMonitor): Promise<number> {
  const window: number[] = [];
  for (let waited = 0; ; waited += 250) {
    window.push(monitor.sample().rssKiB);
    if (window.length > 8) window.shift();
    const low = Math.min(...window);
    const high = Math.max(...window);
    if ((window.length === 8 && high - low <= 0.01 * high) || waited >= 15_000) return [...window].sort((a, b) => a - b)[window.length >> 1]!;
    await sleep(250);
  }
}

/** Asks each client process how many of its connections are still open. */
async function aliveConnections(clients: readonly { child: ChildProcess; lines: string[] }[]): Promise<number> {
  const counts = await Promise.all(
    clients.map(({ child, lines }) => {
      const seen = lines.length;
      child.stdin!.write('count\n');
      return new Promise<number>((resolve) => {
        const check = setInterval(() => {
          const answer = lines.slice(seen).find((line) => line.startsWith('alive '));
          if (answer || child.exitCode !== null) {
            clearInterval(check);
            resolve(answer ? Number(answer.slice('alive '.length)) : 0);
          }
        }, 20);
      });
    }),
  );
  return counts.reduce((sum, n) => sum + n, 0);
}

/**
 * `heapDir` (BENCH_HEAP_SNAPSHOTS): a heap snapshot of the server after each RSS reading, into a
 * new directory under it. Writing a snapshot leaves the server's memory larger, so the RSS figures
 * of such a run are not comparable with a plain one: use it for the breakdown only.
 */
export async function memoryRun(spec: ServerSpec, connections: number, waiting: number, processes: number, setup: ServerSetup, heapDir?: string): Promise<MemoryRun> {
  const snapshotDir = heapDir === undefined ? undefined : mkdtempSync(join(heapDir, `${spec.kind}-`));
  const runSetup = snapshotDir === undefined ? setup : { ...setup, nodeFlags: [...setup.nodeFlags, ...heapSnapshotFlags(snapshotDir)] };
  const server = await startServer(spec, runSetup, { limits: benchLimits(waiting, connections + 64) });
  const clients: { child: ChildProcess; lines: string[] }[] = [];
  const httpUrl = server.url.replace(/^ws/, 'http').replace(/\/+$/, '');
  const snapshots: string[] = [];
  const v8: V8Memory[] = [];
  const stage = async (): Promise<void> => {
    const figures = spec.kind === 'cocod' ? await readV8Memory(httpUrl) : null;
    if (figures) v8.push(figures);
    if (snapshotDir === undefined) return;
    snapshots.push(await takeHeapSnapshot(server.pid, snapshotDir));
  };
  try {
    const monitor = new ProcessTreeMonitor(server.pid);
    const start = await settledRssKiB(monitor);
    await stage();
    const connectStarted = performance.now();
    const count = Math.max(1, Math.min(processes, connections));
    const opened = Array.from({ length: count }, (_, p) => {
      const share = Math.floor(connections / count) + (p < connections % count ? 1 : 0);
      const child = spawnWithFileLimit([process.execPath, join(here, 'idle-clients.js'), server.url, String(share), spec.kind === 'cocod' ? '1' : '0', '128'], ['pipe', 'pipe', 'inherit']);
      const entry = { child, lines: [] as string[] };
      clients.push(entry);
      let buffered = '';
      return new Promise<number>((resolve, reject) => {
        child.stdout!.on('data', (chunk: Buffer) => {
          buffered += chunk.toString();
          let newline: number;
          while ((newline = buffered.indexOf('\n')) !== -1) {
            const line = buffered.slice(0, newline);
            buffered = buffered.slice(newline + 1);
            entry.lines.push(line);
            if (line.startsWith('open ')) resolve(Number(line.slice('open '.length)));
          }
        });
        child.once('exit', (code) => reject(new Error(`an idle-client process exited with ${code}`)));
      });
    });
    const open = (await Promise.all(opened)).reduce((sum, n) => sum + n, 0);
    const secondsToConnect = (performance.now() - connectStarted) / 1000;
    const withConnections = await settledRssKiB(monitor);
    await stage();
    let still = await aliveConnections(clients);
    if (still !== connections) throw new Error(`${connections - still} of ${open} idle connections were closed by the server`);

    let withMatches: number | null = null;
    let secondsToCreateMatches: number | null = null;
    if (spec.kind === 'cocod' && waiting > 0) {
      const createStarted = performance.now();
      await createMatches(server.url, waiting, 10, 4);
      secondsToCreateMatches = (performance.now() - createStarted) / 1000;
      withMatches = await settledRssKiB(monitor);
      await stage();
      still = await aliveConnections(clients);
      if (still !== connections) throw new Error(`${connections - still} idle connections were closed while the matches were created`);
    }
    return {
      connections,
      waitingMatches: withMatches === null ? 0 : waiting,
      processes: monitor.usage().processes,
      rssMiB: { start: round2(start / 1024), withConnections: round2(withConnections / 1024), withMatches: withMatches === null ? null : round2(withMatches / 1024) },
      perConnectionKiB: round2((withConnections - start) / connections),
      perWaitingMatchKiB: withMatches === null ? null : round2((withMatches - withConnections) / waiting),
      secondsToConnect: round2(secondsToConnect),
      secondsToCreateMatches: secondsToCreateMatches === null ? null : round2(secondsToCreateMatches),
      v8,
      ...(snapshots.length >= 2 && { heap: breakdown(snapshots, connections, withMatches === null ? 0 : waiting) }),
    };
  } finally {
    for (const { child } of clients) child.stdin!.end();
    await Promise.all(clients.map(({ child }) => (child.exitCode === null && child.signalCode === null ? new Promise((resolve) => child.once('exit', resolve)) : null)));
    await server.stop();
  }
}

function breakdown(snapshots: readonly string[], connections: number, waiting: number): HeapBreakdown {
  const kinds = snapshots.map(heapByKind);
  return {
    snapshots,
    perConnection: heapGrowth(kinds[0]!, kinds[1]!, connections),
    perWaitingMatch: kinds.length > 2 && waiting > 0 ? heapGrowth(kinds[1]!, kinds[2]!, waiting) : null,
  };
}

export const MEMORY_COLUMNS: readonly Column<MemoryRun>[] = [
  { header: 'connections', value: (run) => run.connections },
  { header: 'RSS at start MiB', value: (run) => run.rssMiB.start, digits: 1 },
  { header: 'RSS with connections MiB', value: (run) => run.rssMiB.withConnections, digits: 1 },
  { header: 'KiB per idle connection', value: (run) => run.perConnectionKiB, digits: 1, ratio: true },
  { header: 'waiting matches', value: (run) => run.waitingMatches || null },
  { header: 'RSS with matches MiB', value: (run) => run.rssMiB.withMatches, digits: 1 },
  { header: 'KiB per waiting match', value: (run) => run.perWaitingMatchKiB, digits: 1 },
  { header: 'seconds to connect', value: (run) => run.secondsToConnect, digits: 1 },
  { header: 'server processes', value: (run) => run.processes },
];

/**
 * Heap snapshots of a running server for the memory benchmark (BENCH_HEAP_SNAPSHOTS): the server
 * is started with `--heapsnapshot-signal=SIGUSR2 --diagnostic-dir=DIR`, and at each stage of the
 * run (start, with idle connections, with waiting matches) it is signalled and the snapshot read,
 * with cocod's own V8 figures from /metrics (heap committed by space, external memory), so that
 * what grew can be split into the JS heap by constructor (bench/heap-diff.ts) and what lies
 * outside it.
 */
import { closeSync, openSync, readdirSync, readSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { sleep } from './server.js';

/** The Node.js flags that make a server write a heap snapshot into `dir` on SIGUSR2. */
export function heapSnapshotFlags(dir: string): string[] {
  return ['--heapsnapshot-signal=SIGUSR2', `--diagnostic-dir=${dir}`];
}

/** V8's own account of the server's memory at one stage (cocod's /metrics; the relay has none). */
export interface V8Memory {
  /** Bytes V8 holds for the JS heap (all spaces, committed), and those in use. */
  readonly heapTotal: number;
  readonly heapUsed: number;
  /** The young generation's committed bytes (it grows up to --max-semi-space-size under load). */
  readonly newSpaceTotal: number;
  /** Memory of JS objects held outside the heap (Buffers, ArrayBuffers). */
  readonly external: number;
  readonly rss: number;
}

/**
 * Signals the server and waits for its snapshot: complete once the file ends the JSON document
 * (V8 writes it in pieces as it goes).
 */
export async function takeHeapSnapshot(pid: number, dir: string): Promise<string> {
  const before = new Set(readdirSync(dir));
  process.kill(pid, 'SIGUSR2');
  for (let waited = 0; waited <= 120_000; waited += 200) {
    await sleep(200);
    const written = readdirSync(dir).find((name) => name.endsWith('.heapsnapshot') && !before.has(name));
    if (written && endsDocument(join(dir, written))) return join(dir, written);
  }
  throw new Error('the server wrote no complete heap snapshot within 120 s');
}

/** Whether the file's last bytes close the snapshot's JSON object. */
function endsDocument(path: string): boolean {
  const size = statSync(path).size;
  if (size < 2) return false;
  const tail = Buffer.alloc(2);
  const fd = openSync(path, 'r');
  try {
    readSync(fd, tail, 0, 2, size - 2);
  } finally {
    closeSync(fd);
  }
  return tail.toString() === ']}';
}

/** cocod's V8 figures from its /metrics (prom-client's process metrics); null when unavailable. */
export async function readV8Memory(httpUrl: string): Promise<V8Memory | null> {
  const response = await fetch(`${httpUrl}/metrics`, { signal: AbortSignal.timeout(10_000) }).catch(() => null);
  if (!response?.ok) return null;
  const text = await response.text();
  const value = (pattern: RegExp): number => Number(pattern.exec(text)?.[1] ?? NaN);
  return {
    heapTotal: value(/^nodejs_heap_size_total_bytes (\S+)/m),
    heapUsed: value(/^nodejs_heap_size_used_bytes (\S+)/m),
    newSpaceTotal: value(/^nodejs_heap_space_size_total_bytes\{space="new"\} (\S+)/m),
    external: value(/^nodejs_external_memory_bytes (\S+)/m),
    rss: value(/^process_resident_memory_bytes (\S+)/m),
  };
}

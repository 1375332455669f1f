import { Worker } from 'node:worker_threads';
import { availableParallelism } from 'node:os';
import { systemClock, type Clock } from '../util/clock.js';
import { SearchQueue, type TimedSearch } from './search-queue.js';

export type { TimedSearch } from './search-queue.js';

/**
 * Where a bot's heavy search runs. A search that blocked the event loop would stall every other
 * match, so the server runs them on worker threads; tests may run them inline.
 * `module` is a module URL (use `import.meta.url` of a file beside the search), `fn` an exported
 * function of it taking and returning structured-clonable values.
 */
export interface Compute {
  run<T>(module: string, fn: string, args: readonly unknown[]): Promise<T>;
  /**
   * A search bounded by time: its budget counts from now (when the bot was asked for its move),
   * and the search gets its arguments for the time it has left when it starts (search-queue.ts).
   */
  runTimed<T>(module: string, fn: string, search: TimedSearch): Promise<T>;
  close(): Promise<void>;
}

type Searcher = (...args: unknown[]) => unknown;

async function callExport(module: string, fn: string, args: readonly unknown[]): Promise<unknown> {
  const loaded = (await import(module)) as Record<string, unknown>;
  const target = loaded[fn];
  if (typeof target !== 'function') throw new Error(`${module} has no exported function ${fn}`);
  return (target as Searcher)(...args);
}

/** Runs searches in this thread (tests, command-line tools). */
export class InlineCompute implements Compute {
  async run<T>(module: string, fn: string, args: readonly unknown[]): Promise<T> {
    return (await callExport(module, fn, args)) as T;
  }

  /** Runs at once, with the whole budget: nothing else is waiting for this thread. */
  async runTimed<T>(module: string, fn: string, search: TimedSearch): Promise<T> {
    return (await callExport(module, fn, search.args(search.budgetMs))) as T;
  }

  async close(): Promise<void> {}
}

interface Job {
  readonly id: number;
  readonly module: string;
  readonly fn: string;
  /** The arguments, given how long the search may run (Infinity for an untimed one). */
  args(ms: number): readonly unknown[];
  resolve(value: unknown): void;
  reject(error: Error): void;
}

const WORKER_SOURCE = `
const { parentPort } = require('node:worker_threads');
parentPort.on('message', async (job) => {
  try {
    const loaded = await import(job.module);
    const value = await loaded[job.fn](...job.args);
    parentPort.postMessage({ id: job.id, ok: true, value });
  } catch (error) {
    parentPort.postMessage({ id: job.id, ok: false, error: String(error && error.stack || error) });
  }
});`;

/**
 * A fixed pool of worker threads; jobs queue when all are busy, earliest deadline first, and a
 * timed search gets its fair share of the time it has left when a worker takes it (search-queue.ts).
 */
export class WorkerCompute implements Compute {
  private readonly idle: Worker[] = [];
  private readonly all: Worker[] = [];
  private readonly queue: SearchQueue<Job>;
  private readonly running = new Map<Worker, Job>();
  private nextId = 1;
  private closed = false;

  constructor(
    size = Math.max(1, availableParallelism() - 1),
    private readonly clock: Clock = systemClock,
  ) {
    this.queue = new SearchQueue<Job>(size);
    for (let i = 0; i < size; i++) this.spawn();
  }

  run<T>(module: string, fn: string, args: readonly unknown[]): Promise<T> {
    return this.enqueue<T>(module, fn, () => args, null);
  }

  runTimed<T>(module: string, fn: string, search: TimedSearch): Promise<T> {
    return this.enqueue<T>(module, fn, (ms) => search.args(ms), search.budgetMs);
  }

  private enqueue<T>(module: string, fn: string, args: (ms: number) => readonly unknown[], budgetMs: number | null): Promise<T> {
    if (this.closed) return Promise.reject(new Error('compute pool is closed'));
    return new Promise<T>((resolve, reject) => {
      this.queue.add({ id: this.nextId++, module, fn, args, resolve: resolve as (v: unknown) => void, reject }, this.clock.monotonic(), budgetMs);
      this.dispatch();
    });
  }

  async close(): Promise<void> {
    this.closed = true;
    for (const job of this.queue.drain()) job.reject(new Error('compute pool is closed'));
    await Promise.all(this.all.map((worker) => worker.terminate()));
  }

  private spawn(): void {
    const worker = new Worker(WORKER_SOURCE, { eval: true });
    worker.unref();
    worker.on('message', (message: { id: number; ok: boolean; value?: unknown; error?: string }) => {
      const job = this.running.get(worker);
      this.running.delete(worker);
      this.idle.push(worker);
      if (job) {
        if (message.ok) job.resolve(message.value);
        else job.reject(new Error(message.error));
      }
      this.dispatch();
    });
    worker.on('error', (error) => {
      const job = this.running.get(worker);
      this.running.delete(worker);
      job?.reject(error);
      this.all.splice(this.all.indexOf(worker), 1);
      if (!this.closed) this.spawn();
      this.dispatch();
    });
    this.all.push(worker);
    this.idle.push(worker);
  }

  private dispatch(): void {
    while (this.idle.length > 0 && this.queue.length > 0) {
      const taken = this.queue.take(this.clock.monotonic())!;
      const worker = this.idle.pop()!;
      const job = taken.job;
      this.running.set(worker, job);
      let args: readonly unknown[];
      try {
        args = job.args(taken.runMs);
      } catch (error) {
        this.running.delete(worker);
        this.idle.push(worker);
        job.reject(error instanceof Error ? error : new Error(String(error)));
        continue;
      }
      worker.postMessage({ id: job.id, module: job.module, fn: job.fn, args });
    }
  }
}

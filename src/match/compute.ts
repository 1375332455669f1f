import { Worker } from 'node:worker_threads';
import { availableParallelism } from 'node:os';

/**
 * Where a bot's heavy search runs. A search that blocked the event loop would stall every other
 * match, so the server runs them on worker threads; tests may run them inline.
 * `module` is a module URL (use `import.meta.url` of a file beside the search), `fn` an exported
 * function of it taking and returning structured-clonable values.
 */
export interface Compute {
  run<T>(module: string, fn: string, args: readonly unknown[]): Promise<T>;
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

  async close(): Promise<void> {}
}

interface Job {
  readonly id: number;
  readonly module: string;
  readonly fn: string;
  readonly args: readonly unknown[];
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

/** A fixed pool of worker threads; jobs queue when all are busy. */
export class WorkerCompute implements Compute {
  private readonly idle: Worker[] = [];
  private readonly all: Worker[] = [];
  private readonly queue: Job[] = [];
  private readonly running = new Map<Worker, Job>();
  private nextId = 1;
  private closed = false;

  constructor(size = Math.max(1, availableParallelism() - 1)) {
    for (let i = 0; i < size; i++) this.spawn();
  }

  run<T>(module: string, fn: string, args: readonly unknown[]): Promise<T> {
    if (this.closed) return Promise.reject(new Error('compute pool is closed'));
    return new Promise<T>((resolve, reject) => {
      this.queue.push({ id: this.nextId++, module, fn, args, resolve: resolve as (v: unknown) => void, reject });
      this.dispatch();
    });
  }

  async close(): Promise<void> {
    this.closed = true;
    for (const job of this.queue.splice(0)) job.reject(new Error('compute pool is closed'));
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
      const worker = this.idle.pop()!;
      const job = this.queue.shift()!;
      this.running.set(worker, job);
      worker.postMessage({ id: job.id, module: job.module, fn: job.fn, args: job.args });
    }
  }
}

import { Worker } from 'node:worker_threads';
import { err, ok, type Result } from '../../util/result.js';
import type { ReplayImportReply, ReplayImportRequest } from './replay-log-messages.js';

export const REPLAY_IMPORT_LIMITS = {
  /**
   * Imports under way at once, counted from when the upload has arrived whole to the answer
   * (default 2; the body is read before, within its own deadline and budget, request-body.ts):
   * each holds its log in memory (up to the body limit of POST /api/replay-log, 16 MiB), so this
   * bounds that memory; requests beyond it are refused (503), not queued without end.
   */
  concurrentImports: 2,
  /**
   * Heap of the worker thread, in MiB (default 192). A log whose events need more kills the
   * worker (its import is refused with 413), not the server: the whole process must stay within
   * a few hundred MiB however many people upload what.
   */
  workerHeapMb: 192,
} as const;

export interface ReplayLogImporterOptions {
  readonly concurrentImports?: number;
  readonly workerHeapMb?: number;
  /** Called as a log is handed to the worker thread (for tests and logs). */
  readonly onParse?: (bytes: number) => void;
}

/** One admitted import. Release it when its request is done, whatever happened. */
export interface ImportTicket {
  /**
   * Imports the log on the worker thread: the response body `{"vis":[...]}` as JSON bytes, or
   * why the log was refused. Rejects only if the worker thread itself failed.
   */
  run(log: Uint8Array): Promise<Result<Buffer>>;
  release(): void;
}

interface Job {
  readonly id: number;
  readonly log: Uint8Array;
  resolve(result: Result<Buffer>): void;
  reject(error: Error): void;
}

/**
 * Turns replay logs into visualizer events on one worker thread, one log at a time, for POST
 * /api/replay-log. Admission is bounded (`tryAdmit`): the jobs waiting for the thread are at most
 * the admitted imports. The thread starts with the first import and holds the process open only
 * while it has work, as SqliteHistoryStore's does.
 */
export class ReplayLogImporter {
  private worker: Worker | null = null;
  private readonly waiting: Job[] = [];
  private current: Job | null = null;
  private admitted = 0;
  private nextId = 1;
  private closed = false;
  private readonly limit: number;
  private readonly heapMb: number;

  constructor(private readonly options: ReplayLogImporterOptions = {}) {
    this.limit = options.concurrentImports ?? REPLAY_IMPORT_LIMITS.concurrentImports;
    this.heapMb = options.workerHeapMb ?? REPLAY_IMPORT_LIMITS.workerHeapMb;
  }

  /** Imports admitted and not yet released. */
  get imports(): number {
    return this.admitted;
  }

  /** A ticket for one import, or null when `concurrentImports` are already under way. */
  tryAdmit(): ImportTicket | null {
    if (this.closed || this.admitted >= this.limit) return null;
    this.admitted++;
    let released = false;
    return {
      run: (log) => this.enqueue(log),
      release: () => {
        if (released) return;
        released = true;
        this.admitted--;
      },
    };
  }

  async close(): Promise<void> {
    this.closed = true;
    const stopped = new Error('the replay-log importer is closed');
    for (const job of this.waiting.splice(0)) job.reject(stopped);
    this.current?.reject(stopped);
    this.current = null;
    const worker = this.worker;
    this.worker = null;
    await worker?.terminate();
  }

  private enqueue(log: Uint8Array): Promise<Result<Buffer>> {
    if (this.closed) return Promise.reject(new Error('the replay-log importer is closed'));
    return new Promise((resolve, reject) => {
      this.waiting.push({ id: this.nextId++, log, resolve, reject });
      this.dispatch();
    });
  }

  private dispatch(): void {
    if (this.current || this.waiting.length === 0) return;
    const job = this.waiting.shift()!;
    this.current = job;
    const worker = (this.worker ??= this.spawn());
    worker.ref();
    this.options.onParse?.(job.log.byteLength);
    // A log that owns its whole buffer moves to the thread without a copy; a slice of a shared
    // buffer (Node pools small ones) is copied instead, as transferring would take the pool.
    const owns = job.log.byteOffset === 0 && job.log.byteLength === job.log.buffer.byteLength;
    worker.postMessage({ id: job.id, log: job.log } satisfies ReplayImportRequest, owns ? [job.log.buffer as ArrayBuffer] : []);
  }

  private spawn(): Worker {
    const worker = new Worker(new URL('./replay-log-worker.js', import.meta.url), {
      resourceLimits: { maxOldGenerationSizeMb: this.heapMb, maxYoungGenerationSizeMb: 16 },
    });
    worker.on('message', (reply: ReplayImportReply) => {
      const job = this.current;
      if (!job || job.id !== reply.id) return;
      this.finish(reply.ok ? ok(Buffer.from(reply.json.buffer, reply.json.byteOffset, reply.json.byteLength)) : err(reply.error));
    });
    const lost = (error: Error): void => {
      if (this.worker !== worker) return;
      // The next import starts a fresh thread.
      this.worker = null;
      const job = this.current;
      this.current = null;
      job?.reject(error);
      if (!this.closed) this.dispatch();
    };
    worker.on('error', lost);
    worker.on('exit', (code) => lost(new Error(`the replay-log thread exited (code ${code})`)));
    return worker;
  }

  private finish(result: Result<Buffer>): void {
    const job = this.current!;
    this.current = null;
    if (this.waiting.length === 0 && this.worker) {
      // An idle thread is ended so that the few hundred MiB a big log took go back to the system.
      const worker = this.worker;
      this.worker = null;
      void worker.terminate();
    }
    job.resolve(result);
    this.dispatch();
  }
}

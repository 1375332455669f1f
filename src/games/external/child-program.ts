import { spawn, type ChildProcess } from 'node:child_process';
import { killTaggedProcesses, newProcessTag, taggedEnvironment } from '../../util/process-sweep.js';

/**
 * One local program (a game server or a bot) run as a child process without a shell, in a process
 * group of its own and with a tag of its own in its environment (COCO_PROCESS_TAG, inherited by
 * everything it starts), so that `stop()` also ends whatever the program started, even processes
 * that left the group with setsid or setpgid. Every path of its owner ends in `stop()`; it is
 * safe to call more than once.
 */
export interface ChildEvents {
  /** Bytes the program printed on stdout. */
  stdout(chunk: Buffer): void;
  /** Its stdout reached end of file. */
  stdoutEnd(): void;
  /** The program exited (code, or the signal that ended it). */
  exit(code: number | null, signal: NodeJS.Signals | null): void;
  /** It could not be started (no such program, not executable...). */
  spawnError(error: Error): void;
}

/** How much of stderr is kept for error messages (the tail). */
export const STDERR_TAIL_BYTES = 4096;
/** How long `stop()` waits for the exit after SIGKILL before giving up on the event. */
const EXIT_WAIT_MS = 2000;

/**
 * How `stop()` ended: `closed` when the program exited and its output pipes reached their end,
 * `gave-up` when that did not happen within EXIT_WAIT_MS (a process outside our reach still holds
 * a pipe, or the program is stuck in the kernel); the pipes are destroyed on our side either way.
 */
export type StopOutcome = 'closed' | 'gave-up';

export class ChildProgram {
  /** The value of COCO_PROCESS_TAG in the environment of the program and of all it starts. */
  readonly tag = newProcessTag();
  private readonly child: ChildProcess;
  private stopping: Promise<StopOutcome> | null = null;
  private exited = false;
  /** The program and its output pipes are gone ('close'). */
  private closed = false;
  private readonly exitWaiters: (() => void)[] = [];
  private stderrChunks: Buffer[] = [];
  private stderrBytes = 0;

  constructor(argv: readonly string[], cwd: string, events: ChildEvents, options: { keepStderr: boolean }) {
    const [program, ...args] = argv as [string, ...string[]];
    this.child = spawn(program, args, {
      cwd,
      detached: true,
      shell: false,
      env: taggedEnvironment(this.tag),
      stdio: ['pipe', 'pipe', options.keepStderr ? 'pipe' : 'ignore'],
    });
    const { stdin, stdout, stderr } = this.child;
    // A program that exits while we write gives EPIPE; its exit is reported through `exit`.
    stdin!.on('error', () => {});
    stdout!.on('data', (chunk: Buffer) => events.stdout(chunk));
    stdout!.on('end', () => events.stdoutEnd());
    stdout!.on('error', () => {});
    stderr?.on('data', (chunk: Buffer) => this.keepStderr(chunk));
    stderr?.on('error', () => {});
    this.child.on('error', (error) => {
      if (this.child.pid === undefined) {
        this.markClosed();
        events.spawnError(error);
      }
    });
    this.child.on('exit', (code, signal) => {
      this.exited = true;
      events.exit(code, signal);
    });
    // 'close' comes after the exit and the end of its output pipes: stderr is complete then.
    this.child.on('close', () => this.markClosed());
  }

  get pid(): number | undefined {
    return this.child.pid;
  }

  get hasExited(): boolean {
    return this.exited;
  }

  /** Bytes written to stdin that the program has not read yet. */
  get pendingInput(): number {
    return this.child.stdin?.writableLength ?? 0;
  }

  /** Writes to stdin; false when the pipe is full (wait for `drained()`). */
  write(text: string): boolean {
    const stdin = this.child.stdin;
    if (!stdin || stdin.destroyed || stdin.writableEnded) return true;
    return stdin.write(text);
  }

  /** Resolves when stdin can take more (at once if it can, or if the program is gone). */
  drained(): Promise<void> {
    const stdin = this.child.stdin;
    if (!stdin || !stdin.writableNeedDrain || this.exited) return Promise.resolve();
    return new Promise((resolve) => {
      const done = (): void => {
        stdin.off('drain', done);
        stdin.off('close', done);
        resolve();
      };
      stdin.on('drain', done);
      stdin.on('close', done);
    });
  }

  /** The last bytes the program wrote to stderr (empty when stderr is not kept). */
  stderrTail(): string {
    return Buffer.concat(this.stderrChunks).subarray(-STDERR_TAIL_BYTES).toString('utf8');
  }

  /**
   * Kills the program and everything it started, and resolves once the program and its pipes are
   * gone. First its process group (cheap, and it holds every process that stayed in it), then
   * every process that carries its tag (those that left the group: setsid, setpgid). Called on
   * every path, even after the program exited by itself, because its children may live on.
   */
  stop(): Promise<StopOutcome> {
    this.stopping ??= this.stopOnce();
    return this.stopping;
  }

  private async stopOnce(): Promise<StopOutcome> {
    const pid = this.child.pid;
    this.child.stdin?.destroy();
    if (pid !== undefined) {
      try {
        process.kill(-pid, 'SIGKILL');
      } catch {
        // The group is already gone.
      }
      if (!this.exited) {
        try {
          this.child.kill('SIGKILL');
        } catch {
          // Already gone.
        }
      }
      // Tidying must not keep the match from ending: a failing sweep is as good as none.
      await killTaggedProcesses(this.tag).catch(() => undefined);
    }
    const outcome = this.closed ? 'closed' : await this.closedOrGaveUp();
    // A process the sweep could not reach may still hold the other end: our ends must not stay open.
    this.child.stdout?.destroy();
    this.child.stderr?.destroy();
    return outcome;
  }

  private closedOrGaveUp(): Promise<StopOutcome> {
    return new Promise((resolve) => {
      const timer = setTimeout(() => resolve('gave-up'), EXIT_WAIT_MS);
      this.exitWaiters.push(() => {
        clearTimeout(timer);
        resolve('closed');
      });
    });
  }

  private markClosed(): void {
    this.exited = true;
    if (this.closed) return;
    this.closed = true;
    for (const wake of this.exitWaiters.splice(0)) wake();
  }

  private keepStderr(chunk: Buffer): void {
    this.stderrChunks.push(chunk);
    this.stderrBytes += chunk.length;
    while (this.stderrBytes - this.stderrChunks[0]!.length >= STDERR_TAIL_BYTES) {
      this.stderrBytes -= this.stderrChunks.shift()!.length;
    }
    if (this.stderrBytes > STDERR_TAIL_BYTES * 2) {
      const whole = Buffer.concat(this.stderrChunks).subarray(-STDERR_TAIL_BYTES);
      this.stderrChunks = [whole];
      this.stderrBytes = whole.length;
    }
  }
}

import { spawn, type ChildProcess } from 'node:child_process';

/**
 * One local program (a game server or a bot) run as a child process without a shell, in a process
 * group of its own so that `stop()` also ends whatever the program started. Every path of its
 * owner ends in `stop()`; it is safe to call more than once.
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

export class ChildProgram {
  private readonly child: ChildProcess;
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
   * Kills the program's whole process group and resolves once the program and its pipes are gone. Called on
   * every path, even after the program exited by itself, because its children may live on.
   */
  async stop(): Promise<void> {
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
    }
    if (this.closed) return;
    await new Promise<void>((resolve) => {
      const timer = setTimeout(resolve, EXIT_WAIT_MS);
      this.exitWaiters.push(() => {
        clearTimeout(timer);
        resolve();
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

import { spawn, spawnSync, type ChildProcess, type StdioOptions } from 'node:child_process';
import { closeSync, createReadStream, createWriteStream, mkdtempSync, openSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { PassThrough, type Readable, type Writable } from 'node:stream';
import { killTaggedProcesses, newProcessTag, taggedEnvironment } from '../util/process-sweep.js';

/**
 * The local end of `coco connect`: where the game stream goes to (the program's input) and
 * comes from (its output). A channel is only a transport; it never looks at the bytes.
 */
export interface ProgramChannel {
  /** Bytes from the server are written here. */
  readonly input: Writable;
  /** Bytes for the server are read from here; null when spectating. */
  readonly output: Readable | null;
  /**
   * Resolves with the program's exit code (null if killed by a signal) once it exited and
   * whatever it left running was killed; rejects when it cannot be started.
   */
  readonly exited: Promise<number | null>;
  /**
   * Resolves once the program runs, rejects with the system's error (ENOENT, EACCES) when it
   * cannot be started: coco checks this before it takes a seat.
   */
  readonly started: Promise<void>;
  /**
   * Ends the program now if it still runs (its whole process group: SIGTERM, then SIGKILL after
   * STOP_GRACE_MS), kills what it left running, and removes what the channel created. Resolves
   * when that is done; safe to call more than once and after the program exited.
   */
  stop(): Promise<void>;
}

export const CHANNELS = ['stdio', 'pipe'] as const;
export type ChannelKind = (typeof CHANNELS)[number];

/**
 * How long a program told to stop (SIGTERM to its process group) has to exit before its group is
 * killed (SIGKILL). Short: it is asked only when coco itself is leaving, or the match is over.
 */
export const STOP_GRACE_MS = 2_000;

/**
 * Where the program's stderr goes: coco's own stderr (`coco connect`, as the reference client
 * does), nowhere (a tournament keeps its players' chatter off its results, as cutechess-cli
 * does), or the end of a file (a tournament's log per player).
 */
export type StderrTarget = { readonly kind: 'inherit' } | { readonly kind: 'ignore' } | { readonly kind: 'file'; readonly path: string };

export const STDERR_INHERIT: StderrTarget = { kind: 'inherit' };

/** What spawn takes for `target`, and what to close once the child has it. */
function stderrStdio(target: StderrTarget): { io: 'inherit' | 'ignore' | number; close: () => void } {
  if (target.kind !== 'file') return { io: target.kind, close: () => {} };
  const fd = openSync(target.path, 'a');
  return { io: fd, close: () => closeSync(fd) };
}

interface StartedProgram {
  readonly child: ChildProcess;
  readonly exited: Promise<number | null>;
  readonly started: Promise<void>;
  stop(): Promise<void>;
}

/**
 * Starts the user's program in a process group of its own (it leads it), with a tag of its own in
 * its environment (COCO_PROCESS_TAG, see util/process-sweep.ts).
 *
 * Why a group: most QTP engines and many bots never exit at the end of their input, and coco may
 * be ended by a signal (the terminal closing, Ctrl-C, a job runner's SIGTERM): then coco, not the
 * terminal, must end the program and what it started, or they live on orphaned. A group lets coco
 * signal all of them at once (gently first); the tag sweep then reaches those that left the group
 * (setsid, setpgid). Since the program is no longer in the terminal's foreground group, Ctrl-C
 * reaches coco only, which passes it on as the stop sequence.
 */
function startTagged(argv: readonly string[], stdio: (stderr: 'inherit' | 'ignore' | number) => StdioOptions, stderr: StderrTarget, env: NodeJS.ProcessEnv = process.env): StartedProgram {
  const tag = newProcessTag();
  const errors = stderrStdio(stderr);
  let child: ChildProcess;
  try {
    child = spawn(argv[0]!, argv.slice(1), { stdio: stdio(errors.io), env: taggedEnvironment(tag, env), detached: true });
  } finally {
    // The child holds its own copy of the file's descriptor.
    errors.close();
  }
  let exitedNow = false;
  const exitedRaw = new Promise<number | null>((resolve, reject) => {
    child.once('error', (error) => {
      // 'error' also reports a failed kill; only a failed start leaves the child without a pid.
      if (child.pid === undefined) {
        exitedNow = true;
        reject(error);
      }
    });
    child.once('exit', (code) => {
      exitedNow = true;
      resolve(code);
    });
  });
  // Whatever it left running goes with it (the tag reaches processes outside the group too).
  const exited = exitedRaw.then(async (code) => {
    signalGroup(child, 'SIGKILL');
    await killTaggedProcesses(tag).catch(() => undefined);
    return code;
  });
  exited.catch(() => {}); // a failed start is reported to whoever awaits `exited`
  const started = new Promise<void>((resolve, reject) => {
    child.once('spawn', () => resolve());
    exitedRaw.catch(reject);
  });
  started.catch(() => {}); // likewise, to whoever awaits `started`
  let stopping: Promise<void> | null = null;
  const stopOnce = async (): Promise<void> => {
    if (child.pid === undefined) return;
    if (!exitedNow) {
      signalGroup(child, 'SIGTERM');
      let timer: NodeJS.Timeout | undefined;
      const late = new Promise<'late'>((resolve) => (timer = setTimeout(() => resolve('late'), STOP_GRACE_MS)));
      const outcome = await Promise.race([exitedRaw.catch(() => null), late]);
      clearTimeout(timer);
      if (outcome === 'late') signalGroup(child, 'SIGKILL');
    }
    // Members of the group that outlived its leader, and processes that left it.
    signalGroup(child, 'SIGKILL');
    await exited.catch(() => undefined);
    await killTaggedProcesses(tag).catch(() => undefined);
  };
  return {
    child,
    exited,
    started,
    stop: () => (stopping ??= stopOnce()),
  };
}

/** Sends `signal` to the program's process group (its pid: it leads the group). */
function signalGroup(child: ChildProcess, signal: NodeJS.Signals): void {
  if (child.pid === undefined) return;
  try {
    process.kill(-child.pid, signal);
  } catch {
    // ESRCH: the group is empty, which is what we wanted.
  }
}

/** The program's stdin and stdout carry the stream; its stderr goes to `stderr` (the terminal by default). */
export function startStdioProgram(argv: readonly string[], spectating: boolean, stderr: StderrTarget = STDERR_INHERIT): ProgramChannel {
  const { child, exited, started, stop } = startTagged(argv, (errors) => ['pipe', spectating ? 'inherit' : 'pipe', errors], stderr);
  child.stdin!.on('error', () => {}); // the program may stop reading; that is its business
  child.stdout?.on('error', () => {});
  return {
    input: child.stdin!,
    output: spectating ? null : child.stdout!,
    exited,
    started,
    stop: async () => {
      await stop();
      // A process out of our reach may still hold the pipe: our ends must not keep coco alive.
      child.stdin!.destroy();
      child.stdout?.destroy();
    },
  };
}

/**
 * Two named pipes in a private temporary folder, passed as COCO_PIPEIN (the program reads) and
 * COCO_PIPEOUT (the program writes; absent when spectating). Resolves once the program has
 * opened both, which is when it counts as started.
 */
export async function startPipeProgram(argv: readonly string[], spectating: boolean, signal?: AbortSignal, stderr: StderrTarget = STDERR_INHERIT): Promise<ProgramChannel> {
  const folder = mkdtempSync(join(tmpdir(), 'coco-'));
  const pipeIn = join(folder, 'in');
  const pipeOut = join(folder, 'out');
  const fifos = spectating ? [pipeIn] : [pipeIn, pipeOut];
  // Node has no mkfifo; the POSIX command is on every system that has named pipes.
  const made = spawnSync('mkfifo', ['-m', '600', ...fifos]);
  if (made.status !== 0) {
    rmSync(folder, { recursive: true, force: true });
    throw new Error(`cannot create named pipes: ${made.stderr?.toString().trim() || made.error?.message}`);
  }
  const env = { ...process.env, COCO_PIPEIN: pipeIn, ...(spectating ? {} : { COCO_PIPEOUT: pipeOut }) };
  const started = startTagged(argv, (errors) => ['inherit', 'inherit', errors], stderr, env);
  const cleanup = (): void => rmSync(folder, { recursive: true, force: true });
  // Opening a FIFO waits for the other end: both opens complete once the program opened its ends.
  const input = createWriteStream(pipeIn);
  input.on('error', () => {});
  const output = spectating ? null : createReadStream(pipeOut);
  output?.on('error', () => {});
  const opened = Promise.all([
    new Promise((resolve) => input.once('open', resolve)),
    output ? new Promise((resolve) => output.once('open', resolve)) : Promise.resolve(),
  ]);
  const early = started.exited.then((code) => {
    throw new Error(`the program exited (code ${code}) before opening its pipes`);
  });
  early.catch(() => {});
  // coco told to leave while the program has not opened its pipes yet.
  const leaving = new Promise<never>((_, reject) => {
    if (signal?.aborted) reject(new Error(`stopped by ${String(signal.reason)}`));
    signal?.addEventListener('abort', () => reject(new Error(`stopped by ${String(signal.reason)}`)), { once: true });
  });
  leaving.catch(() => {});
  try {
    await Promise.race([opened, early, leaving]);
  } catch (error) {
    // Node's FIFO opens sit in the thread pool until the other end opens: unblock them, or the
    // process cannot end.
    unblockOpens(pipeIn, output ? pipeOut : null);
    input.destroy();
    output?.destroy();
    await started.stop();
    cleanup();
    throw error;
  }
  return {
    input,
    output,
    exited: started.exited,
    // Resolved: the program has opened its pipes by now.
    started: Promise.resolve(),
    stop: async () => {
      await started.stop();
      input.destroy();
      output?.destroy();
      cleanup();
    },
  };
}

/** Opens the other ends of the FIFOs (non-blocking where possible) so pending opens complete. */
function unblockOpens(pipeIn: string, pipeOut: string | null): void {
  // Reading end of `in` with O_NONBLOCK succeeds at once and completes our pending write open.
  const reader = createReadStream(pipeIn, { flags: 'r+' });
  reader.on('open', () => reader.destroy());
  reader.on('error', () => {});
  if (pipeOut !== null) {
    const writer = createWriteStream(pipeOut, { flags: 'r+' });
    writer.on('open', () => writer.destroy());
    writer.on('error', () => {});
  }
}

/**
 * No program: coco's own stdin and stdout carry the stream. The "program" is done when the stream
 * to it has been written out; coco's stdout itself stays open for its status lines.
 */
export function ownStdio(spectating: boolean): ProgramChannel {
  const input = new PassThrough();
  input.pipe(process.stdout, { end: false });
  return {
    input,
    output: spectating ? null : process.stdin,
    // Done when the stream to it is written out, or (playing) when coco's own input ends: the
    // user has nothing more to send.
    exited: new Promise((resolve) => {
      input.once('end', () => resolve(0));
      if (!spectating) process.stdin.once('end', () => resolve(0));
    }),
    started: Promise.resolve(),
    stop: async () => {
      process.stdin.destroy();
    },
  };
}

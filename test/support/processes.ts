import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

/** The repository root (tests run from dist/test/...). */
export const ROOT = fileURLToPath(new URL('../../../', import.meta.url));
export const COCOD = join(ROOT, 'dist/src/cli/cocod.js');
export const COCO = join(ROOT, 'dist/src/cli/coco.js');

/**
 * Every child started here that has not exited yet. The runner ends a test file that runs past its
 * timeout with SIGTERM, which skips the `after` hooks: the children are stopped here instead, so a
 * hung file leaves no server listening behind it.
 */
const living = new Set<ChildProcess>();
process.once('SIGTERM', () => {
  for (const child of living) child.kill('SIGKILL');
  process.exit(143);
});

/** Kills `child` if the test file is stopped before it exits (see `living`). */
export function trackChild(child: ChildProcess): void {
  living.add(child);
  child.once('exit', () => living.delete(child));
}

export interface ServerProcess {
  readonly url: string;
  readonly port: number;
  readonly databaseFile: string;
  /** The messages the server logged so far, one a line. */
  log(): string;
  /** Its stderr as written (JSON lines). */
  rawLog(): string;
  /** Sends a signal to the server process. */
  kill(signal: NodeJS.Signals): void;
  /** Resolves with the exit code (null after a signal) when the process has exited. */
  readonly exited: Promise<number | null>;
  /** Resolves when the log contains `pattern`; rejects if the server exits first. */
  waitForLog(pattern: RegExp): Promise<RegExpMatchArray>;
  /**
   * Resolves once match `id` is in the history (the lobby logs it after the write). Its players
   * hear that it ended only after that, but its spectators and other clients may not.
   */
  recorded(id: string): Promise<void>;
  stop(): Promise<void>;
}

/**
 * Starts `cocod` as a child process on a free port with a fresh history file, or `databaseFile`;
 * `null`: no `-d` at all (the arguments choose the history, e.g. `--postgres URL`).
 */
export async function startServer(extraArgs: readonly string[] = [], databaseFile?: string | null): Promise<ServerProcess> {
  const dir = mkdtempSync(join(tmpdir(), 'cocod-test-'));
  const database = databaseFile ?? join(dir, 'history.sqlite');
  const child = spawn(process.execPath, [COCOD, '-p', '0', ...(databaseFile === null ? [] : ['-d', database]), '-v', 'master', ...extraArgs], {
    stdio: ['ignore', 'ignore', 'pipe'],
  });
  trackChild(child);
  let log = '';
  let raw = '';
  let partial = '';
  const waiters: { pattern: RegExp; resolve: (m: RegExpMatchArray) => void }[] = [];
  child.stderr!.setEncoding('utf8');
  child.stderr!.on('data', (chunk: string) => {
    // cocod logs one JSON object a line; the tests read the messages as plain lines.
    raw += chunk;
    const lines = (partial + chunk).split('\n');
    partial = lines.pop()!;
    for (const line of lines) log += `${plainLogLine(line)}\n`;
    for (const waiter of [...waiters]) {
      const found = log.match(waiter.pattern);
      if (found) {
        waiters.splice(waiters.indexOf(waiter), 1);
        waiter.resolve(found);
      }
    }
  });
  const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
  const waitForLog = (pattern: RegExp): Promise<RegExpMatchArray> => {
    const found = log.match(pattern);
    if (found) return Promise.resolve(found);
    return new Promise((resolve, reject) => {
      waiters.push({ pattern, resolve });
      exited.then(() => reject(new Error(`cocod exited before logging ${pattern}:\n${log}`)));
    });
  };
  const [, url, port] = await waitForLog(/listening on (ws:\/\/[^:]+:(\d+)\/)/);
  return {
    url: url!,
    port: Number(port),
    databaseFile: database,
    log: () => log,
    rawLog: () => raw,
    waitForLog,
    kill: (signal) => void child.kill(signal),
    exited,
    recorded: async (id) => {
      await waitForLog(new RegExp(`match ${id} recorded`));
    },
    stop: async () => {
      child.kill('SIGTERM');
      await exited;
      if (!databaseFile) rmSync(dir, { recursive: true, force: true });
    },
  };
}

/** `msg` of a pino JSON line, or the line as it is when it is not one. */
export function plainLogLine(line: string): string {
  try {
    const event = JSON.parse(line) as { msg?: unknown };
    if (typeof event.msg === 'string') return event.msg;
  } catch {
    // Not JSON: a line Node.js itself wrote (a warning, a crash).
  }
  return line;
}

export interface Finished {
  readonly code: number | null;
  readonly stdout: string;
  readonly stderr: string;
}

export interface RunningCoco {
  readonly child: ChildProcess;
  /** Resolves when stdout contains `pattern`. */
  waitForOutput(pattern: RegExp): Promise<void>;
  /** Resolves with the match once stderr contains `pattern`. */
  waitForStderr(pattern: RegExp): Promise<RegExpMatchArray>;
  readonly done: Promise<Finished>;
}

/** Runs `coco -s URL ARGS...` as a child process. */
export function startCoco(url: string, args: readonly string[], options: { env?: NodeJS.ProcessEnv; input?: string } = {}): RunningCoco {
  const child = spawn(process.execPath, [COCO, '-s', url, ...args], { env: { ...process.env, ...options.env }, stdio: ['pipe', 'pipe', 'pipe'] });
  trackChild(child);
  let stdout = '';
  let stderr = '';
  const waiters: { pattern: RegExp; resolve: () => void }[] = [];
  child.stdout!.setEncoding('utf8');
  child.stderr!.setEncoding('utf8');
  child.stdout!.on('data', (chunk: string) => {
    stdout += chunk;
    for (const waiter of [...waiters]) {
      if (waiter.pattern.test(stdout)) {
        waiters.splice(waiters.indexOf(waiter), 1);
        waiter.resolve();
      }
    }
  });
  const stderrWaiters: { pattern: RegExp; resolve: (found: RegExpMatchArray) => void }[] = [];
  child.stderr!.on('data', (chunk: string) => {
    stderr += chunk;
    for (const waiter of [...stderrWaiters]) {
      const found = stderr.match(waiter.pattern);
      if (found) {
        stderrWaiters.splice(stderrWaiters.indexOf(waiter), 1);
        waiter.resolve(found);
      }
    }
  });
  if (options.input !== undefined) child.stdin!.end(options.input);
  const done = new Promise<Finished>((resolve) => child.once('close', (code) => resolve({ code, stdout, stderr })));
  return {
    child,
    done,
    waitForOutput: (pattern) =>
      pattern.test(stdout)
        ? Promise.resolve()
        : new Promise((resolve, reject) => {
            waiters.push({ pattern, resolve });
            done.then((f) => reject(new Error(`coco ended before printing ${pattern}: ${JSON.stringify(f)}`)));
          }),
    waitForStderr: (pattern) => {
      const found = stderr.match(pattern);
      if (found) return Promise.resolve(found);
      return new Promise((resolve, reject) => {
        stderrWaiters.push({ pattern, resolve });
        done.then((f) => reject(new Error(`coco ended before ${pattern} on stderr: ${JSON.stringify(f)}`)));
      });
    },
  };
}

export function coco(url: string, args: readonly string[], options: { env?: NodeJS.ProcessEnv; input?: string } = {}): Promise<Finished> {
  return startCoco(url, args, { input: '', ...options }).done;
}

/** `coco new ...` that must succeed; returns the match id. */
export async function newMatch(url: string, args: readonly string[]): Promise<string> {
  const result = await coco(url, ['new', ...args]);
  if (result.code !== 0) throw new Error(`coco new failed: ${result.stderr}`);
  return result.stdout.trim();
}

/** Runs `cocod ARGS...` to its end (for its refusals: a busy port, a bad option). */
export function runCocod(args: readonly string[]): Promise<Finished> {
  const child = spawn(process.execPath, [COCOD, ...args], { stdio: ['ignore', 'pipe', 'pipe'] });
  trackChild(child);
  let stdout = '';
  let stderr = '';
  child.stdout!.setEncoding('utf8').on('data', (chunk: string) => (stdout += chunk));
  child.stderr!.setEncoding('utf8').on('data', (chunk: string) => (stderr += chunk));
  return new Promise((resolve) => child.once('close', (code) => resolve({ code, stdout, stderr })));
}

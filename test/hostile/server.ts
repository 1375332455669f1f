import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { COCOD, ROOT, plainLogLine } from '../support/processes.js';

/** The master password of verified matches; attacks guess others, never this one. */
export const MASTER_PASSWORD = 'the-real-master-7f3a';
/** The Software-Challenge administrators' passphrase. */
export const SOCHA_PASSWORD = 'the-real-socha-9c1e';
/** Every wrong password an attack tries starts with this, so the log can be searched for it. */
export const WRONG_PASSWORD_PREFIX = 'WRONG-guess-';
/** The external games the server registers (connect4, lowest-unique). */
export const EXTERNAL_GAMES = join(ROOT, 'examples/external');

export interface Exit {
  readonly code: number | null;
  readonly signal: NodeJS.Signals | null;
}

/**
 * A `cocod` child process with every front door open (WebSocket and HTTP, the clobber port, the
 * Software-Challenge port with an administrator passphrase, the external example games) on
 * 127.0.0.1, with a fresh SQLite history file. Unlike test/support's server it exposes the pid
 * (for /proc), whether it is alive and how it ended.
 */
export class HostileServer {
  private logText = '';
  private readonly waiters: { pattern: RegExp; resolve: (m: RegExpMatchArray) => void; reject: (e: Error) => void }[] = [];
  private exitInfo: Exit | null = null;
  private readonly lineListeners = new Set<(line: string) => void>();
  /** Where the first line not yet given to line listeners starts. */
  private linesSeen = 0;
  /** Resolves when the process has exited, for whatever reason. */
  readonly exited: Promise<Exit>;

  private constructor(
    private readonly child: ChildProcess,
    private readonly dir: string,
  ) {
    child.stderr!.setEncoding('utf8');
    child.stderr!.on('data', (chunk: string) => {
      this.logText += chunk;
      this.emitLines();
      for (const waiter of [...this.waiters]) {
        const found = this.logText.match(waiter.pattern);
        if (found) {
          this.waiters.splice(this.waiters.indexOf(waiter), 1);
          waiter.resolve(found);
        }
      }
    });
    this.exited = new Promise((resolve) =>
      child.once('exit', (code, signal) => {
        this.exitInfo = { code, signal };
        for (const waiter of this.waiters.splice(0)) waiter.reject(new Error(`cocod exited (${code ?? signal}) before logging ${waiter.pattern}`));
        resolve(this.exitInfo);
      }),
    );
  }

  wsPort = 0;
  clobberPort = 0;
  sochaPort = 0;

  static async start(extraArgs: readonly string[] = []): Promise<HostileServer> {
    const dir = mkdtempSync(join(tmpdir(), 'cocod-hostile-'));
    const args = [
      // The flag of `npm start`: the server as users run it.
      '--max-semi-space-size=16',
      COCOD,
      '-b', '127.0.0.1',
      '-p', '0',
      '-d', join(dir, 'history.sqlite'),
      '-v', MASTER_PASSWORD,
      '--clobber-port', '0',
      '--socha-port', '0',
      '--socha-password', SOCHA_PASSWORD,
      // Rooms of the port live until their players end them: the attacks decide when.
      '--socha-hard-timeout', '600',
      '--games', EXTERNAL_GAMES,
      ...extraArgs,
    ];
    const child = spawn(process.execPath, args, { stdio: ['ignore', 'ignore', 'pipe'] });
    const server = new HostileServer(child, dir);
    try {
      const [, clobber] = await server.waitForLog(/clobber tournament port listening on [^:]+:(\d+)/);
      const [, socha] = await server.waitForLog(/socha port listening on [^:]+:(\d+)/);
      const [, ws] = await server.waitForLog(/listening on ws:\/\/[^:]+:(\d+)\//);
      server.clobberPort = Number(clobber);
      server.sochaPort = Number(socha);
      server.wsPort = Number(ws);
    } catch (error) {
      await server.stop();
      throw error;
    }
    return server;
  }

  get pid(): number {
    return this.child.pid!;
  }

  get url(): string {
    return `ws://127.0.0.1:${this.wsPort}/`;
  }

  get alive(): boolean {
    return this.exitInfo === null;
  }

  get exit(): Exit | null {
    return this.exitInfo;
  }

  log(): string {
    return this.logText;
  }

  /** Resolves when the log contains `pattern` (from the start); rejects if the server exits first. */
  waitForLog(pattern: RegExp): Promise<RegExpMatchArray> {
    const found = this.logText.match(pattern);
    if (found) return Promise.resolve(found);
    if (!this.alive) return Promise.reject(new Error(`cocod has exited; ${pattern} not in its log`));
    return new Promise((resolve, reject) => this.waiters.push({ pattern, resolve, reject }));
  }

  /**
   * Calls `listener` with the message of every complete log line from now on (for attacks that wait for one line
   * per connection: matching each against the whole log would be quadratic). Returns the unsubscribe.
   */
  onLine(listener: (line: string) => void): () => void {
    this.lineListeners.add(listener);
    return () => this.lineListeners.delete(listener);
  }

  private emitLines(): void {
    for (;;) {
      const end = this.logText.indexOf('\n', this.linesSeen);
      if (end === -1) return;
      const line = this.logText.slice(this.linesSeen, end);
      this.linesSeen = end + 1;
      const message = plainLogLine(line);
      for (const listener of this.lineListeners) listener(message);
    }
  }

  /** Sends the process a signal (an attack that stops the server under load); when it exits, `exited` says how. */
  signal(signal: NodeJS.Signals): void {
    if (this.alive) this.child.kill(signal);
  }

  /** Stops the server (SIGTERM, then SIGKILL if it does not go) and removes its files. */
  async stop(): Promise<void> {
    if (this.alive) {
      this.child.kill('SIGTERM');
      // Shutting down records every running match; a server that hangs instead is killed.
      const timer = setTimeout(() => this.child.kill('SIGKILL'), 20_000);
      await this.exited;
      clearTimeout(timer);
    }
    rmSync(this.dir, { recursive: true, force: true });
  }
}

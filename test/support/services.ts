import { spawn, type ChildProcess } from 'node:child_process';
import { chownSync, existsSync, mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir, userInfo } from 'node:os';
import { join } from 'node:path';
import { trackChild } from './processes.js';

/**
 * Real Redis, PostgreSQL and HAProxy servers for the tests: each started from Debian's packages
 * (scripts/setup-test-deps.sh installs them) on loopback, on a free port, with its data in a fresh
 * temporary directory, and stopped (directory removed) by `stop()`. A test file that the runner
 * stops leaves none behind: the children are tracked like cocod's (test/support/processes.ts).
 */

/** A TCP port nobody listens on right now (the kernel's choice, released for the server to take). */
export async function freePort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(0, '127.0.0.1', resolve);
  });
  const address = server.address();
  await new Promise((resolve) => server.close(resolve));
  if (address === null || typeof address === 'string') throw new Error('no port from the kernel');
  return address.port;
}

/** Starts a server process and resolves when `ready` shows in its output; rejects if it exits first. */
function startUntil(command: string, args: readonly string[], ready: RegExp, name: string): Promise<ChildProcess> {
  const child = spawn(command, args, { stdio: ['ignore', 'pipe', 'pipe'] });
  trackChild(child);
  let output = '';
  return new Promise((resolve, reject) => {
    const seen = (chunk: Buffer): void => {
      output += chunk.toString('utf8');
      if (ready.test(output)) {
        child.stdout!.off('data', seen);
        child.stderr!.off('data', seen);
        // Keep draining: a full pipe would block the server.
        child.stdout!.resume();
        child.stderr!.resume();
        resolve(child);
      }
    };
    child.stdout!.on('data', seen);
    child.stderr!.on('data', seen);
    child.once('error', (error) => reject(new Error(`${name} could not start (${error.message}); scripts/setup-test-deps.sh installs it`)));
    child.once('exit', (code, signal) => reject(new Error(`${name} exited (${code ?? signal}) before it was ready:\n${output}`)));
  });
}

function stopChild(child: ChildProcess, signal: NodeJS.Signals): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return Promise.resolve();
  return new Promise((resolve) => {
    child.once('exit', () => resolve());
    child.kill(signal);
  });
}

export interface RedisServer {
  /** redis://127.0.0.1:PORT */
  readonly url: string;
  readonly port: number;
  /** The redis-server process now (for the benchmark's CPU figures); null while halted. */
  pid(): number | null;
  /**
   * Stops the server and starts it again on the same port: its data is gone, unless it was
   * started with `persist` (then what it had written to its append-only file comes back).
   */
  restart(): Promise<void>;
  /** Stops the server, removes whatever it kept on disk, and starts it again: always empty. */
  restartEmpty(): Promise<void>;
  /** Stops the server until `start()`; clients see the connection refused meanwhile. */
  halt(): Promise<void>;
  start(): Promise<void>;
  stop(): Promise<void>;
}

/**
 * Starts redis-server on a free loopback port, persisting nothing; with `persist`, every write
 * goes to an append-only file first (fsync always), so that `restart()` keeps the data.
 */
export async function startRedis(options: { persist?: boolean } = {}): Promise<RedisServer> {
  const dir = mkdtempSync(join(tmpdir(), 'coco-redis-'));
  const port = await freePort();
  const persistence = options.persist ? ['--appendonly', 'yes', '--appendfsync', 'always'] : ['--appendonly', 'no'];
  const args = ['--port', String(port), '--bind', '127.0.0.1', '--save', '', ...persistence, '--dir', dir, '--daemonize', 'no'];
  let child: ChildProcess | null = null;
  const start = async (): Promise<void> => {
    if (child === null) child = await startUntil('redis-server', args, /Ready to accept connections/, 'redis-server');
  };
  const halt = async (): Promise<void> => {
    if (child !== null) await stopChild(child, 'SIGTERM');
    child = null;
  };
  await start();
  return {
    url: `redis://127.0.0.1:${port}`,
    port,
    pid: () => (child as ChildProcess | null)?.pid ?? null,
    start,
    halt,
    restart: async () => {
      await halt();
      await start();
    },
    restartEmpty: async () => {
      await halt();
      for (const name of readdirSync(dir)) rmSync(join(dir, name), { recursive: true, force: true });
      await start();
    },
    stop: async () => {
      await halt();
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

export interface PostgresServer {
  readonly port: number;
  /** postgres://coco@127.0.0.1:PORT/DATABASE */
  url(database: string): string;
  /** Creates an empty database and returns its URL. */
  createDatabase(name: string): Promise<string>;
  /** Stops the server (its data stays) until `start()`. */
  halt(): Promise<void>;
  start(): Promise<void>;
  stop(): Promise<void>;
}

/** The newest Debian PostgreSQL's programs (COCO_TEST_PG_BIN overrides). */
function postgresBin(): string {
  const given = process.env['COCO_TEST_PG_BIN'];
  if (given) return given;
  const versions = existsSync('/usr/lib/postgresql') ? readdirSync('/usr/lib/postgresql').filter((v) => /^\d+$/.test(v)) : [];
  versions.sort((a, b) => Number(b) - Number(a));
  if (versions.length === 0) throw new Error('PostgreSQL is not installed (/usr/lib/postgresql/*/bin); scripts/setup-test-deps.sh installs it');
  return `/usr/lib/postgresql/${versions[0]}/bin`;
}

/**
 * PostgreSQL refuses to run as root: as root, its programs run as the `postgres` user that
 * Debian's package creates (setpriv execs them, so signals reach the server itself).
 */
function asServerUser(program: string, args: readonly string[]): [string, string[]] {
  if (userInfo().uid !== 0) return [program, [...args]];
  return ['setpriv', ['--reuid=postgres', '--regid=postgres', '--init-groups', '--', program, ...args]];
}

function run(command: string, args: readonly string[]): Promise<void> {
  return new Promise((resolve, reject) => {
    const child = spawn(command, args, { stdio: ['ignore', 'ignore', 'pipe'] });
    trackChild(child);
    let errors = '';
    child.stderr!.on('data', (chunk: Buffer) => (errors += chunk.toString('utf8')));
    child.once('error', reject);
    child.once('exit', (code) => (code === 0 ? resolve() : reject(new Error(`${command} ${args.join(' ')} failed (${code}): ${errors}`))));
  });
}

/**
 * Starts a PostgreSQL server on a free loopback port with a fresh cluster (user `coco`, trust
 * authentication on loopback only, no fsync: test data need not survive a power cut).
 */
export async function startPostgres(): Promise<PostgresServer> {
  const bin = postgresBin();
  const dir = mkdtempSync(join(tmpdir(), 'coco-postgres-'));
  if (userInfo().uid === 0) {
    const { execFileSync } = await import('node:child_process');
    const uid = Number(execFileSync('id', ['-u', 'postgres'], { encoding: 'utf8' }).trim());
    const gid = Number(execFileSync('id', ['-g', 'postgres'], { encoding: 'utf8' }).trim());
    chownSync(dir, uid, gid);
  }
  const data = join(dir, 'data');
  await run(...asServerUser(join(bin, 'initdb'), ['-D', data, '-U', 'coco', '-A', 'trust', '--no-sync', '-E', 'UTF8', '--locale=C']));
  const port = await freePort();
  const serverArgs = ['-D', data, '-k', dir, '-h', '127.0.0.1', '-p', String(port), '-c', 'fsync=off', '-c', 'synchronous_commit=off', '-c', 'full_page_writes=off'];
  let child: ChildProcess | null = null;
  const start = async (): Promise<void> => {
    if (child === null) child = await startUntil(...asServerUser(join(bin, 'postgres'), serverArgs), /ready to accept connections/, 'postgres');
  };
  // SIGINT: PostgreSQL's fast shutdown (ends sessions, no waiting for clients to leave).
  const halt = async (): Promise<void> => {
    if (child !== null) await stopChild(child, 'SIGINT');
    child = null;
  };
  await start();
  const url = (database: string): string => `postgres://coco@127.0.0.1:${port}/${database}`;
  return {
    port,
    url,
    start,
    halt,
    createDatabase: async (name: string) => {
      if (!/^[a-z_][a-z0-9_]*$/.test(name)) throw new Error(`not a plain database name: ${name}`);
      const { default: pg } = await import('pg');
      const client = new pg.Client({ connectionString: url('postgres') });
      await client.connect();
      try {
        await client.query(`CREATE DATABASE ${name}`);
      } finally {
        await client.end();
      }
      return url(name);
    },
    stop: async () => {
      await halt();
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

/** Debian puts haproxy in /usr/sbin, which an ordinary user's PATH may lack. */
const HAPROXY = existsSync('/usr/sbin/haproxy') ? '/usr/sbin/haproxy' : 'haproxy';

export interface HaproxyServer {
  /** The configuration file it runs (in its temporary directory). */
  readonly configFile: string;
  /** What it wrote since it was ready (its log, with `log stderr` in the config), for failure messages. */
  output(): string;
  stop(): Promise<void>;
}

/**
 * Starts Debian's haproxy with `config` (the test chooses its loopback ports with `freePort`), in
 * master-worker mode in the foreground, and resolves once it has loaded the configuration.
 */
export async function startHaproxy(config: string): Promise<HaproxyServer> {
  const dir = mkdtempSync(join(tmpdir(), 'coco-haproxy-'));
  const configFile = join(dir, 'haproxy.cfg');
  writeFileSync(configFile, config);
  const child = await startUntil(HAPROXY, ['-W', '-db', '-f', configFile], /Loading success/, 'haproxy');
  let output = '';
  const keep = (chunk: Buffer): void => void (output += chunk.toString('utf8'));
  child.stdout!.on('data', keep);
  child.stderr!.on('data', keep);
  return {
    configFile,
    output: () => output,
    stop: async () => {
      // SIGUSR1 would wait for every connection to end; SIGTERM stops the worker at once.
      await stopChild(child, 'SIGTERM');
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

/** Checks a configuration with `haproxy -c`; resolves with its output, rejects if it is refused. */
export function checkHaproxyConfig(config: string): Promise<string> {
  const dir = mkdtempSync(join(tmpdir(), 'coco-haproxy-check-'));
  const configFile = join(dir, 'haproxy.cfg');
  writeFileSync(configFile, config);
  return new Promise<string>((resolve, reject) => {
    const child = spawn(HAPROXY, ['-c', '-f', configFile], { stdio: ['ignore', 'pipe', 'pipe'] });
    trackChild(child);
    let output = '';
    child.stdout!.on('data', (chunk: Buffer) => (output += chunk.toString('utf8')));
    child.stderr!.on('data', (chunk: Buffer) => (output += chunk.toString('utf8')));
    child.once('error', (error) => reject(new Error(`haproxy could not start (${error.message}); scripts/setup-test-deps.sh installs it`)));
    child.once('exit', (code) => (code === 0 ? resolve(output) : reject(new Error(`haproxy -c refused the configuration (${code}):\n${output}`))));
  }).finally(() => rmSync(dir, { recursive: true, force: true }));
}

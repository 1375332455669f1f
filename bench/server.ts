/**
 * Starting and stopping the server under test (cocod or the bare relay of bench/relay.ts) as a
 * child process, and creating roshambo matches on it.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { appendFileSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { CocoClient } from '../src/client/coco-client.js';
import { ProcessTreeMonitor, stillRunning, type ProcessId } from './proc-stats.js';

export const here = fileURLToPath(new URL('.', import.meta.url));
const serverLog = process.env['BENCH_SERVER_LOG'];

/** What runs: the relay, or cocod, with `--nodes N` only when `nodes` is given. */
export interface ServerSpec {
  readonly kind: 'relay' | 'cocod';
  readonly nodes?: number;
  /** cocod with `--redis URL`: each node is a node of a Redis cluster (BENCH_REDIS)... */
  readonly redis?: string;
  /** ...recording into PostgreSQL (`--postgres URL`, which --redis needs) instead of a SQLite file. */
  readonly postgres?: string;
}

export function serverLabel(spec: ServerSpec): string {
  if (spec.kind === 'relay') return 'relay';
  return `${spec.nodes === undefined ? 'cocod' : `cocod --nodes ${spec.nodes}`}${spec.redis === undefined ? '' : ' --redis'}`;
}

/** How every server of an invocation is started. */
export interface ServerSetup {
  /** Extra Node.js flags (BENCH_NODE_FLAGS, BENCH_PROFILE). */
  readonly nodeFlags: readonly string[];
  /** The cocod program to run (BENCH_COCOD); this tree's dist/src/cli/cocod.js by default. */
  readonly cocodScript?: string;
}

export interface StartOptions {
  /** Rounds of each relay match (the relay has no lobby: it plays what the players were told). */
  readonly relayRounds?: number;
  /** cocod `--limit NAME=VALUE` settings. */
  readonly limits?: Readonly<Record<string, number>>;
}

export interface RunningServer {
  readonly spec: ServerSpec;
  readonly url: string;
  readonly pid: number;
  stop(): Promise<void>;
}

/**
 * Every player of the benchmark connects from 127.0.0.1: the per-address and per-network limits, meant for the
 * open internet, are raised to what one host running `matches` matches with `connections` sockets
 * needs; `created`: the matches it creates within a minute, when more than are open at once (a
 * warm-up's, then the measured ones).
 */
export function benchLimits(matches: number, connections: number, created = matches): Record<string, number> {
  return {
    'max-matches': matches + 16,
    'max-connections': connections + 64,
    'connections-per-address': connections + 64,
    'game-new-per-minute': created + 16,
    'waiting-matches-per-address': matches + 16,
    // One host is one network too.
    'connections-per-network': connections + 64,
    'game-new-per-minute-per-network': created + 16,
    'waiting-matches-per-network': matches + 16,
    // The record check (bench/verify.ts) reads 8 records at once.
    'history-reads-per-address': 16,
  };
}

/** The Node.js flags `npm start` gives cocod (package.json), so that the benchmark measures the server users run. */
function startFlags(): string[] {
  const packageJson = JSON.parse(readFileSync(join(here, '../../package.json'), 'utf8')) as { scripts: { start: string } };
  return packageJson.scripts.start.split(/\s+/).filter((word) => word.startsWith('--'));
}

/**
 * Runs `argv` with the open-files limit raised as far as the hard limit allows (10,000 sockets
 * need more than the usual soft limit of 1024); `exec` keeps the pid, so the pid we get is the
 * program's own.
 */
export function spawnWithFileLimit(argv: readonly string[], stdio: Parameters<typeof spawn>[2]['stdio']): ChildProcess {
  const script = 'ulimit -n 1048576 2>/dev/null || ulimit -n "$(ulimit -Hn)" 2>/dev/null; exec "$@"';
  return spawnBenchChild('/bin/sh', ['-c', script, 'sh', ...argv], stdio);
}

/**
 * Every process the benchmark started that has not exited. A benchmark stopped by Ctrl-C or
 * SIGTERM ends them first (a server is told with SIGTERM, so that its own nodes stop with it):
 * nothing it started is left running.
 */
const children = new Set<ChildProcess>();
let stopsChildrenOnSignal = false;

/** spawn(), with the child ended when the benchmark is interrupted. */
export function spawnBenchChild(command: string, args: readonly string[], stdio: Parameters<typeof spawn>[2]['stdio']): ChildProcess {
  const child = spawn(command, args, { stdio });
  children.add(child);
  child.once('exit', () => children.delete(child));
  if (!stopsChildrenOnSignal) {
    stopsChildrenOnSignal = true;
    for (const signal of ['SIGINT', 'SIGTERM'] as const) {
      process.once(signal, () => {
        for (const running of children) running.kill('SIGTERM');
        process.exit(signal === 'SIGINT' ? 130 : 143);
      });
    }
  }
  return child;
}

export async function startServer(spec: ServerSpec, setup: ServerSetup, options: StartOptions = {}): Promise<RunningServer> {
  const dir = mkdtempSync(join(tmpdir(), 'cocod-bench-'));
  const nodeFlags = [...startFlags(), ...setup.nodeFlags];
  const limitArgs = Object.entries(options.limits ?? {}).flatMap(([name, value]) => ['--limit', `${name}=${value}`]);
  const serverArgs =
    spec.kind === 'relay'
      ? [join(here, 'relay.js'), String(options.relayRounds ?? 0)]
      : [setup.cocodScript ?? join(here, '../src/cli/cocod.js'), '-p', '0', ...(spec.postgres === undefined ? ['-d', join(dir, 'bench.sqlite')] : ['--postgres', spec.postgres]), '-v', 'bench', ...limitArgs, ...(spec.nodes === undefined ? [] : ['--nodes', String(spec.nodes)]), ...(spec.redis === undefined ? [] : ['--redis', spec.redis])];
  const child = spawnWithFileLimit([process.execPath, ...nodeFlags, ...serverArgs], ['ignore', 'inherit', 'pipe']);
  let log = '';
  const url = await new Promise<string>((resolve, reject) => {
    child.stderr!.on('data', (chunk: Buffer) => {
      // BENCH_SERVER_LOG: the whole log of every server, for a run that failed.
      if (serverLog) appendFileSync(serverLog, chunk);
      // Keep only the start of the log: enough to find the address, and a reason if it fails.
      if (log.length < 64 * 1024) log += chunk.toString();
      const found = /listening on (ws:\/\/\S+)/.exec(log);
      if (found) resolve(found[1]!);
    });
    // A moment's grace after the exit, for the last of its error output to be read.
    child.once('exit', () => setTimeout(() => reject(new Error(`${serverLabel(spec)} exited before listening: ${log.trim()}`)), 100));
  });
  return {
    spec,
    url,
    pid: child.pid!,
    async stop(): Promise<void> {
      if (child.exitCode === null && child.signalCode === null) {
        const tree = new ProcessTreeMonitor(child.pid!).members().filter((member) => member.pid !== child.pid);
        child.kill('SIGTERM');
        await new Promise((resolve) => child.once('exit', resolve));
        const killed = await stopStragglers(tree);
        if (killed > 0) process.stderr.write(`bench: ${killed} process(es) of ${serverLabel(spec)} outlived it and were killed\n`);
      }
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

/** Stops processes of the server's tree that outlived its root (by pid, each checked still there). */
async function stopStragglers(processes: readonly ProcessId[]): Promise<number> {
  let left = processes.filter(stillRunning);
  for (let waited = 0; left.length > 0 && waited < 3000; waited += 100) {
    await sleep(100);
    left = left.filter(stillRunning);
  }
  for (const { pid } of left) process.kill(pid, 'SIGKILL');
  return left.length;
}

/**
 * Creates `count` roshambo matches (pace 0, 60 s a move) and returns their ids. Requests go out
 * `window` at a time on each of `connections` connections (cocod allows 32 unanswered requests
 * per connection), which makes 10,000 matches a matter of seconds.
 */
export async function createMatches(url: string, count: number, rounds: number, connections = 1, window = 16): Promise<string[]> {
  const ids: string[] = new Array(count);
  let next = 0;
  const work = async (): Promise<void> => {
    const client = await CocoClient.connect(url);
    try {
      while (next < count) {
        const batch: number[] = [];
        while (batch.length < window && next < count) batch.push(next++);
        for (const i of batch) {
          client.send({ type: 'GameNew', name: `bench ${i}`, game: 'roshambo', params: { players: 2, bots: 0, timeout: 60 }, args: { rounds: String(rounds), pace: '0' }, password: null, verification: null });
        }
        for (const i of batch) {
          const reply = await client.expect('GameNew');
          if ('Err' in reply.id) throw new Error(`GameNew: ${reply.id.Err}`);
          ids[i] = reply.id.Ok;
        }
      }
    } finally {
      client.close();
    }
  };
  await Promise.all(Array.from({ length: Math.min(connections, count) }, work));
  return ids;
}

/** The relay has no lobby: a match is whatever two players joining with the same id make. */
export function relayMatchIds(count: number): string[] {
  return Array.from({ length: count }, (_, i) => `m${i}`);
}

export function sleep(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms));
}

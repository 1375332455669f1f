import { join } from 'node:path';
import pg from 'pg';
import { ROOT, coco, startCoco, startServer, type RunningCoco, type ServerProcess } from '../support/processes.js';
import { startPostgres, startRedis, type PostgresServer, type RedisServer } from '../support/services.js';
import { Random } from '../../src/match/random.js';
import { check, type CheckReport, type MatchObservation, type StoredMatch } from './checker.js';
import { faultSchedule, type Fault, type FaultKind } from './schedule.js';

/**
 * The chaos run: real redis-server (with an append-only file), PostgreSQL and `nodes` cocod
 * processes; `slots` loops keep matches going (created on one node, joined through another, both
 * chosen by the seed); the seeded schedule injects one fault at a time, each followed by its
 * recovery, which the run waits for in the processes' logs, never by the clock. Then the checker
 * (checker.ts) judges what every client saw against what PostgreSQL holds.
 */
export interface ChaosOptions {
  readonly seed: string;
  readonly faults: number;
  readonly nodes?: number;
  readonly slots?: number;
  /** Each match: roshambo of this many rounds at this pace (seconds a round). */
  readonly rounds?: number;
  readonly pace?: number;
  readonly kinds?: readonly FaultKind[];
  /** Progress, one line at a time (the long run prints it; the test keeps it for a failure). */
  readonly progress?: (line: string) => void;
}

/** What happened to a node paused past its lease once it was woken. */
export interface PausedNodeExit {
  readonly code: number | null;
  /** Its one line saying why its writes were refused, if it tried to write. */
  readonly refusal: string | null;
  /** Did it log a match as recorded after it was woken? (It must not.) */
  readonly recordedAfterWaking: boolean;
}

export interface ChaosResult {
  readonly report: CheckReport;
  readonly faults: readonly Fault[];
  readonly created: number;
  /** `coco new` refused during a fault (Redis or PostgreSQL unreachable, a node gone): expected. */
  readonly refusedCreations: number;
  readonly pausedExits: readonly PausedNodeExit[];
  /** Nodes that exited without the run stopping them (and were started again, as a supervisor would). */
  readonly unexpectedExits: number;
  readonly seconds: number;
}

const BOT = join(ROOT, 'test/fixtures/gesture_bot.py');
const GESTURES = ['ROCK', 'PAPER', 'SCISSORS'] as const;
/**
 * `coco new` refused this many times in a row with no fault under way: the run fails (the cluster
 * should take new matches then), instead of trying for ever.
 */
const CALM_REFUSALS = 20;
/** Short leases, so a dead or paused node is noticed within seconds. */
const LEASE = ['--limit', 'redis-lease-seconds=2', '--limit', 'redis-lease-refresh-seconds=0.5'];
/** Every client connects from 127.0.0.1: the per-address limits are raised to what the load needs. */
const LOAD_LIMITS = ['game-new-per-minute=100000', 'game-new-per-minute-per-network=100000', 'connections-per-address=10000', 'connections-per-network=10000', 'waiting-matches-per-address=1000', 'waiting-matches-per-network=1000'].flatMap((limit) => ['--limit', limit]);

interface Node {
  process: ServerProcess;
  name: string;
  /** Set when the run itself stops or kills it (any other exit is unexpected). */
  expectedExit: boolean;
}

/** Occurrences of `pattern` in `text`. */
/** A node's history store found PostgreSQL away, and found it back (postgres-history-store.ts). */
const OUTAGE = /history database \S+ unreachable \(/;
const DRAINED = /history database \S+ reachable again after/;

function count(text: string, pattern: RegExp): number {
  return text.match(new RegExp(pattern.source, 'g'))?.length ?? 0;
}

/** Resolves once `node`'s log holds `pattern` at least `n` times. */
function nth(node: ServerProcess, pattern: RegExp, n: number): Promise<unknown> {
  return n <= 0 ? Promise.resolve() : node.waitForLog(new RegExp(`(?:[\\s\\S]*?${pattern.source}){${n}}`));
}

export async function runChaos(options: ChaosOptions): Promise<ChaosResult> {
  const nodeCount = options.nodes ?? 3;
  const slots = options.slots ?? 3;
  const matchArgs = ['roshambo', '-a', `rounds=${options.rounds ?? 20}`, '-a', `pace=${options.pace ?? 0.1}`];
  const progress = options.progress ?? (() => {});
  const random = Random.fromSeed(`${options.seed}/load`);
  const faults = faultSchedule(options.seed, options.faults, nodeCount, options.kinds);
  const began = process.hrtime.bigint();
  let redis: RedisServer | null = null;
  let postgres: PostgresServer | null = null;
  const nodes: (Node | null)[] = [];
  const allNodes: Node[] = [];
  const players: RunningCoco[] = [];
  const observations: MatchObservation[] = [];
  const snapshots: StoredMatch[][] = [];
  const pausedExits: PausedNodeExit[] = [];
  let refusedCreations = 0;
  let unexpectedExits = 0;
  let started = 0;
  const startedWaiters: { at: number; resolve: () => void }[] = [];
  let loadStopped = false;
  /** Settles when the fault under way has recovered: a refused `coco new` waits for it. */
  let calm: Promise<void> = Promise.resolve();
  let faultUnderWay = false;
  /** `coco new` refused in a row while no fault was under way (the cluster should take them). */
  let refusedInCalm = 0;
  /**
   * Rejects when the run cannot go on (the load cannot make a match outside any fault): every wait
   * of the run races it, so that the run fails saying why instead of waiting for ever.
   */
  let fail!: (error: Error) => void;
  const failed = new Promise<never>((_, reject) => (fail = reject));
  failed.catch(() => {});
  const until = <T>(wait: Promise<T>): Promise<T> => Promise.race([wait, failed]);

  const startNode = async (slot: number): Promise<Node> => {
    const process = await startServer(['--redis', redis!.url, '--postgres', history, ...LEASE, ...LOAD_LIMITS], null);
    const [, name] = await process.waitForLog(/node (\S+) joined the cluster through Redis/);
    const node: Node = { process, name: name!, expectedExit: false };
    nodes[slot] = node;
    allNodes.push(node);
    void process.exited.then(() => {
      if (node.expectedExit || loadStopped) return;
      // As a supervisor would (systemd Restart=always): a node that exited is replaced.
      unexpectedExits++;
      progress(`node ${node.name} exited by itself: starting a new one`);
      if (nodes[slot] === node) nodes[slot] = null;
    });
    return node;
  };
  const alive = (): Node[] => nodes.filter((node): node is Node => node !== null);
  const pick = (): Node | null => {
    const living = alive();
    return living.length ? living[random.int(living.length)]! : null;
  };
  const readRows = async (): Promise<StoredMatch[]> => {
    const client = new pg.Client({ connectionString: history });
    await client.connect();
    try {
      const { rows } = await client.query<{ id: string; seq: string; reason: string; scores: string | null; ended_at: string }>('SELECT id, seq, reason, scores, ended_at FROM matches ORDER BY seq');
      return rows.map((row) => ({ id: row.id, seq: Number(row.seq), reason: row.reason, scores: row.scores === null ? null : (JSON.parse(row.scores) as number[]), endedAt: Number(row.ended_at) }));
    } finally {
      await client.end();
    }
  };
  const matchesStarted = (at: number): Promise<void> => (started >= at ? Promise.resolve() : new Promise((resolve) => startedWaiters.push({ at, resolve })));
  const onStarted = (): void => {
    started++;
    for (const waiter of [...startedWaiters]) {
      if (started >= waiter.at) {
        startedWaiters.splice(startedWaiters.indexOf(waiter), 1);
        waiter.resolve();
      }
    }
  };

  /** One match: created on one node, its two players joining through nodes the seed picks. */
  const playOne = async (): Promise<void> => {
    const creator = pick();
    const made = creator ? await coco(creator.process.url, ['new', ...matchArgs]) : null;
    const id = made?.stdout.trim() ?? '';
    if (!creator || !made || made.code !== 0 || !id) {
      const why = creator ? `coco new refused on ${creator.name}: ${made?.stderr.trim().split('\n').pop() ?? ''}` : 'no node is up';
      if (!faultUnderWay && ++refusedInCalm >= CALM_REFUSALS) {
        fail(new Error(`chaos run: the load could not make a match ${refusedInCalm} times in a row with no fault under way (last: ${why})`));
      }
      refusedCreations++;
      progress(`${why}; ${faultUnderWay ? "waiting for the fault's recovery" : 'trying again'}`);
      // A fault under way: the next try waits for its recovery. Otherwise at once (at most
      // CALM_REFUSALS times), but in a new turn, so that a loop of refusals cannot starve the rest.
      return faultUnderWay ? calm : new Promise((resolve) => setImmediate(resolve));
    }
    if (!faultUnderWay) refusedInCalm = 0;
    const seats = [pick(), pick()];
    const observation = { id, started: false, endings: [] as (string | null)[], names: [] as string[] };
    observations.push(observation);
    progress(`match ${id} made on ${creator.name}; players through ${seats.map((node) => node?.name ?? 'none').join(', ')}`);
    const running = seats.map((node, seat) => (node ? startCoco(node.process.url, ['connect', id, '-n', `p${seat}`, '--', 'python3', BOT, GESTURES[random.int(3)]!]) : null));
    for (const player of running) if (player) players.push(player);
    let counted = false;
    const seenStart = running.map(() => false);
    const finished = await Promise.all(
      running.map(async (player, seat) => {
        if (!player) return null;
        player.waitForOutput(/> match started/).then(
          () => {
            seenStart[seat] = true;
            observation.started = true;
            if (!counted) {
              counted = true;
              onStarted();
            }
          },
          () => {},
        );
        const result = await player.done;
        // A player that ended before its match started (it could not reach its node, or that node
        // went away) leaves a seat nobody will take: the others would wait for the match's expiry
        // (10 minutes). They give up now, as a player would. (One that did see the start plays on;
        // one stopped just as the match started leaves it, which its record then says.)
        if (!result.stdout.includes('> match started')) {
          running.forEach((other, i) => {
            if (other && other !== player && !seenStart[i] && other.child.exitCode === null && other.child.signalCode === null) other.child.kill('SIGTERM');
          });
        }
        return result;
      }),
    );
    progress(`match ${id}: its players exited (${finished.map((result) => (result ? `${result.code}: ${/> match ended.*|[^\n]*\n?$/.exec(result.stdout)?.[0]?.trim() ?? ''}` : 'none')).join('; ')})`);
    for (const [seat, result] of finished.entries()) {
      if (!result) continue;
      if (result.stdout.includes('> match started')) observation.started = true;
      const endings = [...result.stdout.matchAll(/> match ended: (.*)/g)];
      observation.endings.push(endings.length ? endings[endings.length - 1]![1]! : null);
      observation.names.push(`p${seat}`);
    }
  };
  const load = async (): Promise<void> => {
    while (!loadStopped) await playOne();
  };
  /** Takes a node out of the load's picks as the run stops it (startNode puts a new one in its slot). */
  const takeDown = (node: Node): void => {
    node.expectedExit = true;
    const slot = nodes.indexOf(node);
    if (slot >= 0) nodes[slot] = null;
  };

  /** Injects one fault and resolves once the cluster has recovered from it. */
  const inject = async (fault: Fault): Promise<void> => {
    const victim = nodes[fault.node] ?? alive()[0]!;
    const slot = nodes.indexOf(victim);
    const others = alive().filter((node) => node !== victim);
    switch (fault.kind) {
      case 'kill': {
        takeDown(victim);
        victim.process.kill('SIGKILL');
        await victim.process.exited;
        progress(`killed ${victim.name}; waiting for a survivor to clean up after it`);
        await Promise.race(others.map((node) => node.process.waitForLog(new RegExp(`node ${victim.name} is down`))));
        progress(`${victim.name} cleaned up after; starting a new node`);
        await startNode(slot);
        return;
      }
      case 'pause': {
        takeDown(victim);
        const before = victim.process.log().length;
        victim.process.kill('SIGSTOP');
        await Promise.race(others.map((node) => node.process.waitForLog(new RegExp(`node ${victim.name} is down`))));
        victim.process.kill('SIGCONT');
        const code = await victim.process.exited;
        const woken = victim.process.log().slice(before);
        progress(`${victim.name} woken: exited with status ${code}`);
        pausedExits.push({ code, refusal: woken.split('\n').find((line) => /lost its lease/.test(line)) ?? null, recordedAfterWaking: /match \S+ recorded$/m.test(woken) });
        await startNode(slot);
        return;
      }
      case 'redis-restart':
      case 'redis-wipe': {
        const living = alive();
        const backBefore = living.map((node) => count(node.process.log(), /Redis is back/));
        await (fault.kind === 'redis-restart' ? redis!.restart() : redis!.restartEmpty());
        await Promise.all(living.map((node, i) => nth(node.process, /Redis is back/, backBefore[i]! + 1)));
        return;
      }
      case 'postgres-restart': {
        const living = alive();
        const outagesBefore = living.map((node) => count(node.process.log(), OUTAGE));
        const drainedBefore = living.map((node) => count(node.process.log(), DRAINED));
        await postgres!.halt();
        // Matches go on meanwhile, until one more has started or a node has found the database
        // away when recording one. Not "until one more starts" alone: each player's coco waits for
        // its match's record, so with every slot waiting on one, no match may start before the
        // database is back.
        await Promise.race([matchesStarted(started + 1), ...living.map((node, i) => nth(node.process, OUTAGE, outagesBefore[i]! + 1))]);
        await postgres!.start();
        // Every node that kept records in memory meanwhile writes them, and says so.
        await Promise.all(living.map((node, i) => nth(node.process, DRAINED, drainedBefore[i]! + count(node.process.log(), OUTAGE) - outagesBefore[i]!)));
        return;
      }
      case 'node-restart': {
        takeDown(victim);
        await victim.process.stop();
        await startNode(slot);
        return;
      }
    }
  };

  const history = await (async () => {
    redis = await startRedis({ persist: true });
    postgres = await startPostgres();
    return postgres.createDatabase('chaos');
  })();
  let stoppedAll = false;
  const stopAll = async (): Promise<string[]> => {
    stoppedAll = true;
    loadStopped = true;
    const left: string[] = [];
    for (const node of allNodes) {
      node.expectedExit = true;
      node.process.kill('SIGCONT');
    }
    await Promise.all(allNodes.map((node) => node.process.stop()));
    for (const player of players) if (player.child.exitCode === null && player.child.signalCode === null) player.child.kill('SIGKILL');
    await Promise.all(players.map((player) => player.done));
    const redisPid = redis?.pid() ?? null;
    await redis?.stop();
    await postgres?.stop();
    for (const player of players) if (player.child.exitCode === null && player.child.signalCode === null) left.push(`coco (pid ${player.child.pid})`);
    if (redisPid !== null && isAlive(redisPid)) left.push(`redis-server (pid ${redisPid})`);
    return left;
  };
  // A run that seems stuck: `kill -USR2 PID` prints every node's log so far.
  const dump = (): void => {
    for (const node of allNodes) progress(`--- log of ${node.name}:\n${node.process.log()}`);
  };
  process.on('SIGUSR2', dump);
  try {
    for (let slot = 0; slot < nodeCount; slot++) await startNode(slot);
    progress(`${nodeCount} nodes up; schedule (seed ${options.seed}): ${faults.map((f) => `${f.kind}@${f.node}`).join(', ')}`);
    const loops = Array.from({ length: slots }, () => load());
    for (const [i, fault] of faults.entries()) {
      await until(matchesStarted(started + fault.matchesBefore));
      // Nodes that exited by themselves are replaced first (the supervisor's job).
      for (let slot = 0; slot < nodeCount; slot++) if (!nodes[slot]) await startNode(slot);
      let recovered!: () => void;
      calm = new Promise((resolve) => (recovered = resolve));
      faultUnderWay = true;
      progress(`fault ${i + 1}/${faults.length}: ${fault.kind} (node slot ${fault.node}), ${started} matches started so far`);
      await until(inject(fault));
      faultUnderWay = false;
      recovered();
      snapshots.push(await readRows());
      progress(`recovered; ${snapshots[snapshots.length - 1]!.length} matches recorded`);
    }
    await until(matchesStarted(started + 1));
    loadStopped = true;
    progress('the schedule is over: waiting for the matches under way to end');
    await until(Promise.all(loops));
    const stored = await readRows();
    const stillRunning = await stopAll();
    const report = check({ matches: observations, stored, snapshots, stillRunning });
    return { report, faults, created: observations.length, refusedCreations, pausedExits, unexpectedExits, seconds: Number(process.hrtime.bigint() - began) / 1e9 };
  } finally {
    process.off('SIGUSR2', dump);
    if (!stoppedAll) await stopAll().catch(() => {});
  }
}

function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}

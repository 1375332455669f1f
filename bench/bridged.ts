/**
 * BENCH_MODE=bridged: the cost of a seat bridged through Redis. Two cocod processes, each
 * `--redis --postgres` on its own port (two nodes of one cluster, one process each); the matches
 * are created on node A, and the same closed loop (bench/closed-loop.ts) is played with every
 * player connected to node A (local seats) or to node B (every seat bridged to A through Redis),
 * alternating over BENCH_RUNS, each run on a fresh pair of nodes. Reported: the closed loop's
 * figures with the CPU of both cocod processes, redis-server's CPU per round apart, and each
 * figure of the bridged runs as a ratio to the local run of the same repetition. After each run
 * every match's record is checked (bench/verify.ts): a bridged seat must play the same matches.
 */
import { CLOSED_COLUMNS, playClosed, type ClosedRun } from './closed-loop.js';
import { ProcessTreeMonitor } from './proc-stats.js';
import type { Column, Labelled } from './report.js';
import { benchLimits, createMatches, startServer, type ServerSetup } from './server.js';
import { verifyMatches } from './verify.js';
import type { PostgresServer, RedisServer } from '../test/support/services.js';

export const BRIDGED_LABELS = { local: 'local seats (players on node A)', bridged: 'bridged seats (players on node B)' } as const;

export const BRIDGED_COLUMNS: readonly Column<ClosedRun>[] = [
  ...CLOSED_COLUMNS.filter((column) => column.header !== 'server CPU %'),
  { header: 'redis-server CPU us/round', value: (run) => run.serviceCpuMicrosPerRound, ratio: true },
];

export interface BridgedServices {
  readonly redis: RedisServer;
  readonly postgres: PostgresServer;
}

/** One run: a fresh pair of nodes (and database, and Redis), `matches` matches created on A, played through A or B. */
export async function bridgedRun(services: BridgedServices, database: string, seats: 'local' | 'bridged', matches: number, rounds: number, setup: ServerSetup): Promise<ClosedRun> {
  // An empty Redis for each run: what a run leaves there (the address's GameNew bucket, which the
  // cluster counts on all nodes together, dead leases) must not weigh on the next one.
  await services.redis.restart();
  const postgres = await services.postgres.createDatabase(database);
  const spec = { kind: 'cocod', redis: services.redis.url, postgres } as const;
  const limits = benchLimits(matches, 2 * matches + 16);
  const nodeA = await startServer(spec, setup, { limits });
  try {
    const nodeB = await startServer(spec, setup, { limits });
    try {
      const startRssKiB = [nodeA, nodeB].reduce((total, node) => total + new ProcessTreeMonitor(node.pid).usage().rssKiB, 0);
      const ids = await createMatches(nodeA.url, matches, rounds);
      const redisPid = services.redis.pid();
      const run = await playClosed(
        { playersUrl: seats === 'local' ? nodeA.url : nodeB.url, ids, serverPids: [nodeA.pid, nodeB.pid], startRssKiB, ...(redisPid !== null && { servicePid: redisPid }) },
        rounds,
      );
      // Every record must carry the result the players' fixed gestures make, bridged or not.
      return { ...run, verified: await verifyMatches(nodeA.url, ids, rounds, []) };
    } finally {
      await nodeB.stop();
    }
  } finally {
    await nodeA.stop();
  }
}

/** The runs, alternating local and bridged, labelled for the report (the local run is each ratio's base). */
export async function bridgedRuns(
  services: BridgedServices,
  runs: number,
  matches: number,
  rounds: number,
  setup: ServerSetup,
  progress: (text: string) => void,
): Promise<Labelled<ClosedRun>[]> {
  const done: Labelled<ClosedRun>[] = [];
  let databases = 0;
  for (let repetition = 1; repetition <= runs; repetition++) {
    for (const seats of ['local', 'bridged'] as const) {
      const label = BRIDGED_LABELS[seats];
      progress(`bridged, ${matches} matches x ${rounds} rounds, #${repetition} ${label} ...`);
      const run = await bridgedRun(services, `bridged${databases++}`, seats, matches, rounds, setup);
      progress(`#${repetition} ${label}: ${run.roundsPerSecond} rounds/s, p99 ${run.latencyMs.p99} ms, cocod ${run.server.cpuMicrosPerRound} us/round, redis-server ${run.serviceCpuMicrosPerRound ?? 'n/a'} us/round`);
      done.push({ label, repetition, run });
    }
  }
  return done;
}

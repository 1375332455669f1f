import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { join } from 'node:path';
import { markTestProcesses } from '../../src/games/external/test-support.js';
import { ROOT, startCoco, startServer, type RunningCoco, type ServerProcess } from '../support/processes.js';
import { startPostgres, startRedis, type PostgresServer, type RedisServer } from '../support/services.js';

// One arena for a cluster: three real cocod nodes on a real redis-server, their history and arena
// ratings in one real PostgreSQL, each on its own port as on three machines. The first node takes
// the pairing lease; entrants queue through the other two, get paired on the first, and play there
// (bridged). Killed, the first is replaced as pairing node by a survivor, and the entrants, still
// connected to their nodes, are paired and rated there. Short leases (2 s, renewed every 0.5 s) so
// a dead node is noticed soon; the test waits for what the nodes log and the clients print.
const LEVEL_BOT = join(ROOT, 'examples/arena/roshambo_level.py');
const LEASES = ['--limit', 'redis-lease-seconds=2', '--limit', 'redis-lease-refresh-seconds=0.5', '--limit', 'arena-lease-seconds=2', '--limit', 'arena-lease-refresh-seconds=0.5'];
const ARENA_ARGS = ['--arena-arg', 'roshambo:rounds=10', '--arena-arg', 'roshambo:pace=0'];
const PAIRS = /arena: this node pairs the cluster's queue \(lease epoch (\d+)\)/;
let redis: RedisServer;
let postgres: PostgresServer;
let history: string;
let nodes: ServerProcess[] = [];
const entrants: RunningCoco[] = [];
const sweep = markTestProcesses();

async function startNode(): Promise<ServerProcess> {
  const node = await startServer(['--redis', redis.url, '--postgres', history, ...LEASES, ...ARENA_ARGS], null);
  await node.waitForLog(/node \S+ joined the cluster through Redis/);
  return node;
}

before(async () => {
  redis = await startRedis();
  postgres = await startPostgres();
  history = await postgres.createDatabase('arena');
  const first = await startNode();
  await first.waitForLog(PAIRS);
  nodes = [first, await startNode(), await startNode()];
});
after(async () => {
  try {
    for (const entrant of entrants) entrant.child.kill('SIGKILL');
    await Promise.all(nodes.map((node) => node.stop()));
    await redis?.stop();
    await postgres?.stop();
  } finally {
    await sweep();
  }
});

/** The id of the first arena match `node` made (it logs each one it makes). */
async function firstMatch(node: ServerProcess): Promise<string> {
  return (await node.waitForLog(/arena roshambo: match (\w+): level\d vs level\d/))[1]!;
}

async function arenaJson(node: ServerProcess, path = ''): Promise<Record<string, unknown>> {
  return (await (await fetch(`http://127.0.0.1:${node.port}/api/arena/roshambo${path}`)).json()) as Record<string, unknown>;
}

test('Redis cluster arena: two entrants on two other nodes than the pairing one are paired there and play a rated game; a killed pairing node is replaced and they play on', async () => {
  const [pairing, two, three] = nodes as [ServerProcess, ServerProcess, ServerProcess];
  const level1 = startCoco(two.url, ['arena', 'roshambo', '-n', 'level1', '--', 'python3', LEVEL_BOT, '1']);
  const level2 = startCoco(three.url, ['arena', 'roshambo', '-n', 'level2', '--', 'python3', LEVEL_BOT, '2']);
  entrants.push(level1, level2);
  const first = await firstMatch(pairing);
  await level2.waitForOutput(new RegExp(`^> game \\d+ \\(${first}\\): win \\d+-\\d+ against level1`, 'm'));
  await level1.waitForOutput(new RegExp(`^> game \\d+ \\(${first}\\): loss \\d+-\\d+ against level2`, 'm'));
  // Rated in the one store: any node's API reads it; the queue is read from the pairing node.
  const rated = (await arenaJson(two, '/level2')) as { rating: { games: number } | null; games: { match_id: string }[] };
  assert.ok(rated.games.some((game) => game.match_id === first), JSON.stringify(rated));
  const board = (await arenaJson(three)) as { leaderboard: { player: string }[]; queue: { name: string }[] };
  assert.deepEqual(board.leaderboard.map((row) => row.player), ['level2', 'level1']);
  assert.deepEqual(board.queue.map((entry) => entry.name).sort(), ['level1', 'level2'], 'every node shows the one queue');

  // The pairing node dies: a survivor takes the lease over, and the entrants are paired on it.
  pairing.kill('SIGKILL');
  await pairing.exited;
  const survivor = await Promise.race([two.waitForLog(/arena: this node pairs the cluster's queue \(lease epoch [2-9]/).then(() => two), three.waitForLog(/arena: this node pairs the cluster's queue \(lease epoch [2-9]/).then(() => three)]);
  const next = await firstMatch(survivor);
  await level2.waitForOutput(new RegExp(`^> game \\d+ \\(${next}\\): win \\d+-\\d+ against level1`, 'm'));
  await level1.waitForOutput(new RegExp(`^> game \\d+ \\(${next}\\): loss \\d+-\\d+ against level2`, 'm'));
  const after = (await arenaJson(survivor, '/level1')) as { games: { match_id: string }[] };
  assert.ok(after.games.some((game) => game.match_id === next), 'rated by the new pairing node in the same store');
  for (const entrant of [level1, level2]) entrant.child.kill('SIGINT');
  const runs = await Promise.all([level1.done, level2.done]);
  for (const run of runs) assert.equal(run.code, 0, run.stdout + run.stderr);
  nodes = [two, three];
});

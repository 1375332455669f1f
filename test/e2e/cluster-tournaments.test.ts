import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { coco, startServer, type ServerProcess } from '../support/processes.js';
import { freePort, startHaproxy, startPostgres, startRedis, type PostgresServer, type RedisServer } from '../support/services.js';

// Server tournaments on a cluster: real cocod processes, nodes of one cluster through a real
// redis-server, sharing one real PostgreSQL, each on its own port as on separate machines. Short
// tournament leases (2 s, renewed every 0.5 s) so a killed node's tournament is taken over soon;
// the tests wait for what the nodes answer and log, not for time.
const LEASES = ['--limit', 'tournament-lease-seconds=2', '--limit', 'tournament-lease-refresh-seconds=0.5', '--limit', 'redis-lease-seconds=2', '--limit', 'redis-lease-refresh-seconds=0.5'];
let redis: RedisServer;
let postgres: PostgresServer;
let history: string;
const nodes: ServerProcess[] = [];

async function startNode(): Promise<ServerProcess> {
  const node = await startServer(['--redis', redis.url, '--postgres', history, ...LEASES], null);
  await node.waitForLog(/node \S+ joined the cluster through Redis/);
  nodes.push(node);
  return node;
}

before(async () => {
  redis = await startRedis();
  postgres = await startPostgres();
  history = await postgres.createDatabase('tournaments');
});
after(async () => {
  await Promise.all(nodes.map((node) => node.stop()));
  await redis?.stop();
  await postgres?.stop();
});

const http = (node: ServerProcess, path: string): string => `http://127.0.0.1:${node.port}${path}`;

async function create(node: ServerProcess, args: Record<string, string>, concurrency = 2): Promise<any> {
  const response = await fetch(http(node, '/api/tournaments'), {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ game: 'roshambo', password: 'master', format: 'round-robin', rounds: 1, concurrency, entrants: ['ann', 'bob', 'cid'].map((name) => ({ name, bot: null })), args }),
  });
  const body = await response.json();
  assert.equal(response.status, 201, JSON.stringify(body));
  return body;
}

async function get(node: ServerProcess, path: string): Promise<{ status: number; body: any }> {
  const response = await fetch(http(node, path));
  return { status: response.status, body: await response.json() };
}

/** Follows a tournament with long polls through `node` until nothing of it runs any more. */
async function followed(node: ServerProcess, id: string, seen: (view: any) => void = () => {}): Promise<any> {
  let view = (await get(node, `/api/tournaments/${id}`)).body;
  while (view.state === 'running' || view.running.length > 0) {
    const next = await get(node, `/api/tournaments/${id}?after=${view.version}`);
    assert.equal(next.status, 200, JSON.stringify(next.body));
    view = next.body;
    seen(view);
  }
  return view;
}

test('a tournament created through one node is shown, listed and followed through another to its end; every node shows the same', async () => {
  const [one, two] = [await startNode(), await startNode()];
  const created = await create(one, { rounds: '3', pace: '0' });
  // From the creation's answer on, the other node knows it.
  const early = await get(two, `/api/tournaments/${created.id}`);
  assert.equal(early.status, 200, JSON.stringify(early.body));
  const end = await followed(two, created.id);
  assert.equal(end.state, 'finished');
  assert.equal(end.results.length, 6);
  assert.deepEqual(end.results.map((r: any) => r.pairing).sort(), [0, 1, 2, 3, 4, 5]);
  assert.deepEqual((await get(one, `/api/tournaments/${created.id}`)).body, end, 'the same tournament on both nodes');
  for (const node of [one, two]) {
    const list = (await get(node, '/api/tournaments')).body;
    assert.deepEqual(list.tournaments.find((t: any) => t.id === created.id), { id: created.id, game: 'roshambo', format: 'round-robin', state: 'finished', entrants: 3, total: 6, finished: 6, running: 0, created_at: created.created_at });
  }
  for (const result of end.results) assert.match((await coco(two.url, ['history', result.match])).stdout, /./, `match ${result.match} is in the shared history`);
  // A stop through the other node reaches the tournament, and is refused: it is over.
  const stop = await fetch(http(two, `/api/tournaments/${created.id}/stop`), { method: 'POST', body: JSON.stringify({ password: 'master' }) });
  assert.equal(stop.status, 409);
});

test('the node running a tournament is killed (kill -9): another node takes it over and plays the rest; no pairing is played twice into the results', async () => {
  const [one, two] = [nodes[0]!, nodes[1]!];
  // Matches of about a second each, one at a time: the kill comes mid-tournament.
  const created = await create(one, { rounds: '10', pace: '0.1' }, 1);
  let before = created;
  while (before.results.length === 0) before = (await get(two, `/api/tournaments/${created.id}?after=${before.version}`)).body;
  one.kill('SIGKILL');
  await one.exited;
  nodes.splice(nodes.indexOf(one), 1);
  const seenStates = new Set<string>();
  const end = await followed(two, created.id, (view) => seenStates.add(view.state));
  assert.deepEqual([...seenStates].filter((state) => state !== 'running' && state !== 'finished'), [], 'followed through the takeover, it never looked interrupted');
  assert.equal(end.state, 'finished', JSON.stringify(end));
  assert.deepEqual(end.results.map((r: any) => r.pairing).sort(), [0, 1, 2, 3, 4, 5], 'each pairing once');
  await two.waitForLog(new RegExp(`tournament ${created.id} taken over from node \\S+ \\(epoch 2\\): \\d+ matches recorded`));
  assert.deepEqual(end.results.slice(0, before.results.length), before.results, 'the results recorded before the kill are kept as they were');
});

test('coco tournament --on-server through a balancer that sends each request to the next node: created, followed to its end, exit 0', async () => {
  const [two, three] = [nodes[0]!, await startNode()];
  const port = await freePort();
  // Round robin per request (the server side of each connection closed after its answer): the
  // creation and each long poll of coco's one connection reach the nodes in turn.
  const haproxy = await startHaproxy(`
defaults
    mode http
    timeout connect 5s
    timeout client 1m
    timeout server 1m
    option http-server-close
frontend coco_web
    bind 127.0.0.1:${port}
    default_backend coco_nodes
backend coco_nodes
    balance roundrobin
    server two 127.0.0.1:${two.port}
    server three 127.0.0.1:${three.port}
`);
  try {
    const run = await coco(`ws://127.0.0.1:${port}/`, ['tournament', 'roshambo', '--on-server', '-v', 'master', '--bot', 'ann', '--bot', 'bob', '--bot', 'cid', '-a', 'rounds=3', '-a', 'pace=0.02']);
    assert.equal(run.code, 0, run.stderr + run.stdout);
    assert.equal(run.stdout.split('\n').filter((line) => /^Finished game \d+ /.test(line)).length, 6, run.stdout);
    const id = /^tournament ([0-9a-f]+) on the server/m.exec(run.stdout)?.[1];
    for (const node of [two, three]) assert.equal((await get(node, `/api/tournaments/${id}`)).body.state, 'finished');
  } finally {
    await haproxy.stop();
  }
});


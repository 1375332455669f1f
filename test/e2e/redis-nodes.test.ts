import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { join } from 'node:path';
import { ROOT, coco, newMatch, startCoco, startServer, type ServerProcess } from '../support/processes.js';
import { startPostgres, startRedis, type PostgresServer, type RedisServer } from '../support/services.js';
import { tcpClient } from '../support/clobber-client.js';
import { JOIN, SochaPeer, randomMoves } from '../support/socha-peer.js';

// Three real cocod processes, each a node of one cluster through a real redis-server on loopback
// and recording into one real PostgreSQL, each on its own port as on three machines. A client picks its node by URL, so a player or
// spectator on another node than the match's is bridged for sure. Short leases (2 s, refreshed
// every 0.5 s) so a killed node is noticed soon; the tests wait for what the nodes log, not for time.
const BOT = join(ROOT, 'test/fixtures/gesture_bot.py');
const LEASE = ['--limit', 'redis-lease-seconds=2', '--limit', 'redis-lease-refresh-seconds=0.5'];
let redis: RedisServer;
let postgres: PostgresServer;
let history: string;
let nodes: ServerProcess[] = [];

async function startNode(): Promise<ServerProcess> {
  const node = await startServer(['--redis', redis.url, '--postgres', history, ...LEASE], null);
  await node.waitForLog(/node \S+ joined the cluster through Redis at redis:\/\/127\.0\.0\.1:\d+/);
  return node;
}

before(async () => {
  redis = await startRedis();
  postgres = await startPostgres();
  history = await postgres.createDatabase('cluster');
  nodes = [await startNode(), await startNode(), await startNode()];
});
after(async () => {
  await Promise.all(nodes.map((node) => node.stop()));
  await redis.stop();
  await postgres.stop();
});

/** `coco lobby` of a node lists the match (every node's lobby shows every node's matches). */
async function listedOn(node: ServerProcess, id: string): Promise<void> {
  for (let attempt = 0; attempt < 200; attempt++) {
    if ((await coco(node.url, ['lobby'])).stdout.includes(id)) return;
  }
  assert.fail(`match ${id} never listed on ${node.url}`);
}

test('a match on node 1, its players on nodes 2 and 3, a spectator on node 3: right result, whole stream, one record read from any node', async () => {
  const [one, two, three] = nodes as [ServerProcess, ServerProcess, ServerProcess];
  const id = await newMatch(one.url, ['roshambo', '-a', 'rounds=5', '-a', 'pace=0']);
  await listedOn(two, id);
  await listedOn(three, id);
  const spectator = startCoco(three.url, ['connect', '-s', id]);
  await spectator.waitForOutput(/> spectating/);
  const alice = startCoco(two.url, ['connect', id, '-n', 'alice', '--', 'python3', BOT, 'ROCK']);
  await alice.waitForOutput(/> joined/);
  const bob = await coco(three.url, ['connect', id, '-n', 'bob', '--', 'python3', BOT, 'PAPER']);
  assert.equal(bob.code, 0, bob.stderr);
  assert.match(bob.stdout, /> match ended: you won 5-0 /);
  const a = await alice.done;
  assert.equal(a.code, 0, a.stderr);
  assert.match(a.stdout, /> match ended: you lost 0-5 /);
  assert.match(one.log(), new RegExp(`alice joined match ${id} through node `), 'alice was bridged');
  await one.recorded(id);
  const recorded = (await coco(one.url, ['history', id])).stdout;
  assert.equal((await coco(three.url, ['history', id])).stdout, recorded, 'one history, shared');
  const watched = await spectator.done;
  assert.equal(watched.code, 0);
  assert.equal(watched.stdout.split('> reached current status\n')[1]!.split('> match ended')[0], recorded, 'the spectator saw the recorded stream, byte for byte');
  assert.equal(recorded.trim().split('\n').length, 3 + 10);
});

test('match ids are unique across the nodes: each node has its own first characters', async () => {
  const ids = [];
  for (const node of nodes) ids.push(await newMatch(node.url, ['roshambo']));
  assert.equal(new Set(ids.map((id) => id.slice(0, 3))).size, 3, ids.join(' '));
});

test('Redis halted mid-match: new matches are refused with a clear error, the running match finishes; when Redis is back, matches are made again', async () => {
  const [one, two] = nodes as [ServerProcess, ServerProcess];
  const id = await newMatch(one.url, ['roshambo', '-a', 'rounds=20', '-a', 'pace=0.1']);
  await listedOn(two, id);
  const alice = startCoco(one.url, ['connect', id, '-n', 'alice', '--', 'python3', BOT, 'ROCK']);
  await alice.waitForOutput(/> joined/);
  const bob = startCoco(one.url, ['connect', id, '-n', 'bob', '--', 'python3', BOT, 'PAPER']);
  await bob.waitForOutput(/> match started/);
  await redis.halt();
  await one.waitForLog(/Redis is unreachable: no new matches until it is back/);
  const refused = await coco(one.url, ['new', 'roshambo']);
  assert.notEqual(refused.code, 0);
  assert.match(refused.stderr, /The cluster is unavailable \(its Redis cannot be reached\)/);
  await redis.start();
  const [a, b] = await Promise.all([alice.done, bob.done]);
  assert.match(a.stdout, /> match ended: you lost 0-20 /);
  assert.match(b.stdout, /> match ended: you won 20-0 /);
  await one.waitForLog(/Redis is back/);
  const again = await newMatch(two.url, ['roshambo']);
  await listedOn(one, again);
});

test('a node killed (kill -9) mid-match: a survivor records its match as ended by node failure, players on the other nodes are told, other matches go on', async () => {
  const [one, two, three] = nodes as [ServerProcess, ServerProcess, ServerProcess];
  const id = await newMatch(one.url, ['roshambo', '-a', 'rounds=1000', '-a', 'pace=0.5']);
  const other = await newMatch(two.url, ['roshambo', '-a', 'rounds=3', '-a', 'pace=0.5']);
  await listedOn(two, id);
  await listedOn(three, id);
  const players = [startCoco(two.url, ['connect', id, '-n', 'carol', '--', 'python3', BOT, 'ROCK']), startCoco(three.url, ['connect', id, '-n', 'dave', '--', 'python3', BOT, 'ROCK'])];
  for (const player of players) await player.waitForOutput(/> match started/);
  const erin = startCoco(three.url, ['connect', other, '-n', 'erin', '--', 'python3', BOT, 'SCISSORS']);
  await erin.waitForOutput(/> joined/);
  const frank = startCoco(two.url, ['connect', other, '-n', 'frank', '--', 'python3', BOT, 'PAPER']);
  await frank.waitForOutput(/> match started/);
  one.kill('SIGKILL');
  await one.exited;
  const lost = new RegExp(`match ${id} recorded as ended by node failure`);
  const survivor = await Promise.race([two.waitForLog(lost).then(() => 'two'), three.waitForLog(lost).then(() => 'three')]);
  const ended = await Promise.all(players.map((player) => player.done));
  for (const finished of ended) assert.match(finished.stdout, /> match ended: no result \(node failure\)/, JSON.stringify(finished));
  for (const node of [two, three]) assert.match((await coco(node.url, ['history'])).stdout, new RegExp(`${id}\\s.*no result \\(node failure\\)`));
  assert.ok(!(survivor === 'two' ? three : two).log().includes(`match ${id} recorded as ended by node failure`), 'exactly one survivor recorded it');
  const [e, f] = await Promise.all([erin.done, frank.done]);
  assert.match(e.stdout, /> match ended: you won 3-0 /);
  assert.match(f.stdout, /> match ended: you lost 0-3 /);
  nodes = [two, three];
});

test('cocod --nodes 2 --redis: each local process is a node of the cluster by itself', async () => {
  const machine = await startServer(['--nodes', '2', '--redis', redis.url, '--postgres', history, ...LEASE], null);
  try {
    await machine.waitForLog(/listening on \S+ \(2 nodes/);
    const joined = await machine.waitForLog(/node-1\.1: node (\S+) joined the cluster[\s\S]*node-2\.1: node (\S+) joined the cluster|node-2\.1: node (\S+) joined the cluster[\s\S]*node-1\.1: node (\S+) joined the cluster/);
    const names = joined.slice(1).filter(Boolean);
    assert.equal(new Set(names).size, 2, `two Redis nodes: ${names.join(', ')}`);
    const elsewhere = nodes[nodes.length - 1]!;
    const id = await newMatch(machine.url, ['roshambo', '-a', 'rounds=2', '-a', 'pace=0']);
    await listedOn(elsewhere, id);
    // Played from the other machine: both seats bridged to whichever local process has it.
    const first = startCoco(elsewhere.url, ['connect', id, '-n', 'gina', '--', 'python3', BOT, 'ROCK']);
    await first.waitForOutput(/> joined/);
    const second = await coco(elsewhere.url, ['connect', id, '-n', 'hal', '--', 'python3', BOT, 'SCISSORS']);
    assert.equal(second.code, 0, second.stderr);
    assert.match(second.stdout, /> match ended: you lost 0-2 /);
    assert.match((await first.done).stdout, /> match ended: you won 2-0 /);
  } finally {
    await machine.stop();
  }
});

test('the clobber TCP port of a Redis node pairs its own clients; the match is listed on the other nodes and recorded in the shared history', async () => {
  const withPort = await startServer(['--redis', redis.url, '--postgres', history, '--clobber-port', '0', ...LEASE], null);
  try {
    const [, port] = await withPort.waitForLog(/clobber tournament port listening on [^:]+:(\d+)/);
    const first = tcpClient(Number(port), 'ivan', 'i');
    const [, id] = (await withPort.waitForLog(/ivan joined match ([0-9a-v]{13})/)) as RegExpMatchArray;
    const elsewhere = nodes[0]!;
    await listedOn(elsewhere, id!);
    const second = tcpClient(Number(port), 'judy', 'j');
    const [a, b] = await Promise.all([first, second]);
    assert.equal(a.starts.length, 2, 'two games, as on a single server');
    assert.equal(b.starts.length, 2);
    await withPort.recorded(id!);
    assert.match((await coco(elsewhere.url, ['history'])).stdout, new RegExp(`${id}\\s.*clobber`), 'recorded, read from another node');
  } finally {
    await withPort.stop();
  }
});

test('the Software-Challenge port of a Redis node: two 2018 clients play through node B, the match is listed and spectated from node C and recorded in PostgreSQL', async () => {
  // Wide time limits: the test is about the cluster, not the clock of a busy machine.
  const b = await startServer(['--redis', redis.url, '--postgres', history, '--socha-port', '0', '--socha-soft-timeout', '300', '--socha-hard-timeout', '600', ...LEASE], null);
  try {
    const [, port] = await b.waitForLog(/socha port listening on [^:]+:(\d+)/);
    const c = nodes[0]!;
    const first = SochaPeer.open(Number(port), JOIN, randomMoves('a'));
    const [, roomId, id] = (await b.waitForLog(/player1 joined room (\S+) \(match ([0-9a-v]{13})\)/)) as RegExpMatchArray;
    await listedOn(c, id!);
    const spectator = startCoco(c.url, ['connect', '-s', id!]);
    await spectator.waitForOutput(/> spectating/);
    const second = SochaPeer.open(Number(port), JOIN, randomMoves('b'));
    await Promise.all([first.closed, second.closed]);
    for (const peer of [first, second]) assert.equal(peer.all('result').length, 1, peer.text.slice(-500));
    const watched = await spectator.done;
    assert.ok(watched.stdout.includes(`<observed roomId="${roomId}"/>`) && watched.stdout.includes('<data class="result">'), watched.stdout.slice(-500));
    await b.recorded(id!);
    const recorded = (await coco(c.url, ['history', id!])).stdout;
    assert.ok(recorded.includes('<data class="result">'), recorded.slice(-500));
    const seen = watched.stdout.split('> reached current status\n')[1]!.split('> match ended')[0]!;
    // coco history ends what it prints with a line break; the XML stream itself ends without one.
    assert.equal(seen.endsWith('\n') ? seen : `${seen}\n`, recorded, 'the spectator on node C saw the recorded stream, byte for byte');
  } finally {
    await b.stop();
  }
});

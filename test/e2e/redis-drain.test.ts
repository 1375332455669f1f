import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { join } from 'node:path';
import pg from 'pg';
import { ROOT, coco, newMatch, startCoco, startServer, type ServerProcess } from '../support/processes.js';
import { startPostgres, startRedis, type PostgresServer, type RedisServer } from '../support/services.js';

// A node that stops (SIGTERM, as a rolling restart does) while players are connected through it to
// a match another node runs: real cocod processes, redis-server and PostgreSQL on loopback. The node
// drains: it takes no new client, lets those players finish (bounded by shutdown-drain-seconds),
// then leaves. The tests wait for what the processes print and log, never for time; the matches
// are paced long enough (several seconds) to be still running when the checks inside a drain run.
const BOT = join(ROOT, 'test/fixtures/gesture_bot.py');
const LEASE = ['--limit', 'redis-lease-seconds=2', '--limit', 'redis-lease-refresh-seconds=0.5'];
let redis: RedisServer;
let postgres: PostgresServer;
let history: string;
/** The node that runs the matches; each test starts (and stops) the node its players go through. */
let host: ServerProcess;
const started: ServerProcess[] = [];

async function startNode(extra: readonly string[] = []): Promise<ServerProcess> {
  const node = await startServer(['--redis', redis.url, '--postgres', history, ...LEASE, ...extra], null);
  started.push(node);
  await node.waitForLog(/node \S+ joined the cluster through Redis/);
  return node;
}

/** The match's row in PostgreSQL once `recorder` (`host` unless said) has recorded it. */
async function record(id: string, recorder = host): Promise<{ reason: string; scores: number[] | null }> {
  await recorder.recorded(id);
  const client = new pg.Client({ connectionString: history });
  await client.connect();
  try {
    const { rows } = await client.query<{ reason: string; scores: string | null }>('SELECT reason, scores FROM matches WHERE id = $1', [id]);
    assert.equal(rows.length, 1, `match ${id} recorded once`);
    return { reason: rows[0]!.reason, scores: rows[0]!.scores === null ? null : (JSON.parse(rows[0]!.scores) as number[]) };
  } finally {
    await client.end();
  }
}

/** A match on `runner` (`host` unless said): alice through `through` (bridged), bob on `runner` itself; resolves once it runs. */
async function bridgedMatch(through: ServerProcess, rounds: number, runner = host) {
  const id = await newMatch(runner.url, ['roshambo', '-a', `rounds=${rounds}`, '-a', 'pace=0.1']);
  const alice = startCoco(through.url, ['connect', id, '-n', 'alice', '--', 'python3', BOT, 'ROCK']);
  await alice.waitForOutput(/> joined/);
  const bob = startCoco(runner.url, ['connect', id, '-n', 'bob', '--', 'python3', BOT, 'PAPER']);
  await Promise.all([alice.waitForOutput(/> match started/), bob.waitForOutput(/> match started/)]);
  return { id, alice, bob };
}

before(async () => {
  redis = await startRedis();
  postgres = await startPostgres();
  history = await postgres.createDatabase('drain');
  host = await startNode();
});
after(async () => {
  await Promise.all(started.map((node) => node.stop()));
  await redis.stop();
  await postgres.stop();
});

test('a node stopped (SIGTERM) while a player is bridged through it to a match of another node: it takes no new client (/health 503, WebSocket 503), the player finishes the match and is told its real result, the record is the played-out one, then the node exits 0', async () => {
  const through = await startNode();
  const { id, alice, bob } = await bridgedMatch(through, 40);
  through.kill('SIGTERM');
  await through.waitForLog(/stopping: 1 players may finish their matches and read their results first \(at most 30 s\)/);
  // While it drains: the balancer's check fails, and a new client is sent away.
  const health = await fetch(new URL('/health', through.url.replace('ws:', 'http:')));
  assert.equal(health.status, 503);
  assert.equal(((await health.json()) as { status: string }).status, 'draining');
  const late = await coco(through.url, ['lobby']);
  assert.notEqual(late.code, 0);
  assert.match(late.stderr, /503/);
  const [a, b] = await Promise.all([alice.done, bob.done]);
  assert.equal(a.code, 0, a.stdout + a.stderr);
  assert.match(a.stdout, /> match ended: you lost 0-40 \(bob wins 40-0 after 40 rounds\)/);
  assert.doesNotMatch(a.stdout, /server shutdown/);
  assert.match(b.stdout, /> match ended: you won 40-0 /);
  const stored = await record(id);
  assert.equal(stored.reason, 'bob wins 40-0 after 40 rounds');
  assert.deepEqual([...stored.scores!].sort((x, y) => x - y), [0, 40]);
  assert.equal(await through.exited, 0);
  assert.match(through.log(), /stopping: 1 of 1 players finished their matches/);
});

test('shutdown-drain-seconds bounds the drain: a player still in its match then is told plainly that this node stopped and the match goes on without it (never "server shutdown"), and the match goes on and is recorded by its own node', async () => {
  const through = await startNode(['--limit', 'shutdown-drain-seconds=1']);
  const { id, alice, bob } = await bridgedMatch(through, 600);
  through.kill('SIGTERM');
  const a = await alice.done;
  assert.match(a.stdout, /> the server closed the connection \(1001\): this node stopped before your match ended: the node running it goes on without you; the match was not over/);
  assert.doesNotMatch(a.stdout, /match ended: no result \(server shutdown\)/);
  assert.equal(await through.exited, 0);
  assert.match(through.log(), /stopping: 0 of 1 players finished their matches; 1 still playing were told their match goes on without them/);
  // The match went on without alice: her seat is scored as a player that left.
  const b = await bob.done;
  assert.match(b.stdout, /> match ended: you won /);
  const stored = await record(id);
  assert.match(stored.reason, /^alice retired in round \d+/, stored.reason);
});

test('a node stopped (SIGTERM) while its own match runs (a rolling restart): its waiting matches go at once, the running one plays out for both its players, local and bridged, and is recorded played out; then the node exits 0', async () => {
  const runner = await startNode();
  const { id, alice, bob } = await bridgedMatch(host, 40, runner);
  const waiting = await newMatch(runner.url, ['roshambo']);
  runner.kill('SIGTERM');
  await runner.waitForLog(/stopping: 1 running matches may finish first \(at most 30 s\)/);
  assert.equal((await coco(host.url, ['lobby'])).stdout.includes(waiting), false, 'the waiting match left the lobby at once');
  const [a, b] = await Promise.all([alice.done, bob.done]);
  assert.match(a.stdout, /> match ended: you lost 0-40 \(bob wins 40-0 after 40 rounds\)/);
  assert.match(b.stdout, /> match ended: you won 40-0 /);
  assert.equal((await record(id, runner)).reason, 'bob wins 40-0 after 40 rounds');
  assert.equal(await runner.exited, 0);
  assert.match(runner.log(), /stopping: 1 of 1 running matches finished/);
  // Its local player was waited for too, until it had read its result.
  assert.match(runner.log(), /stopping: 1 of 1 players finished their matches/);
});

test('shutdown-drain-seconds bounds how long a stopping node\'s own matches may run: one still running then ends as "server shutdown", recorded before its players are told', async () => {
  const runner = await startNode(['--limit', 'shutdown-drain-seconds=1']);
  const { id, alice, bob } = await bridgedMatch(host, 600, runner);
  runner.kill('SIGTERM');
  const [a, b] = await Promise.all([alice.done, bob.done]);
  assert.match(b.stdout, /> match ended: no result \(server shutdown\)/);
  assert.match(a.stdout, /> match ended: no result \(server shutdown\)/);
  assert.equal((await record(id, runner)).reason, 'server shutdown');
  assert.equal(await runner.exited, 0);
  assert.match(runner.log(), /stopping: 0 of 1 running matches finished; 1 end now \(server shutdown\)/);
});

import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { join } from 'node:path';
import { ROOT, coco, newMatch, startCoco, startServer, type ServerProcess } from '../support/processes.js';
import { startPostgres, startRedis, type PostgresServer, type RedisServer } from '../support/services.js';

// Two real cocod processes, nodes of one cluster through a real redis-server (persisting nothing)
// and one real PostgreSQL. Short leases (2 s, refreshed every 0.5 s); the test waits for what the
// nodes log, not for time.
const BOT = join(ROOT, 'test/fixtures/gesture_bot.py');
const LEASE = ['--limit', 'redis-lease-seconds=2', '--limit', 'redis-lease-refresh-seconds=0.5'];
let redis: RedisServer;
let postgres: PostgresServer;
let history: string;
let one: ServerProcess;
let two: ServerProcess;

async function startNode(): Promise<ServerProcess> {
  const node = await startServer(['--redis', redis.url, '--postgres', history, ...LEASE], null);
  await node.waitForLog(/node \S+ joined the cluster through Redis/);
  return node;
}

before(async () => {
  redis = await startRedis();
  postgres = await startPostgres();
  history = await postgres.createDatabase('outage');
  one = await startNode();
  two = await startNode();
});
after(async () => {
  await Promise.all([one?.stop(), two?.stop()]);
  await redis?.stop();
  await postgres?.stop();
});

test('a node killed (kill -9) while Redis is down, Redis back empty: the survivor records its running match as ended by node failure and its bridged players are told', async () => {
  const id = await newMatch(one.url, ['roshambo', '-a', 'rounds=1000', '-a', 'pace=0.5']);
  for (let attempt = 0; !(await coco(two.url, ['lobby'])).stdout.includes(id); attempt++) assert.ok(attempt < 200, `match ${id} never listed on node two`);
  const players = [startCoco(two.url, ['connect', id, '-n', 'carol', '--', 'python3', BOT, 'ROCK']), startCoco(two.url, ['connect', id, '-n', 'dave', '--', 'python3', BOT, 'ROCK'])];
  for (const player of players) await player.waitForOutput(/> match started/);

  await redis.halt();
  await Promise.all([one.waitForLog(/Redis is unreachable/), two.waitForLog(/Redis is unreachable/)]);
  one.kill('SIGKILL');
  await one.exited;
  await redis.start(); // a new redis-server: the directory, the leases and the counts are gone

  await two.waitForLog(/Redis lost its data: node \S+ \(1 running matches\) is given a lease to come back/);
  await two.waitForLog(new RegExp(`match ${id} recorded as ended by node failure`));
  const ended = await Promise.all(players.map((player) => player.done));
  for (const finished of ended) assert.match(finished.stdout, /> match ended: no result \(node failure\)/, JSON.stringify(finished));
  assert.match((await coco(two.url, ['history'])).stdout, new RegExp(`${id}\\s.*no result \\(node failure\\)`));
  assert.equal(two.log().split(`match ${id} recorded as ended by node failure`).length, 2, 'recorded once');
  const again = await newMatch(two.url, ['roshambo']);
  assert.ok(again, 'the survivor makes matches again');
});

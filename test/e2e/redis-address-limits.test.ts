import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import WebSocket from 'ws';
import { startServer, type ServerProcess } from '../support/processes.js';
import { startPostgres, startRedis, type PostgresServer, type RedisServer } from '../support/services.js';

// Two real cocod processes, nodes of one cluster through a real redis-server and one real PostgreSQL, each on its own port
// as on two machines. One client address (127.0.0.7) reaches both: its connections count against
// one budget of connections-per-address=2. Short leases (2 s, refreshed every 0.5 s) so a killed
// node is noticed soon; the test waits for what the nodes log, not for time.
const LEASE = ['--limit', 'redis-lease-seconds=2', '--limit', 'redis-lease-refresh-seconds=0.5'];
const CLIENT = '127.0.0.7';
let redis: RedisServer;
let postgres: PostgresServer;
let history: string;
let one: ServerProcess;
let two: ServerProcess;
const held: WebSocket[] = [];

async function startNode(): Promise<ServerProcess> {
  const node = await startServer(['--redis', redis.url, '--postgres', history, '--limit', 'connections-per-address=2', ...LEASE], null);
  await node.waitForLog(/node \S+ joined the cluster through Redis/);
  return node;
}

before(async () => {
  redis = await startRedis();
  postgres = await startPostgres();
  history = await postgres.createDatabase('limits');
  one = await startNode();
  two = await startNode();
});
after(async () => {
  for (const ws of held) ws.terminate();
  await Promise.all([one?.stop(), two?.stop()]);
  await redis?.stop();
  await postgres?.stop();
});

/** A WebSocket from the client's address, once open; kept open until the end. */
async function openFrom(node: ServerProcess): Promise<WebSocket> {
  const ws = new WebSocket(node.url, { localAddress: CLIENT });
  ws.on('error', () => {});
  held.push(ws);
  await new Promise((resolve, reject) => {
    ws.once('open', resolve);
    ws.once('close', () => reject(new Error('closed before it opened')));
  });
  return ws;
}

/** A WebSocket from the client's address that the node cuts off (before or after it opened). */
async function cutOff(node: ServerProcess): Promise<void> {
  const ws = new WebSocket(node.url, { localAddress: CLIENT });
  ws.on('error', () => {});
  await new Promise((resolve) => ws.once('close', resolve));
}

async function refusals(node: ServerProcess): Promise<number> {
  const text = await (await fetch(`http://127.0.0.1:${node.port}/metrics`)).text();
  return Number(/^cocod_requests_refused_total\{reason="connections-per-address"\} (\d+)$/m.exec(text)?.[1] ?? 0);
}

test('connections from one address to two nodes count against one budget; a killed node\'s connections leave the count with its lease', async () => {
  const first = await openFrom(one);
  const second = await openFrom(two);
  await cutOff(two);
  await two.waitForLog(/127\.0\.0\.7: connection refused \(connections-per-address; 1 since the last such line\)/);
  await cutOff(one);
  assert.equal(await refusals(one), 1, 'node one holds one of the two: the budget is the cluster\'s');
  assert.equal(first.readyState, WebSocket.OPEN);
  assert.equal(second.readyState, WebSocket.OPEN);

  one.kill('SIGKILL');
  await one.exited;
  await two.waitForLog(/node \S+ is down: its 0 matches and the connections it counted left the cluster/);
  const third = await openFrom(two);
  await cutOff(two);
  assert.equal(await refusals(two), 2, 'the dead node\'s connection no longer counts: one more was admitted, the next was not');
  assert.equal(third.readyState, WebSocket.OPEN);
  assert.equal(second.readyState, WebSocket.OPEN);
});

import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { encodeRequest } from '../../src/protocol/coco/json-codec.js';
import { RawClient } from '../support/raw-client.js';
import { plainLogLine, runCocod, startServer, type ServerProcess } from '../support/processes.js';
import { freePort, startPostgres, startRedis, type PostgresServer, type RedisServer } from '../support/services.js';

// Two real cocod nodes on one real redis-server and PostgreSQL (loopback). A client creates a match on node A
// and joins it through node B at once, before B could have heard of it through the directory's
// channel: the id must be usable on every node from the moment it is handed out.
const ROUNDS = 100;
let redis: RedisServer;
let postgres: PostgresServer;
let nodes: ServerProcess[] = [];
let history = '';

before(async () => {
  redis = await startRedis();
  postgres = await startPostgres();
  history = await postgres.createDatabase('race');
  for (let i = 0; i < 2; i++) {
    const node = await startServer(['--redis', redis.url, '--postgres', history, '--limit', `connections-per-address=${ROUNDS + 10}`], null);
    await node.waitForLog(/node \S+ joined the cluster through Redis/);
    nodes.push(node);
  }
});
after(async () => {
  await Promise.all(nodes.map((node) => node.stop()));
  nodes = [];
  await redis?.stop();
  await postgres?.stop();
});

async function handshaken(url: string): Promise<RawClient> {
  const client = await RawClient.open(url);
  await client.ask(encodeRequest({ type: 'Handshake', magic: 'coco', version: 2 }));
  return client;
}

test(`a match created on node A is joined through node B at once, ${ROUNDS} times in a row, with no "does not exists"`, async () => {
  const [a, b] = nodes as [ServerProcess, ServerProcess];
  const creator = await handshaken(a.url);
  const opened: RawClient[] = [creator];
  const failures: string[] = [];
  try {
    for (let round = 0; round < ROUNDS; round++) {
      // The joiner's connection is ready before the match exists: nothing delays the join.
      const joiner = await handshaken(b.url);
      opened.push(joiner);
      // The master password lifts the per-address quotas (100 waiting matches of one address).
      const made = await creator.ask(encodeRequest({ type: 'GameNew', name: `race ${round}`, game: 'roshambo', params: { players: 2, bots: 0, timeout: null }, args: {}, password: null, verification: 'master' }));
      const id = (JSON.parse(made!) as { GameNew: { id: { Ok?: string; Err?: string } } }).GameNew.id;
      assert.ok(id.Ok, `GameNew refused: ${made}`);
      const joined = await joiner.ask(encodeRequest({ type: 'LobbyJoinMatch', id: id.Ok, name: `p${round}`, password: null }));
      const answer = (JSON.parse(joined!) as { LobbyJoinedMatch: { info: { Ok?: { id: string }; Err?: string } } }).LobbyJoinedMatch.info;
      if (!answer.Ok) failures.push(`${id.Ok}: ${answer.Err}`);
      else assert.equal(answer.Ok.id, id.Ok);
      joiner.close();
    }
  } finally {
    for (const client of opened) client.close();
  }
  assert.deepEqual(failures, [], `${failures.length} of ${ROUNDS} joins failed`);
  // The reference text for an id nobody made is kept on the wire.
  const stranger = await handshaken(b.url);
  try {
    const reply = await stranger.ask(encodeRequest({ type: 'LobbyJoinMatch', id: '0000000000000', name: 'x', password: null }));
    assert.match(reply!, /Game \\"0000000000000\\" does not exists/);
  } finally {
    stranger.close();
  }
});

test('Redis restarted empty: a node started then never gets a living node\'s number, and the log names each number', async () => {
  const numberOf = async (node: ServerProcess): Promise<number> => Number((await node.waitForLog(/joined the cluster through Redis at \S+: node number (\d+) \(match ids start with \w{3}\), from PostgreSQL/))[1]);
  const living = [await numberOf(nodes[0]!), await numberOf(nodes[1]!)];
  assert.notEqual(living[0], living[1]);
  await redis.restart();
  for (const node of nodes) await node.waitForLog(/Redis is back/);
  const late = await startServer(['--redis', redis.url, '--postgres', history], null);
  nodes.push(late);
  const number = await numberOf(late);
  assert.ok(!living.includes(number), `node number ${number} is a living node's (${living.join(', ')})`);
});

test('a node that cannot reach Redis at start exits 1, and its one error line says why (connection refused)', async () => {
  const nowhere = `redis://127.0.0.1:${await freePort()}`;
  const run = await runCocod(['-p', '0', '-v', 'master', '--redis', nowhere, '--postgres', history]);
  assert.equal(run.code, 1, run.stderr);
  const lines = run.stderr.trim().split('\n').map(plainLogLine).filter((line) => /redis|Redis|closed/.test(line));
  assert.equal(lines.length, 1, lines.join('\n'));
  assert.match(lines[0]!, /cannot join the cluster through Redis at redis:\/\/127\.0\.0\.1:\d+\/?: connect ECONNREFUSED/);
});

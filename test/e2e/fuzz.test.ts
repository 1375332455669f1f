import { test } from 'node:test';
import assert from 'node:assert/strict';
import WebSocket from 'ws';
import { CocoClient } from '../../src/client/coco-client.js';
import { Random } from '../../src/match/random.js';
import { newMatch, startServer } from '../support/processes.js';

/** Malformed, mistyped, out-of-state and oversized requests, chosen by a seeded source. */
function hostileMessage(random: Random): string | Buffer {
  const junk = (n: number) => Buffer.from(Array.from({ length: n }, () => random.int(256)));
  const pick = random.int(14);
  switch (pick) {
    case 0: return junk(1 + random.int(64)).toString('latin1');
    case 1: return '{"GameNew":{"name":5,"game":[],"params":null}}';
    case 2: return `{"GameNew":{"name":"f","game":"roshambo","params":{"players":${random.pick(['-1', '1e308', '2.5', '"2"', 'null'])},"bots":0,"timeout":${random.pick(['-1', '1e308', '"x"', 'null', '0'])}},"args":{"rounds":"${random.pick(['0', '99999', 'x', '-3'])}"},"password":null,"verification":null}}`;
    case 3: return `{"LobbyJoinMatch":{"id":"${junk(13).toString('hex').slice(0, 13)}","name":"${'n'.repeat(random.int(40))}","password":null}}`;
    case 4: return '{"LobbyLeaveMatch":{}}';
    case 5: return '{"SpectateLeave":{}}';
    case 6: return '{"LobbyUnsubscribe":{}}';
    case 7: return `{"HistoryMatch":{"id":"${random.pick(['', 'zz', '0000000000001', 'x'.repeat(1000)])}"}}`;
    case 8: return junk(1 + random.int(512));
    case 9: return '{"Handshake":{"magic":"coco","version":2}}';
    case 10: return `{"SpectateJoin":{"id":${random.pick(['null', '1', '"vvvvvvvvvvvvv"'])}}}`;
    case 11: return '['.repeat(1 + random.int(5000));
    case 12: return `{"GameDescription":{"name":"${'\\u0000'.repeat(random.int(10))}"}}`;
    default: return random.int(40) === 0 ? Buffer.alloc(17 << 20, 0x41).toString() : '{"LobbyList":{}}';
  }
}

async function fuzzConnection(url: string, random: Random, budget: { left: number }): Promise<void> {
  while (budget.left > 0) {
    const ws = new WebSocket(url);
    const open = await new Promise<boolean>((resolve) => {
      ws.once('open', () => resolve(true));
      ws.once('error', () => resolve(false));
    });
    if (!open) continue;
    ws.on('error', () => {});
    const closed = new Promise((resolve) => ws.once('close', resolve));
    if (random.int(3) > 0) ws.send('{"Handshake":{"magic":"coco","version":2}}');
    while (budget.left > 0 && ws.readyState === WebSocket.OPEN) {
      budget.left--;
      const message = hostileMessage(random);
      ws.send(message, { binary: Buffer.isBuffer(message) });
      if (budget.left % 25 === 0) await new Promise((resolve) => setImmediate(resolve));
    }
    ws.terminate();
    await closed;
  }
}

async function player(url: string, id: string, name: string, gesture: string): Promise<string> {
  const client = await CocoClient.connect(url);
  const joined = await client.request({ type: 'LobbyJoinMatch', id, name, password: null }, 'LobbyJoinedMatch');
  assert.ok('Ok' in joined.info);
  let received = '';
  let answered = 0;
  for (;;) {
    const item = await client.next();
    assert.ok(item, 'the connection stays up for the whole match');
    if (item.kind === 'reply') {
      if (item.reply.type === 'MatchEnded') break;
      continue;
    }
    received += item.bytes.toString();
    const lines = received.split('\n').length - 1;
    // After the 3 header lines, one move per line received.
    while (answered < lines - 2 && answered < 300) {
      client.sendBytes(Buffer.from(`${gesture}\n`));
      answered++;
    }
  }
  client.close();
  return received;
}

test('thousands of hostile messages close only their own connections while a match beside them finishes correctly', async () => {
  const server = await startServer();
  try {
    const id = await newMatch(server.url, ['roshambo', 'beside', '-a', 'rounds=300', '-a', 'pace=0']);
    const budget = { left: 4000 };
    const fuzzers = Array.from({ length: 8 }, (_, i) => fuzzConnection(server.url, Random.fromSeed(`fuzz-${i}`), budget));
    const [alice, bob] = await Promise.all([player(server.url, id, 'alice', 'ROCK'), player(server.url, id, 'bob', 'PAPER'), ...fuzzers]);
    assert.equal(alice!.split('\n').slice(3, -1).join(''), 'PAPER'.repeat(300));
    assert.equal(bob!.split('\n').slice(3, -1).join(''), 'ROCK'.repeat(300));
    await server.recorded(id);
    const client = await CocoClient.connect(server.url);
    const outcome = await client.historyMatch(id);
    assert.ok('Ok' in outcome);
    assert.deepEqual([...outcome.Ok.players].sort(), ['alice', 'bob']);
    assert.equal(Buffer.from(outcome.Ok.history).toString().split('\n').length, 3 + 600 + 1);
    const { info } = await client.request({ type: 'LobbyList' }, 'LobbyList');
    assert.ok(Array.isArray(info));
    client.close();
    assert.match(server.log(), /closing connection: invalid request/);
    assert.match(server.log(), /match .* ended: 0 300 \(bob wins 300-0 after 300 rounds\)|match .* ended: 300 0 \(bob wins 300-0 after 300 rounds\)/);
  } finally {
    await server.stop();
  }
});

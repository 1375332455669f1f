import { test } from 'node:test';
import assert from 'node:assert/strict';
import { createServer, type AddressInfo, type Server, type Socket } from 'node:net';
import { InlineCompute } from '../../match/compute.js';
import { Match, lineupOf, type MatchOutcome } from '../../match/match.js';
import { SpectatorFeed } from '../../match/spectator-feed.js';
import { parseClientRequest, type ClientRequest } from './front-door.js';
import { createHaseUndIgelGame } from './hase-und-igel.js';
import { GAME_TYPE } from './messages.js';
import { clientOpening, parseSochaArgs, runSochaClient, sochaClientMain } from './socha-client.js';
import { SERVER_BOT_SEARCH } from './bot.js';
import { XmlStreamReader } from './xml/xml-reader.js';

const game = createHaseUndIgelGame();

/**
 * A tiny Software-Challenge server for the test, built the way the TCP front door is meant to be:
 * it reads the client's opening only far enough to see its join, then hands every byte (the
 * opening included) to a seat of a match in which a server bot holds the other seat.
 */
function startServer(): Promise<{ server: Server; port: number; outcomes: Promise<MatchOutcome>[]; joins: ClientRequest[] }> {
  const outcomes: Promise<MatchOutcome>[] = [];
  const joins: ClientRequest[] = [];
  const server = createServer((socket: Socket) => {
    const reader = new XmlStreamReader();
    const buffered: Buffer[] = [];
    const onData = (chunk: Buffer) => {
      buffered.push(chunk);
      const first = reader.push(chunk.toString('utf8')).find((e) => e.kind === 'message');
      if (!first || first.kind !== 'message') return;
      const request = parseClientRequest(first.element);
      if (!request.ok || (request.value.kind !== 'join' && request.value.kind !== 'joinPrepared')) {
        socket.destroy();
        return;
      }
      joins.push(request.value);
      socket.off('data', onData);
      // Wide time limits: both sides search on real time, and these tests are about the client.
      const settings = game.configure({ players: 2, bots: 1, timeout: null, args: { room: 'tcp-room', seed: 'tcp', softTimeout: '300', hardTimeout: '3600' } });
      assert.ok(settings.ok);
      const match = new Match({ game, settings: settings.value, lineup: lineupOf(['socha'], 1), seed: 'tcp', spectators: new SpectatorFeed(), compute: new InlineCompute() });
      const seat = match.seats[0]!;
      seat.attach({ send: (bytes) => socket.write(bytes), close: () => socket.end() });
      for (const bytes of buffered) seat.receive(bytes);
      socket.on('data', (bytes: Buffer) => seat.receive(bytes));
      socket.on('end', () => seat.receiveEnd());
      socket.on('error', () => seat.receiveEnd());
      outcomes.push(match.run());
    };
    socket.on('data', onData);
  });
  return new Promise((resolve) => server.listen(0, '127.0.0.1', () => resolve({ server, port: (server.address() as AddressInfo).port, outcomes, joins })));
}

test('the client arguments follow the Software-Challenge clients', () => {
  assert.deepEqual(parseSochaArgs([]), { ok: true, value: { host: 'localhost', port: 13050, reservation: null, search: SERVER_BOT_SEARCH } });
  const parsed = parseSochaArgs(['-h', 'example', '--port=4000', '-r', 'RC1']);
  assert.ok(parsed.ok);
  assert.deepEqual([parsed.value.host, parsed.value.port, parsed.value.reservation], ['example', 4000, 'RC1']);
  assert.equal(parseSochaArgs(['-p', 'x']).ok, false);
  assert.equal(parseSochaArgs(['--colour', 'red']).ok, false);
  assert.equal(parseSochaArgs(['-h']).ok, false);
});

test('the client opens with <protocol> and a join, or a joinPrepared with a reservation code', () => {
  assert.equal(clientOpening(null), `<protocol>\n  <join gameType="${GAME_TYPE}"/>\n`);
  assert.equal(clientOpening('RC-7'), '<protocol>\n  <joinPrepared reservationCode="RC-7"/>\n');
});

test('the client plays a whole game over TCP against a server bot and reports the result', async () => {
  const { server, port, outcomes, joins } = await startServer();
  try {
    const summary = await runSochaClient({ host: '127.0.0.1', port, reservation: null, search: SERVER_BOT_SEARCH });
    assert.deepEqual(joins, [{ kind: 'join', gameType: GAME_TYPE }]);
    const outcome = await outcomes[0]!;
    assert.equal(outcome.error, null);
    assert.equal(summary.error, null);
    assert.equal(summary.roomId, 'tcp-room');
    assert.equal(summary.color, 'RED');
    assert.ok(summary.moves > 5);
    // The game's count is both players': RED (this client) moved first, so ours are half of it, rounded up.
    assert.equal(summary.moves, Math.ceil(summary.gameMoves! / 2), JSON.stringify(summary));
    assert.equal(summary.score?.[0], outcome.result!.scores[0]);
    assert.equal(outcome.seats[0]!.closeReason, null, 'the client closed politely');
  } finally {
    server.close();
  }
});

test('with a reservation code the client sends joinPrepared', async () => {
  const { server, port, outcomes, joins } = await startServer();
  try {
    const code = await sochaClientMain(['-h', '127.0.0.1', '-p', String(port), '-r', 'RC1']);
    assert.equal(code, 0);
    assert.deepEqual(joins, [{ kind: 'joinPrepared', reservationCode: 'RC1' }]);
    assert.equal((await outcomes[0]!).error, null);
  } finally {
    server.close();
  }
});

test('bad arguments give exit code 2, an unreachable server exit code 1', async () => {
  assert.equal(await sochaClientMain(['--nonsense', 'x']), 2);
  const { server, port } = await startServer();
  server.close();
  await new Promise((resolve) => server.once('close', resolve));
  assert.equal(await sochaClientMain(['-h', '127.0.0.1', '-p', String(port)]), 1);
});

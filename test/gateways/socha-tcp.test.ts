import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { createHaseUndIgelGame } from '../../src/games/hase-und-igel/hase-und-igel.js';
import { RoomDirectory } from '../../src/games/hase-und-igel/room-control.js';
import { Lobby } from '../../src/lobby/lobby.js';
import { InlineCompute } from '../../src/match/compute.js';
import { MemoryHistoryStore } from '../../src/store/memory-history-store.js';
import { JOIN, SochaPeer, randomMoves } from '../support/socha-peer.js';
import { seatNames } from '../../src/gateways/socha-rooms.js';
import { SochaTcpGateway, type SochaTcpOptions } from '../../src/gateways/socha-tcp.js';
import { TrustedProxies } from '../../src/gateways/trusted-proxies.js';
import { lineLog } from '../../src/util/log.js';
import { AddressLimits } from '../../src/gateways/address-limits.js';
import { PeerAddresses } from '../../src/gateways/peer-addresses.js';
import { DEFAULT_LIMITS } from '../../src/gateways/server-limits.js';
import { ManualClock, systemClock } from '../../src/util/clock.js';

const rooms = new RoomDirectory();
const store = new MemoryHistoryStore();
const lobby = new Lobby({
  games: [createHaseUndIgelGame({ rooms })],
  store,
  compute: new InlineCompute(),
  verificationPassword: 'master',
  seeds: () => 'seed',
});
const logs: string[] = [];
/**
 * These gateways run on the system clock, over real sockets, so every limit here is wide enough
 * that no test meets it by accident on a busy machine; the one short deadline, the first
 * request's, is on a gateway of its own used only by the test that means to miss it.
 */
function makeGateway(firstRequestSeconds: number): SochaTcpGateway {
  return new SochaTcpGateway(makeGatewayOptions(firstRequestSeconds));
}

function makeGatewayOptions(firstRequestSeconds: number): SochaTcpOptions {
  return {
    lobby,
    rooms,
    adminPassword: 'pw',
    softTimeout: 300,
    hardTimeout: 600,
    log: lineLog((line) => logs.push(line)),
    serverLimits: DEFAULT_LIMITS,
    addresses: new AddressLimits(DEFAULT_LIMITS, systemClock),
    peers: PeerAddresses.direct(),
    limits: { firstRequestSeconds, firstRequestBytes: 4096, closeGraceSeconds: 30 },
  };
}
const gateway = makeGateway(300);
const strict = makeGateway(0.2);
let port = 0;
let strictPort = 0;

before(async () => {
  port = (await gateway.listen(0, '127.0.0.1')).port;
  strictPort = (await strict.listen(0, '127.0.0.1')).port;
});
after(async () => {
  try {
    await gateway.close();
    await strict.close();
  } finally {
    await lobby.shutdown();
  }
});

/**
 * Polls `check`: the gateway has no event for a connection it has forgotten. Bounded by a count of
 * looks, not by a time budget: each look waits for a timer, longer on a busy machine.
 */
async function settled(check: () => boolean): Promise<void> {
  for (let i = 0; i < 1000 && !check(); i++) await new Promise((resolve) => setTimeout(resolve, 10));
}

test('a client silent past the first-request deadline is closed, not before it', async () => {
  const started = performance.now();
  const peer = SochaPeer.open(strictPort, '<protocol>\n');
  await peer.closed;
  // A lower bound, which a busy machine can only make easier to meet (the deadline counts from the
  // accept, after `started`); the log line says which deadline closed it.
  assert.ok(performance.now() - started >= 150);
  assert.ok(logs.some((line) => line.endsWith('no request within 0.2 s; connection closed')));
  assert.equal(peer.text, '<protocol/>', 'an empty stream, as the real server closes one that carried nothing');
});

test('too many bytes before the first request close the connection', async () => {
  const peer = SochaPeer.open(port, `<protocol><!-- ${'x'.repeat(5000)} -->`);
  await peer.closed;
  assert.ok(logs.some((line) => line.endsWith('more than 4096 bytes before the first request; connection closed')));
  assert.equal(peer.text, '<protocol/>');
});

test('a client that ends its stream before any request is let go', async () => {
  const peer = SochaPeer.open(port, '<protocol>');
  peer.socket.end();
  await peer.closed;
  assert.ok(logs.some((line) => line.endsWith('the stream ended before a request; connection closed')));
});

test('after a game and an administrator session nothing is left: no connection, room, match or timer', async () => {
  const root = SochaPeer.open(port, '<protocol><authenticate passphrase="pw"/>');
  const a = SochaPeer.open(port, JOIN, randomMoves('x'));
  await root.message('joinedGameRoom');
  const b = SochaPeer.open(port, JOIN, randomMoves('y'));
  await Promise.all([a.closed, b.closed]);
  assert.ok(a.text.endsWith('</protocol>') && b.text.endsWith('</protocol>'));
  root.socket.end('</protocol>');
  await root.closed;
  assert.ok(root.text.endsWith('</protocol>'), 'the administrator stream is closed too');
  await lobby.idle();
  await settled(() => gateway.connections === 0);
  assert.equal(gateway.connections, 0);
  assert.equal(rooms.size, 0);
  assert.deepEqual(lobby.list(), []);
  assert.equal((await store.list({ limit: 10 })).length >= 1, true);
});

test('display names become distinct valid player names, in slot order', () => {
  const slot = (displayName: string) => ({ displayName, canTimeout: true, shouldBePaused: false, bot: false });
  assert.deepEqual(seatNames([slot('alice'), slot('bob')]), ['alice', 'bob']);
  assert.deepEqual(seatNames([slot('Team Rocket'), slot('Team Rocket')]), ['Team_Rocket', 'Team_Rocket#2']);
  assert.deepEqual(seatNames([slot(''), slot('a$b')]), ['player1', 'a_b']);
  assert.deepEqual(seatNames([slot('x'.repeat(30))]), ['x'.repeat(16), 'player2']);
});

test('a voided or unknown reservation code, an unknown game type and an unknown element are answered with the bytes of 18.2.6', async () => {
  const refused = '<protocol>\n  <sc.protocol.responses.CloseConnection/>\n</protocol>';
  for (const [opening, reply] of [
    ['<protocol><joinPrepared reservationCode="nope"/>', refused],
    ['<protocol><join gameType="swc_2017_mississippi_queen"/>', refused],
    ['<protocol><authenticate passphrase="not-pw"/>', refused],
    ['<protocol><join/>', refused],
    ['<protocol><sc.protocol.requests.Whatever/>', '<protocol/>'],
  ] as const) {
    const peer = SochaPeer.open(port, opening);
    await peer.closed;
    assert.equal(peer.text, reply, opening);
  }
});

test('a plain join is answered with joined at once, and the game does not repeat it', async () => {
  const a = SochaPeer.open(port, JOIN, randomMoves('j1'));
  const joined = await a.message('joined');
  const roomId = joined.attributes.find(([key]) => key === 'roomId')![1];
  assert.equal(a.text, `<protocol>\n  <joined roomId="${roomId}"/>`);
  const b = SochaPeer.open(port, JOIN, randomMoves('j2'));
  await Promise.all([a.closed, b.closed]);
  for (const peer of [a, b]) {
    assert.ok(peer.text.startsWith(`<protocol>\n  <joined roomId="${roomId}"/>\n  <room roomId="${roomId}">\n    <data class="welcomeMessage" color="`));
    assert.equal(peer.text.split('<joined ').length, 2, 'one joined');
    assert.equal(peer.text.split('<protocol>').length, 2, 'one opening');
  }
  assert.ok(a.text.includes('color="red"'), 'the first to join plays RED');
});

test('a balancer connection still to send its PROXY preamble counts as open, and close() ends it', async () => {
  const trusted = TrustedProxies.parse('127.0.0.1');
  assert.ok(trusted.ok);
  // A clock that never moves: only close() can end the connection.
  const peers = new PeerAddresses({ trusted: trusted.value, proxyProtocol: true, preambleSeconds: 5, preambleBytes: 1024, clock: new ManualClock(), log: lineLog((line) => logs.push(line)) });
  const balanced = new SochaTcpGateway({ ...makeGatewayOptions(300), peers });
  const balancedPort = (await balanced.listen(0, '127.0.0.1')).port;
  const peer = SochaPeer.open(balancedPort, 'PROXY TCP4 203.0');
  await settled(() => balanced.connections === 1);
  assert.equal(balanced.connections, 1);
  await balanced.close();
  await peer.closed;
});

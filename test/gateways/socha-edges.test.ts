import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { createHaseUndIgelGame } from '../../src/games/hase-und-igel/hase-und-igel.js';
import { GAME_TYPE } from '../../src/games/hase-und-igel/messages.js';
import { RoomDirectory } from '../../src/games/hase-und-igel/room-control.js';
import { attr } from '../../src/games/hase-und-igel/xml/xml-element.js';
import { Lobby } from '../../src/lobby/lobby.js';
import { InlineCompute } from '../../src/match/compute.js';
import { MemoryHistoryStore } from '../../src/store/memory-history-store.js';
import { SOCHA_TCP_LIMITS, SochaTcpGateway } from '../../src/gateways/socha-tcp.js';
import { AddressLimits } from '../../src/gateways/address-limits.js';
import { PeerAddresses } from '../../src/gateways/peer-addresses.js';
import { DEFAULT_LIMITS } from '../../src/gateways/server-limits.js';
import { lineLog } from '../../src/util/log.js';
import { ManualClock, systemClock } from '../../src/util/clock.js';
import { JOIN, SochaPeer, joinPrepared, randomMoves, type Answer } from '../support/socha-peer.js';

/**
 * The edges of the real 18.2.6 server that clients meet (notes/hase-und-igel-2018.md, "More
 * edges"), each with the bytes a real client sends: how a connection ends after and during a
 * game, a move for an unknown room, and what an administrator's requests do to its connection.
 */

const rooms = new RoomDirectory();
const lobby = new Lobby({ games: [createHaseUndIgelGame({ rooms })], store: new MemoryHistoryStore(), compute: new InlineCompute(), verificationPassword: 'master', seeds: () => 'seed' });
const logs: string[] = [];
/** The port's own deadlines on a clock the tests move (the linger after a game). */
const clock = new ManualClock();
const gateway = new SochaTcpGateway({
  lobby,
  rooms,
  adminPassword: 'pw',
  // Wide move limits: a busy machine must not turn a slow answer into a lost game here.
  softTimeout: 300,
  hardTimeout: 600,
  log: lineLog((line) => logs.push(line)),
  serverLimits: DEFAULT_LIMITS,
  addresses: new AddressLimits(DEFAULT_LIMITS, systemClock),
  peers: PeerAddresses.direct(),
  clock,
});
let port = 0;
const REFUSED = '<protocol>\n  <sc.protocol.responses.CloseConnection/>\n</protocol>';
/** What the real clients write to leave after the result (XStream's close and end of stream). */
const CLIENT_LEAVING = '\n  <sc.protocol.responses.CloseConnection/>\n</protocol>';

before(async () => {
  port = (await gateway.listen(0, '127.0.0.1')).port;
});
after(async () => {
  try {
    await gateway.close();
  } finally {
    await lobby.shutdown();
  }
});

function admin(): SochaPeer {
  return SochaPeer.open(port, '<protocol>\n  <authenticate passphrase="pw"/>\n');
}

/** A room with the server bot as RED and a reserved seat for BLUE; resolves with the code. */
async function againstBot(root: SochaPeer, nth = 0): Promise<{ roomId: string; code: string }> {
  root.send(
    `  <prepare gameType="${GAME_TYPE}">\n    <slot displayName="bot" canTimeout="true" shouldBePaused="false" bot="true"/>\n` +
      `    <slot displayName="me" canTimeout="true" shouldBePaused="false"/>\n  </prepare>\n`,
  );
  const prepared = await root.until((ms) => ms.filter((m) => m.name === 'prepared')[nth], '<prepared>');
  return { roomId: attr(prepared, 'roomId')!, code: prepared.children[0]!.text };
}

/** Polls `check` a bounded number of times (the port has no event for it). */
async function settled(check: () => boolean): Promise<void> {
  for (let i = 0; i < 1000 && !check(); i++) await new Promise((resolve) => setTimeout(resolve, 10));
}

/** Waits until the match of `roomId` has left the lobby: its players were told it is over. */
async function matchGone(roomId: string): Promise<void> {
  await settled(() => !lobby.list().some((match) => match.args['room'] === roomId));
  await lobby.idle();
  for (let i = 0; i < 5; i++) await new Promise((resolve) => setImmediate(resolve));
}

test('after the result a client that stays connected is left open without the end of the stream; when it closes it gets </protocol> at once', async () => {
  const root = admin();
  const { roomId, code } = await againstBot(root);
  // politeClose false: the client stays after <left>, as a client that keeps its socket does.
  const me = SochaPeer.open(port, joinPrepared(code), randomMoves('stay'), false);
  await me.message('left');
  await matchGone(roomId);
  assert.ok(!me.text.endsWith('</protocol>'), 'no end of stream while the client stays');
  assert.equal(me.socket.readyState, 'open');
  me.socket.end(CLIENT_LEAVING);
  await me.closed;
  assert.ok(me.text.endsWith(`<left roomId="${roomId}"/>\n</protocol>`), me.text.slice(-120));
  root.socket.end();
});

test(`a client that stays connected after its game is let go after ${SOCHA_TCP_LIMITS.lingerSeconds} s (lingerSeconds), with the end of its stream`, async () => {
  const root = admin();
  const { roomId, code } = await againstBot(root);
  const lingerMs = SOCHA_TCP_LIMITS.lingerSeconds * 1000;
  const lingering = clock.timerSet(lingerMs, 2);
  const me = SochaPeer.open(port, joinPrepared(code), randomMoves('idle'), false);
  await me.message('left');
  await matchGone(roomId);
  await lingering;
  await clock.advance(lingerMs - 1);
  assert.equal(me.socket.readyState, 'open', 'not before the limit');
  await clock.advance(1);
  await me.closed;
  assert.ok(me.text.endsWith(`<left roomId="${roomId}"/>\n</protocol>`));
  root.socket.end();
});

test('a client that closes after the result is let go at once: the match against the bot ends with it, with no grace period', async () => {
  const root = admin();
  const { roomId, code } = await againstBot(root);
  const timersBefore = clock.pending;
  const me = SochaPeer.open(port, joinPrepared(code), randomMoves('polite'));
  await me.closed;
  assert.ok(me.text.endsWith('</protocol>'));
  await matchGone(roomId);
  // Nothing waited on the port's clock (it never moved): no grace, no linger left behind.
  assert.equal(clock.pending, timersBefore);
  root.socket.end();
});

test('a client that closes its stream mid-game gets </protocol> before the connection closes, and loses with LEFT', async () => {
  const root = admin();
  const { code } = await againstBot(root);
  let asked = false;
  const leaving: Answer = () => {
    asked = true;
    return null;
  };
  const me = SochaPeer.open(port, joinPrepared(code), leaving, false);
  await me.until(() => (asked ? true : undefined), 'a move request');
  // The real clients' last bytes (it stops with its stream's end), half-closing the socket.
  me.socket.end('\n</protocol>');
  await me.closed;
  assert.ok(me.text.endsWith('</room>\n</protocol>'), me.text.slice(-100));
  assert.equal(me.all('result').length, 0);
  root.socket.end();
});

test('a move naming an unknown room closes the connection and the player is gone (LEFT); the move is played nowhere', async () => {
  const observer = admin();
  const other = admin();
  const { roomId, code } = await againstBot(observer);
  observer.send(`  <observe roomId="${roomId}"/>\n`);
  await observer.message('observed');
  const move = `  <room roomId="no-such-room">\n    <data class="move">\n      <advance order="0" distance="1"/>\n    </data>\n  </room>\n`;
  const me = SochaPeer.open(port, joinPrepared(code), () => move, false);
  await me.closed;
  assert.ok(me.text.endsWith('\n</protocol>'));
  assert.equal(me.all('result').length, 0);
  const result = await observer.data('result');
  const causes = result.children.filter((c) => c.name === 'score').map((s) => attr(s, 'cause'));
  assert.deepEqual(causes, ['REGULAR', 'LEFT']);
  observer.socket.end();
  other.socket.end();
});

test('freeReservation keeps the administrator connection open for later requests; the freed code is refused', async () => {
  const root = admin();
  const { code } = await againstBot(root);
  root.send(`  <freeReservation reservation="${code}"/>\n`);
  await againstBot(root, 1);
  assert.equal(root.socket.readyState, 'open');
  assert.ok(!root.text.includes('CloseConnection'));
  const late = SochaPeer.open(port, joinPrepared(code));
  await late.closed;
  assert.equal(late.text, REFUSED);
  root.socket.end();
});

const closingRequests = [
  ['cancel of an unknown room', '<cancel roomId="no-such-room"/>'],
  ['step in an unknown room', '<step roomId="no-such-room" forced="false"/>'],
  ['prepare of an unknown game type', '<prepare gameType="swc_2019_piranhas"><slot displayName="a"/><slot displayName="b"/></prepare>'],
  ['prepare with three slots', `<prepare gameType="${GAME_TYPE}"><slot displayName="a"/><slot displayName="b"/><slot displayName="c"/></prepare>`],
] as const;

for (const [what, request] of closingRequests) {
  test(`an administrator's ${what} closes its connection with the close message, as on 18.2.6`, async () => {
    const root = SochaPeer.open(port, `<protocol>\n  <authenticate passphrase="pw"/>\n  ${request}\n`);
    await root.closed;
    assert.equal(root.text, REFUSED);
  });
}

test('administrator requests before authenticate are ignored, and <protocol> comes with the first answer', async () => {
  const root = SochaPeer.open(
    port,
    `<protocol>\n  <testMode testMode="true"/>\n  <prepare gameType="${GAME_TYPE}"><slot displayName="a"/><slot displayName="b"/></prepare>\n  <authenticate passphrase="pw"/>\n`,
  );
  await settled(() => logs.some((line) => line.endsWith('administrator authenticated')));
  await new Promise((resolve) => setImmediate(resolve));
  assert.equal(root.text, '', 'nothing was answered: no <protocol> before a message');
  root.send('  <testMode testMode="false"/>\n');
  await root.message('testing');
  assert.equal(root.text, '<protocol>\n  <testing testMode="false"/>');
  assert.ok(logs.some((line) => line.endsWith('admin request <prepare> before authenticate ignored')));
  root.socket.end('</protocol>');
  await root.closed;
});

test('an administrator request sent by a player is ignored, before its join and during its game', async () => {
  const prepare = `  <prepare gameType="${GAME_TYPE}"><slot displayName="a"/><slot displayName="b"/></prepare>\n`;
  const moves = randomMoves('ignored');
  const answer: Answer = (state, roomId) => `  <testMode testMode="true"/>\n${moves(state, roomId) as string}`;
  const a = SochaPeer.open(port, `<protocol>\n${prepare}  <join gameType="${GAME_TYPE}"/>\n`, answer);
  const b = SochaPeer.open(port, JOIN, randomMoves('plain'));
  await Promise.all([a.closed, b.closed]);
  const result = a.all('result')[0]!;
  assert.deepEqual(
    result.children.filter((c) => c.name === 'score').map((s) => attr(s, 'cause')),
    ['REGULAR', 'REGULAR'],
  );
});

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { EventEmitter } from 'node:events';
import type { Socket } from 'node:net';
import type { WebSocket } from 'ws';
import { roshambo } from '../games/roshambo/roshambo.js';
import { Lobby, type MatchMember, type PlayerSeat } from '../lobby/lobby.js';
import type { SeatCloseReason, SeatTransport } from '../match/seat.js';
import { InlineCompute } from '../match/compute.js';
import { decodeHistoryMatchReply } from '../protocol/coco/bincode.js';
import { encodeRequest } from '../protocol/coco/json-codec.js';
import type { Request } from '../protocol/coco/messages.js';
import type { NewMatchRecord } from '../store/history-store.js';
import { MemoryHistoryStore } from '../store/memory-history-store.js';
import { ManualClock } from '../util/clock.js';
import { lineLog } from '../util/log.js';
import { AddressLimits, type RefusalReason } from './address-limits.js';
import { CLOSE_CODES, CocoConnection, LEFT_MATCH_ON_OTHER_NODE, redact } from './coco-connection.js';
import { ReplaySlots } from './replay-slots.js';
import { resolveLimits, type ServerLimits } from './server-limits.js';
import { finishedMatch } from '../../test/support/match-records.js';
import { nameDesk } from '../names/name-desk.js';
import { StoredNameClaims } from '../names/name-claims.js';

/** A WebSocket whose unsent byte count the test sets, recording what the connection does to it. */
class FakeWebSocket extends EventEmitter {
  bufferedAmount = 0;
  paused = false;
  readonly sent: string[] = [];
  /** The binary frames among them. */
  readonly binaries: Buffer[] = [];
  /** When set, what is sent stays unread (counted in bufferedAmount) until the test reads it. */
  holdSent = false;
  closedWith: { code: number; reason: string } | null = null;
  terminated = false;

  send(data: string | Uint8Array, options?: { binary?: boolean }): void {
    const text = typeof data === 'string' || options?.binary === false;
    this.sent.push(text ? Buffer.from(data).toString('utf8') : `<${data.length} bytes>`);
    if (!text) this.binaries.push(Buffer.from(data));
    if (this.holdSent) this.bufferedAmount += typeof data === 'string' ? Buffer.byteLength(data) : data.length;
  }

  close(code: number, reason: string): void {
    this.closedWith = { code, reason };
  }

  terminate(): void {
    this.terminated = true;
  }

  pause(): void {
    this.paused = true;
  }

  resume(): void {
    this.paused = false;
  }

  request(request: Request): void {
    this.emit('message', Buffer.from(encodeRequest(request)), false);
  }
}

function setup(overrides: Record<string, number> = {}) {
  const resolved = resolveLimits(overrides);
  assert.ok(resolved.ok);
  const limits: ServerLimits = resolved.value;
  const clock = new ManualClock();
  const logs: string[] = [];
  const refusals: RefusalReason[] = [];
  const store = new MemoryHistoryStore();
  const lobby = new Lobby({
    games: [roshambo],
    store,
    compute: new InlineCompute(),
    verificationPassword: 'master',
    clock,
    maxWaitingPerOwner: limits['waiting-matches-per-address'],
    maxWaitingPerNetwork: limits['waiting-matches-per-network'],
  });
  const addresses = new AddressLimits(limits, clock);
  const replays = new ReplaySlots(limits);
  /** Another connection of the same server, from `address`. */
  const connect = (address = '10.0.0.1') => {
    const ws = new FakeWebSocket();
    const socket = new EventEmitter();
    const connection = new CocoConnection(ws as unknown as WebSocket, socket as unknown as Socket, address, `${address}:5000`, {
      lobby,
      store,
      log: lineLog((line) => logs.push(line)),
      limits,
      clock,
      addresses,
      replays,
      names: nameDesk(new StoredNameClaims(store), limits, clock, 'master'),
      refused: (reason) => refusals.push(reason),
    });
    return { ws, socket, connection };
  };
  const { ws, socket, connection } = connect();
  return { ws, socket, connection, connect, clock, logs, refusals, lobby, store, replays };
}

/** Lets the connection work through what it was sent (it handles one request per turn of the event loop). */
async function settle(): Promise<void> {
  for (let turn = 0; turn < 20; turn++) await new Promise((resolve) => setImmediate(resolve));
}
const handshake: Request = { type: 'Handshake', magic: 'coco', version: 2 };
const gameNew = (overrides: Partial<Extract<Request, { type: 'GameNew' }>> = {}): Request => ({
  type: 'GameNew',
  name: 'm',
  game: 'roshambo',
  params: { players: null, bots: 0, timeout: null },
  args: {},
  password: null,
  verification: null,
  ...overrides,
});

test('a client that does not send its Handshake in time is closed with 1008', async () => {
  const { ws, clock, refusals } = setup({ 'handshake-seconds': 5 });
  await clock.advance(4_999);
  assert.equal(ws.closedWith, null);
  await clock.advance(1);
  assert.deepEqual(ws.closedWith, { code: CLOSE_CODES.policy, reason: 'no Handshake within 5 s' });
  assert.deepEqual(refusals, ['handshake-timeout']);
});

test('a client that did send its Handshake is not closed by the handshake deadline', async () => {
  const { ws, clock } = setup({ 'handshake-seconds': 5 });
  ws.request(handshake);
  await settle();
  await clock.advance(60_000);
  assert.equal(ws.closedWith, null);
});

test('a text frame over control-frame-bytes closes with 1009 before it is parsed', async () => {
  const { ws, refusals } = setup({ 'control-frame-bytes': 2048 });
  ws.emit('message', Buffer.from(`{"GameNew":${'['.repeat(4000)}`), false);
  assert.equal(ws.closedWith?.code, CLOSE_CODES.tooBig);
  assert.match(ws.closedWith!.reason, /a request of 4011 bytes \(at most 2048\)/);
  assert.deepEqual(refusals, ['control-frame-bytes']);
});

test('invalid JSON closes with 1008 and a reason', async () => {
  const { ws } = setup();
  ws.emit('message', Buffer.from('not json'), false);
  await settle();
  assert.equal(ws.closedWith?.code, CLOSE_CODES.policy);
  assert.match(ws.closedWith!.reason, /^invalid request/);
});

test('a client that stops reading stops being read: past the high-water mark requests wait for the drain', async () => {
  const { ws, socket } = setup({ 'outbound-high-water-bytes': 1024 });
  ws.request(handshake);
  await settle();
  ws.bufferedAmount = 4096;
  for (let i = 0; i < 5; i++) ws.request({ type: 'GameList' });
  await settle();
  assert.equal(ws.sent.length, 1, 'only the Handshake was answered');
  assert.equal(ws.paused, true, 'the socket is not read meanwhile');
  ws.bufferedAmount = 0;
  socket.emit('drain');
  await settle();
  assert.equal(ws.sent.length, 6);
  assert.equal(ws.paused, false);
});

test('more than pending-requests unanswered requests close the connection with 1008', async () => {
  const { ws, refusals } = setup({ 'outbound-high-water-bytes': 1024, 'pending-requests': 4 });
  ws.request(handshake);
  await settle();
  ws.bufferedAmount = 4096;
  for (let i = 0; i < 5; i++) ws.request({ type: 'GameList' });
  assert.equal(ws.closedWith?.code, CLOSE_CODES.policy);
  assert.match(ws.closedWith!.reason, /more than 4 requests waiting/);
  assert.deepEqual(refusals, ['pending-requests']);
});

test('everything sent counts against outbound-max-bytes: a lobby subscriber that does not read is dropped', async () => {
  const { ws, lobby, refusals, logs } = setup({ 'outbound-max-bytes': 1 << 20 });
  ws.request(handshake);
  ws.request({ type: 'LobbySubscribe' });
  await settle();
  assert.match(ws.sent.at(-1)!, /LobbySubscribed/);
  ws.bufferedAmount = (1 << 20) + 1;
  assert.ok(lobby.create({ name: 'x', game: 'roshambo', params: { players: null, bots: 0, timeout: null }, args: {}, password: null, verification: null }).ok);
  await settle();
  assert.equal(ws.terminated, true);
  assert.deepEqual(refusals, ['outbound-max-bytes']);
  assert.match(logs.join('\n'), /dropping connection: more than 1048576 bytes held for it/);
});

/** One masked client frame (RFC 6455): `fin`, `opcode` (1 text, 2 binary, 0 continuation), payload. */
function clientFrame(fin: boolean, opcode: number, payload: Buffer): Buffer {
  const length = payload.length < 126 ? Buffer.from([payload.length | 0x80]) : Buffer.from([126 | 0x80, payload.length >> 8, payload.length & 0xff]);
  return Buffer.concat([Buffer.from([(fin ? 0x80 : 0) | opcode]), length, Buffer.alloc(4), payload]);
}

test('a message in more than ws-message-fragments frames closes the connection with 1008; more fragments after that cut it off', async () => {
  const { ws, socket, refusals } = setup({ 'ws-message-fragments': 4 });
  // A message of 4 fragments is fine, and so is the next one: the count is per message.
  for (let message = 0; message < 2; message++) {
    socket.emit('data', Buffer.concat([clientFrame(false, 2, Buffer.from('a')), clientFrame(false, 0, Buffer.from('b')), clientFrame(false, 0, Buffer.from('c'))]));
    // A ping between fragments is no fragment.
    socket.emit('data', Buffer.concat([clientFrame(true, 9, Buffer.alloc(0)), clientFrame(true, 0, Buffer.from('d'))]));
  }
  assert.equal(ws.closedWith, null);
  const frames = [clientFrame(false, 1, Buffer.from('{')), ...Array.from({ length: 4 }, () => clientFrame(false, 0, Buffer.from(' ')))];
  // Byte by byte: the headers are followed across chunks.
  for (const byte of Buffer.concat(frames)) socket.emit('data', Buffer.from([byte]));
  assert.deepEqual(ws.closedWith, { code: CLOSE_CODES.policy, reason: 'a message in more than 4 fragments' });
  assert.equal(ws.terminated, false, 'told why, it may answer with its close frame');
  assert.deepEqual(refusals, ['ws-message-fragments']);
  // Told, it goes on sending the message: cut off.
  socket.emit('data', clientFrame(false, 0, Buffer.from(' ')));
  assert.equal(ws.terminated, true);
});

test('the bytes of an unfinished incoming message count against the per-connection budget', async () => {
  const { ws, socket, refusals, logs } = setup({ 'outbound-max-bytes': 1 << 20, 'ws-message-fragments': 1000 });
  const fragment = Buffer.alloc(60_000, 0x20);
  // 17 fragments of 60,000 bytes: 1,020,000 bytes held and 17 fragments' overhead, under 1 MiB (1,048,576).
  socket.emit('data', clientFrame(false, 2, fragment));
  for (let i = 0; i < 16; i++) socket.emit('data', clientFrame(false, 0, fragment));
  assert.equal(ws.terminated, false);
  socket.emit('data', clientFrame(false, 0, fragment));
  assert.equal(ws.terminated, true);
  assert.deepEqual(refusals, ['outbound-max-bytes']);
  assert.match(logs.join('\n'), /sends a message it does not finish/);
});

test('GameNew past game-new-per-minute is answered with an error, and allowed again later', async () => {
  const { ws, clock, refusals } = setup({ 'game-new-per-minute': 2 });
  ws.request(handshake);
  for (let i = 0; i < 3; i++) ws.request(gameNew());
  await settle();
  const replies = ws.sent.slice(1).map((text) => JSON.parse(text) as { GameNew: { id: { Ok?: string; Err?: string } } });
  assert.ok(replies[0]!.GameNew.id.Ok && replies[1]!.GameNew.id.Ok);
  assert.deepEqual(replies[2]!.GameNew.id, { Err: "Too many new matches: at most 2 a minute per address (the server's master password lifts this)" });
  assert.deepEqual(refusals, ['game-new-per-minute']);
  await clock.advance(30_000);
  ws.request(gameNew());
  await settle();
  assert.ok((JSON.parse(ws.sent.at(-1)!) as { GameNew: { id: { Ok?: string } } }).GameNew.id.Ok);
});

test('wrong master passwords back off, and no attempted password reaches the log', async () => {
  const { ws, logs, refusals } = setup({ 'password-free-attempts': 2 });
  ws.request(handshake);
  for (const guess of ['WRONG-guess-1', 'WRONG-guess-2', 'WRONG-guess-3', 'master']) ws.request(gameNew({ verification: guess }));
  await settle();
  const errors = ws.sent.slice(1).map((text) => (JSON.parse(text) as { GameNew: { id: { Err?: string } } }).GameNew.id.Err);
  assert.deepEqual(errors.slice(0, 2), ['"WRONG-guess-1" is the wrong verification password', '"WRONG-guess-2" is the wrong verification password']);
  assert.match(errors[2]!, /^"WRONG-guess-3" is the wrong verification password$/, 'the third is still checked; it starts the back-off');
  assert.match(errors[3]!, /^Too many wrong passwords from your address: try again in 1 s$/, 'during the back-off even the right one is not checked');
  assert.deepEqual(refusals, ['password-backoff']);
  assert.doesNotMatch(logs.join('\n'), /WRONG-guess|master/);
});

test('redact replaces every secret that occurs in a text', () => {
  assert.equal(redact('"abc" is the wrong verification password; abc', ['abc', null, '']), '"<password>" is the wrong verification password; <password>');
});

/** The answers to the GameNew requests among what the client was sent. */
function gameNewAnswers(ws: FakeWebSocket): { Ok?: string; Err?: string }[] {
  return ws.sent.map((text) => JSON.parse(text) as { GameNew?: { id: { Ok?: string; Err?: string } } }).flatMap((reply) => (reply.GameNew ? [reply.GameNew.id] : []));
}

test('the back-off reset attack is held back: the right password of one\'s own match does not clear wrong master passwords', async () => {
  const { ws, refusals } = setup({ 'password-free-attempts': 3, 'game-new-per-minute': 1000 });
  ws.request(handshake);
  ws.request(gameNew({ password: 'own' }));
  await settle();
  const own = gameNewAnswers(ws)[0]!.Ok!;
  for (let guess = 0; guess < 10; guess++) {
    ws.request(gameNew({ verification: `WRONG-${guess}` }));
    ws.request({ type: 'LobbyJoinMatch', id: own, name: 'me', password: 'own' });
    ws.request({ type: 'LobbyLeaveMatch' });
    await settle();
  }
  const errors = gameNewAnswers(ws).slice(1).map((answer) => answer.Err);
  // Three free attempts, a fourth that starts the back-off; before, every join cleared the count and all ten were checked.
  assert.equal(errors.filter((e) => /is the wrong verification password$/.test(e!)).length, 4, 'only the free attempts and the one that starts the back-off are checked');
  assert.equal(errors.filter((e) => /^Too many wrong passwords from your address/.test(e!)).length, 6);
  assert.equal(ws.sent.filter((text) => text.includes('LobbyJoinedMatch') && text.includes('"Ok"')).length, 10, 'the own match is still joined each time');
  assert.ok(refusals.every((reason) => reason === 'password-backoff'));
});

test('with the master password, GameNew is exempt from game-new-per-minute and waiting-matches-per-address; without it the refusal says so', async () => {
  const { ws } = setup({ 'game-new-per-minute': 2, 'waiting-matches-per-address': 1 });
  ws.request(handshake);
  for (let i = 0; i < 5; i++) ws.request(gameNew({ verification: 'master' }));
  ws.request(gameNew());
  await settle();
  const answers = gameNewAnswers(ws);
  assert.equal(answers.slice(0, 5).filter((answer) => answer.Ok).length, 5);
  assert.deepEqual(answers[5], { Err: "Too many waiting matches: at most 1 per address (the server's master password lifts this)" });
});

test('LobbyDeleteMatch: another connection from the same address deletes its waiting match and frees the quota; another address is refused; the master password is not logged', async () => {
  const { ws, connect, logs, lobby } = setup({ 'waiting-matches-per-address': 1 });
  ws.request(handshake);
  ws.request(gameNew());
  await settle();
  const id = gameNewAnswers(ws)[0]!.Ok!;
  const stranger = connect('10.0.0.2');
  stranger.ws.request(handshake);
  stranger.ws.request({ type: 'LobbyDeleteMatch', id, verification: null });
  stranger.ws.request({ type: 'LobbyDeleteMatch', id, verification: 'SECRET-guess' });
  await settle();
  assert.deepEqual(stranger.ws.sent.slice(1), [
    `{"LobbyDeletedMatch":{"id":{"Err":"Game \\"${id}\\" was made from another address: only its maker or the server's master password may delete it"}}}`,
    '{"LobbyDeletedMatch":{"id":{"Err":"\\"SECRET-guess\\" is the wrong verification password"}}}',
  ]);
  assert.equal(stranger.ws.closedWith, null, 'a refusal leaves the connection usable');
  // The maker again, on a connection of its own (as `coco delete` is).
  const later = connect('10.0.0.1');
  later.ws.request(handshake);
  later.ws.request({ type: 'LobbyDeleteMatch', id, verification: null });
  later.ws.request(gameNew());
  await settle();
  assert.equal(later.ws.sent[1], `{"LobbyDeletedMatch":{"id":{"Ok":"${id}"}}}`);
  assert.ok(gameNewAnswers(later.ws)[0]!.Ok, 'the quota of one waiting match is free again');
  assert.equal(lobby.find(id), null);
  assert.doesNotMatch(logs.join('\n'), /SECRET-guess/);
});

test('GameNew refused past its rate is logged once a minute per address, not once a request', async () => {
  const { ws, logs } = setup({ 'game-new-per-minute': 1 });
  ws.request(handshake);
  for (let i = 0; i < 10; i++) ws.request(gameNew());
  await settle();
  assert.equal(gameNewAnswers(ws).filter((answer) => answer.Err?.startsWith('Too many new matches')).length, 9);
  assert.equal(logs.filter((line) => line.includes('GameNew refused')).length, 1);
});

// ---- visualizer replays: sent in slices as stored, paced by the client's reading, bounded ----

const FINISHED_ID = '0123456789abc';

/** A finished match's record whose visualizer events are `count` log lines (a slice of them is past the low-water mark). */
function finishedRecord(count: number): NewMatchRecord {
  const events = Array.from({ length: count }, (_, i) => ({ t: i, log: { line: `round ${i}: "ÿ" ] , ${'x'.repeat(150)}` } }));
  return finishedMatch(FINISHED_ID, { name: 'm', visJson: JSON.stringify(events) });
}

/** The replies of one type among what was sent, parsed. */
function replies(ws: FakeWebSocket, type: string): Record<string, any>[] {
  return ws.sent.filter((frame) => frame.startsWith(`{"${type}"`)).map((frame) => (JSON.parse(frame) as Record<string, any>)[type]);
}

/** The client reads everything sent so far. */
function readAll(ws: FakeWebSocket, socket: EventEmitter): void {
  ws.bufferedAmount = 0;
  socket.emit('drain');
}

test('VisSubscribe of a finished match sends its stored events in slices, each once the client has read the one before, then VisEnded', async () => {
  const { ws, socket, store, replays } = setup();
  await store.record(finishedRecord(1200));
  ws.request(handshake);
  await settle();
  ws.holdSent = true;
  ws.request({ type: 'VisSubscribe', id: FINISHED_ID });
  await settle();
  assert.deepEqual(replies(ws, 'VisSubscribed'), [{ info: { Ok: null } }]);
  assert.equal(replies(ws, 'VisEvents').length, 1, 'one slice, then nothing more while it is unread');
  assert.equal(replays.inFlight, 1);
  readAll(ws, socket);
  await settle();
  assert.equal(replies(ws, 'VisEvents').length, 2, 'the next once the client read it');
  ws.bufferedAmount = 0;
  ws.holdSent = false;
  socket.emit('drain');
  await settle();
  const slices = replies(ws, 'VisEvents');
  assert.deepEqual(slices.map((slice) => slice.events.length), [500, 500, 200]);
  assert.deepEqual(slices.flatMap((slice) => slice.events), JSON.parse(finishedRecord(1200).visJson as string));
  assert.ok(ws.sent.at(-1)!.startsWith('{"VisEnded"'));
  assert.equal(replays.inFlight, 0, 'the replay gave back its slot');
  ws.request({ type: 'GameList' });
  await settle();
  assert.ok(ws.sent.at(-1)!.startsWith('{"GameList"'), 'the connection takes requests again');
});

test('past replays-per-address a VisSubscribe is answered with an error, and the connection stays usable', async () => {
  const { ws, socket, connect, store, refusals } = setup({ 'replays-per-address': 1 });
  await store.record(finishedRecord(1200));
  ws.request(handshake);
  ws.holdSent = true;
  ws.request({ type: 'VisSubscribe', id: FINISHED_ID });
  await settle();
  const other = connect();
  other.ws.request(handshake);
  other.ws.request({ type: 'VisSubscribe', id: FINISHED_ID });
  other.ws.request({ type: 'GameList' });
  await settle();
  assert.deepEqual(replies(other.ws, 'VisSubscribed'), [{ info: { Err: 'Too many replays at once: at most 1 per address, try again when one has ended' } }]);
  assert.ok(other.ws.sent.at(-1)!.startsWith('{"GameList"'));
  assert.equal(other.ws.closedWith, null);
  assert.deepEqual(refusals, ['replays-per-address']);
  const elsewhere = connect('10.0.0.2');
  elsewhere.ws.request(handshake);
  elsewhere.ws.request({ type: 'VisSubscribe', id: FINISHED_ID });
  await settle();
  assert.deepEqual(replies(elsewhere.ws, 'VisSubscribed'), [{ info: { Ok: null } }], 'another address has its own slots');
  // The first replay ends (its client reads everything): its slot is free again.
  ws.holdSent = false;
  readAll(ws, socket);
  await settle();
  assert.ok(ws.sent.at(-1)!.startsWith('{"VisEnded"'));
  other.ws.request({ type: 'VisSubscribe', id: FINISHED_ID });
  await settle();
  assert.deepEqual(replies(other.ws, 'VisSubscribed').at(-1), { info: { Ok: null } });
});

test('past the server-wide replays a VisSubscribe is refused whatever the address', async () => {
  const { ws, connect, store, refusals } = setup({ replays: 1 });
  await store.record(finishedRecord(1200));
  ws.request(handshake);
  ws.holdSent = true;
  ws.request({ type: 'VisSubscribe', id: FINISHED_ID });
  await settle();
  const other = connect('10.0.0.2');
  other.ws.request(handshake);
  other.ws.request({ type: 'VisSubscribe', id: FINISHED_ID });
  await settle();
  assert.deepEqual(replies(other.ws, 'VisSubscribed'), [{ info: { Err: 'Too many replays at once on the server (at most 1): try again later' } }]);
  assert.deepEqual(refusals, ['replays']);
});

test('a replay in progress stops at once when the server goes away, and gives back its slot', async () => {
  const { ws, socket, connection, store, replays } = setup();
  await store.record(finishedRecord(1200));
  ws.request(handshake);
  ws.holdSent = true;
  ws.request({ type: 'VisSubscribe', id: FINISHED_ID });
  await settle();
  readAll(ws, socket);
  await settle();
  assert.equal(replies(ws, 'VisEvents').length, 2);
  connection.goAway();
  assert.deepEqual(ws.closedWith, { code: CLOSE_CODES.goingAway, reason: 'server shutdown' });
  assert.equal(replays.inFlight, 0);
  ws.holdSent = false;
  readAll(ws, socket);
  await settle();
  assert.equal(replies(ws, 'VisEvents').length, 2, 'no slice after the close');
});

test('HistoryMatch counts as a replay: past the limit it waits for a slot instead of being refused', async () => {
  const { ws, socket, connect, store } = setup({ 'replays-per-address': 1 });
  await store.record(finishedRecord(1200));
  ws.request(handshake);
  ws.holdSent = true;
  ws.request({ type: 'VisSubscribe', id: FINISHED_ID });
  await settle();
  const other = connect();
  other.ws.request(handshake);
  other.ws.request({ type: 'HistoryMatch', id: FINISHED_ID });
  await settle();
  assert.equal(other.ws.sent.length, 1, 'only the Handshake: the HistoryMatch waits');
  ws.holdSent = false;
  readAll(ws, socket);
  await settle();
  assert.equal(other.ws.sent.length, 2);
  assert.match(other.ws.sent[1]!, /^<\d+ bytes>$/, 'the binary HistoryMatch reply');
  const reply = decodeHistoryMatchReply(other.ws.binaries[0]!);
  assert.ok('Ok' in reply);
  assert.deepEqual({ ...reply.Ok, history: Buffer.from(reply.Ok.history).toString('utf8') }, { id: FINISHED_ID, game_name: 'roshambo', args: {}, players: ['alice', 'bob'], bot_count: 0, history: 'alice\nbob\n' });
  other.ws.request({ type: 'HistoryMatch', id: 'zzzzzzzzzzzzz' });
  await settle();
  assert.deepEqual(decodeHistoryMatchReply(other.ws.binaries[1]!), { Err: 'FileNotFound' });
});

test('HistoryMatch of an id with a character that is not a letter or a digit answers InvalidID, as the reference; a wrong length is not found', async () => {
  const { ws } = setup();
  ws.request(handshake);
  for (const id of ['../etc/passwd', 'abc-def', 'a b', '']) ws.request({ type: 'HistoryMatch', id });
  await settle();
  const [slash, dash, space, empty] = ws.binaries.map((bytes) => [...bytes]);
  const invalidId = [0x14, 0, 0, 0, 1, 0, 0, 0, 2, 0, 0, 0];
  assert.deepEqual(slash, invalidId, 'the bincode bytes of Err(InvalidID)');
  assert.deepEqual(dash, invalidId);
  assert.deepEqual(space, invalidId);
  assert.deepEqual(decodeHistoryMatchReply(Buffer.from(empty!)), { Err: 'FileNotFound' });
});

test('HistoryMatch of a match of named server bots (a server tournament\'s) lists no joined players and counts the bots, as the reference\'s MatchData does', async () => {
  const { ws, lobby } = setup();
  const { type: _type, ...request } = gameNew({ args: { pace: '0', rounds: '3' }, params: { players: 2, bots: 2, timeout: null } }) as Extract<Request, { type: 'GameNew' }>;
  const created = lobby.create({ ...request, botLineup: [null, null], botNames: ['ann', 'bob'] });
  assert.ok(created.ok);
  await settle();
  await lobby.idle();
  ws.request(handshake);
  ws.request({ type: 'HistoryMatch', id: created.value });
  await settle();
  const outcome = decodeHistoryMatchReply(ws.binaries[0]!);
  assert.ok('Ok' in outcome);
  assert.deepEqual([outcome.Ok.players, outcome.Ok.bot_count], [[], 2]);
});

test('a late viewer of a running match gets the events so far in slices, then the live ones, then VisEnded: all the record keeps', async () => {
  const { connect, lobby, clock, store, replays } = setup();
  const { type: _type, ...request } = gameNew({ args: { pace: '1', rounds: '5000' }, params: { players: 2, bots: 2, timeout: null } }) as Extract<Request, { type: 'GameNew' }>;
  const created = lobby.create({ ...request, botLineup: [null, null] });
  assert.ok(created.ok);
  await settle();
  await clock.advance(600_000);
  // Connected now: the first connection's handshake deadline has passed meanwhile.
  const { ws, socket } = connect();
  ws.request(handshake);
  ws.holdSent = true;
  ws.request({ type: 'VisSubscribe', id: created.value });
  await settle();
  assert.deepEqual(replies(ws, 'VisSubscribed'), [{ info: { Ok: null } }]);
  assert.equal(replays.inFlight, 1, 'the history of a running match is a replay until it has gone out');
  // Live events come meanwhile; they wait behind the history.
  await clock.advance(5_000);
  ws.holdSent = false;
  readAll(ws, socket);
  await settle();
  assert.equal(replays.inFlight, 0);
  const history = replies(ws, 'VisEvents');
  assert.ok(history.length >= 3 && history.slice(0, 3).every((slice) => slice.events.length === 500), 'the history came in full slices');
  await clock.advance(5_000);
  lobby.abort(created.value, 'enough');
  await lobby.idle();
  await settle();
  assert.ok(ws.sent.at(-1)!.startsWith('{"VisEnded"'));
  const record = await store.get(created.value);
  assert.deepEqual(replies(ws, 'VisEvents').flatMap((slice) => slice.events), JSON.parse(record!.visJson), 'every event once, in order');
});

test('a player of a match on another node, cut off from it as this node stops (or is declared dead), is told its match goes on without it, never the reason that ended this node\'s own matches', async () => {
  const { lobby, connect } = setup();
  const made = lobby.create({ name: 'x', game: 'roshambo', params: { players: null, bots: 0, timeout: null }, args: {}, password: null, verification: null });
  assert.ok(!(made instanceof Promise) && made.ok);
  const info = lobby.find(made.value)!;
  // The lobby of a cluster hands the front door a bridged seat (remote) for a match another node runs.
  const members: MatchMember[] = [];
  lobby.join = ((_id: string, _name: string, _password: string | null, member: MatchMember) => {
    members.push(member);
    return { ok: true, value: info };
  }) as typeof lobby.join;
  /** A connection whose player's match started on `seat`; `close` closes that seat as its node would. */
  const playing = async (remote: boolean) => {
    const { ws, connection } = connect();
    ws.request(handshake);
    ws.request({ type: 'LobbyJoinMatch', id: info.id, name: 'alice', password: null });
    await settle();
    let transport: SeatTransport | null = null;
    const seat: PlayerSeat = { name: 'alice', attach: (t) => void (transport = t), receive: () => {}, receiveEnd: () => {}, ...(remote && { remote: true }) };
    members[members.length - 1]!.started(seat);
    return { ws, connection, close: (reason: SeatCloseReason) => transport!.close(reason) };
  };
  const goingAway = (reason: string) => ({ code: CLOSE_CODES.goingAway, reason });

  // Its seat closed before the match ended (the node that runs it left it when this node was
  // declared dead; the word came just as this node stopped): "node failure" did not end that match.
  const cutOff = await playing(true);
  cutOff.close('disconnected');
  assert.ok(cutOff.ws.sent.some((sent) => sent.includes('"MatchEnded"')));
  cutOff.connection.goAway('node failure');
  assert.deepEqual(cutOff.ws.closedWith, goingAway(LEFT_MATCH_ON_OTHER_NODE));
  // Still playing there when this node stops: the same.
  const still = await playing(true);
  still.connection.goAway('node failure');
  assert.deepEqual(still.ws.closedWith, goingAway(LEFT_MATCH_ON_OTHER_NODE));
  // A match of another node that did end: its result is in the history; the stop's reason is said as to anyone.
  const over = await playing(true);
  over.close('match-over');
  over.connection.goAway('node failure');
  assert.deepEqual(over.ws.closedWith, goingAway('node failure'));
  // A match of this node, ended by the stop: its reason is the truth.
  const own = await playing(false);
  own.close('shutdown');
  own.connection.goAway('node failure');
  assert.deepEqual(own.ws.closedWith, goingAway('node failure'));
});

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { EventEmitter } from 'node:events';
import type { Socket } from 'node:net';
import type { WebSocket } from 'ws';
import { roshambo } from '../games/roshambo/roshambo.js';
import { Lobby } from '../lobby/lobby.js';
import { InlineCompute } from '../match/compute.js';
import { encodeRequest } from '../protocol/coco/json-codec.js';
import type { Request } from '../protocol/coco/messages.js';
import { MemoryHistoryStore } from '../store/memory-history-store.js';
import { ManualClock } from '../util/clock.js';
import { lineLog } from '../util/log.js';
import { AddressLimits, type RefusalReason } from './address-limits.js';
import { CLOSE_CODES, CocoConnection, redact } from './coco-connection.js';
import { resolveLimits, type ServerLimits } from './server-limits.js';

/** A WebSocket whose unsent byte count the test sets, recording what the connection does to it. */
class FakeWebSocket extends EventEmitter {
  bufferedAmount = 0;
  paused = false;
  readonly sent: string[] = [];
  closedWith: { code: number; reason: string } | null = null;
  terminated = false;

  send(data: string | Uint8Array): void {
    this.sent.push(typeof data === 'string' ? data : `<${data.length} bytes>`);
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
  const lobby = new Lobby({ games: [roshambo], store, compute: new InlineCompute(), verificationPassword: 'master', clock });
  const ws = new FakeWebSocket();
  const socket = new EventEmitter();
  const addresses = new AddressLimits(limits, clock);
  new CocoConnection(ws as unknown as WebSocket, socket as unknown as Socket, '10.0.0.1', '10.0.0.1:5000', {
    lobby,
    store,
    log: lineLog((line) => logs.push(line)),
    limits,
    clock,
    addresses,
    refused: (reason) => refusals.push(reason),
  });
  return { ws, socket, clock, logs, refusals, lobby };
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
  assert.deepEqual(replies[2]!.GameNew.id, { Err: 'Too many new matches: at most 2 a minute per address' });
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

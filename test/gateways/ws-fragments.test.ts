import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { fileURLToPath } from 'node:url';
import type { Socket } from 'node:net';
import WebSocket from 'ws';
import { roshambo } from '../../src/games/roshambo/roshambo.js';
import { AddressLimits } from '../../src/gateways/address-limits.js';
import { ClientMemory, clientMemoryLimits } from '../../src/gateways/client-memory.js';
import { PeerAddresses } from '../../src/gateways/peer-addresses.js';
import { CocoServer } from '../../src/gateways/server.js';
import { FRAGMENT_OVERHEAD_BYTES } from '../../src/gateways/ws-incoming-message.js';
import { resolveLimits } from '../../src/gateways/server-limits.js';
import { Lobby } from '../../src/lobby/lobby.js';
import { InlineCompute } from '../../src/match/compute.js';
import { MemoryHistoryStore } from '../../src/store/memory-history-store.js';
import { systemClock } from '../../src/util/clock.js';
import { silentLog } from '../../src/util/log.js';
import { nameDesk } from '../../src/names/name-desk.js';
import { StoredNameClaims } from '../../src/names/name-claims.js';

const WEB_ROOT = fileURLToPath(new URL('../../web', import.meta.url));
const FRAGMENTS = 64;

/** One masked client frame (RFC 6455); the mask is zeros, so the payload goes as it is. */
function clientFrame(fin: boolean, opcode: number, payload: Buffer): Buffer {
  return Buffer.concat([Buffer.from([(fin ? 0x80 : 0) | opcode, 0x80 | payload.length]), Buffer.alloc(4), payload]);
}

/** `text` as one message of `count` frames (the last holds the rest). */
function fragmented(text: string, count: number): Buffer {
  const bytes = Buffer.from(text);
  return Buffer.concat(Array.from({ length: count }, (_, i) => clientFrame(i === count - 1, i === 0 ? 1 : 0, i === count - 1 ? bytes.subarray(i) : bytes.subarray(i, i + 1))));
}

describe('WebSocket messages in fragments, against a real server', () => {
  const store = new MemoryHistoryStore();
  const lobby = new Lobby({ games: [roshambo], store, compute: new InlineCompute(), verificationPassword: 'master' });
  const resolved = resolveLimits({ 'ws-message-fragments': FRAGMENTS });
  assert.ok(resolved.ok);
  const limits = resolved.value;
  const memory = new ClientMemory(clientMemoryLimits(limits));
  let server: CocoServer;
  let url = '';
  const opened: WebSocket[] = [];

  const open = async (): Promise<{ ws: WebSocket; socket: Socket; closed: Promise<{ code: number; reason: string }>; messages: string[] }> => {
    const ws = new WebSocket(url, { perMessageDeflate: false });
    opened.push(ws);
    const messages: string[] = [];
    ws.on('message', (data) => messages.push(String(data)));
    ws.on('error', () => {});
    const closed = new Promise<{ code: number; reason: string }>((resolve) => ws.once('close', (code, reason) => resolve({ code, reason: reason.toString() })));
    await new Promise((resolve) => ws.once('open', resolve));
    return { ws, socket: (ws as unknown as { _socket: Socket })._socket, closed, messages };
  };

  before(async () => {
    server = new CocoServer({ lobby, store, host: '127.0.0.1', port: 0, webRoot: WEB_ROOT, log: silentLog, limits, clock: systemClock, addresses: new AddressLimits(limits, systemClock), names: nameDesk(new StoredNameClaims(store), limits, systemClock, 'master'), peers: PeerAddresses.direct(), memory });
    url = `ws://127.0.0.1:${(await server.listen()).port}/`;
  });
  after(async () => {
    for (const ws of opened) ws.terminate();
    await server.close();
    await lobby.shutdown();
  });

  test(`a request in ${FRAGMENTS} fragments is read and answered`, async () => {
    const { socket, messages, ws } = await open();
    socket.write(fragmented('{"Handshake":{"magic":"coco","version":2}}', FRAGMENTS));
    while (messages.length === 0) await new Promise((resolve) => ws.once('message', resolve));
    assert.match(messages[0]!, /"Handshake"/);
  });

  test(`a message in ${FRAGMENTS + 1} fragments closes the connection with 1008, and what it held counts no more`, async () => {
    const { socket, closed } = await open();
    socket.write(fragmented('{"Handshake":{"magic":"coco","version":2}}', FRAGMENTS + 1));
    assert.deepEqual(await closed, { code: 1008, reason: `a message in more than ${FRAGMENTS} fragments` });
    while (memory.holders() > 1) await new Promise((resolve) => setTimeout(resolve, 5));
  });

  test('an unfinished message counts against the memory budget while it is held', async () => {
    const { socket } = await open();
    const before = memory.heldBy('127.0.0.1');
    socket.write(Buffer.concat([clientFrame(false, 2, Buffer.alloc(100)), clientFrame(false, 0, Buffer.alloc(100))]));
    // Two fragments of 100 bytes: their payload and what ws keeps for each.
    const expected = before + 200 + 2 * FRAGMENT_OVERHEAD_BYTES;
    while (memory.heldBy('127.0.0.1') < expected) await new Promise((resolve) => setTimeout(resolve, 5));
    assert.equal(memory.heldBy('127.0.0.1'), expected);
  });
});

import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { connect, type Socket } from 'node:net';
import WebSocket from 'ws';
import { encodeRequest } from '../../src/protocol/coco/json-codec.js';
import { RawClient } from '../support/raw-client.js';
import { startServer, type ServerProcess } from '../support/processes.js';

let server: ServerProcess;
let clobberPort = 0;

before(async () => {
  server = await startServer([
    '--clobber-port', '0',
    '--limit', 'connections-per-address=4',
    '--limit', 'heartbeat-seconds=1',
    '--limit', 'handshake-seconds=2',
    '--limit', 'max-matches=4',
    '--limit', 'waiting-matches-per-network=3',
  ]);
  clobberPort = Number((await server.waitForLog(/clobber tournament port listening on [^:]+:(\d+)/))[1]);
});

after(async () => {
  await server.stop();
});

/** Opens a WebSocket from `localAddress`; resolves when open, or with the close code if refused. */
function openFrom(localAddress: string): Promise<{ ws: WebSocket; open: boolean }> {
  return new Promise((resolve) => {
    const ws = new WebSocket(server.url, { localAddress });
    ws.once('open', () => resolve({ ws, open: true }));
    ws.once('error', () => resolve({ ws, open: false }));
  });
}

function closed(socket: Socket): Promise<void> {
  return new Promise((resolve) => (socket.destroyed ? resolve() : socket.once('close', () => resolve())));
}

test('one address holds at most connections-per-address connections on all ports; another address still gets in', async () => {
  const held: WebSocket[] = [];
  const tcp = connect({ host: '127.0.0.1', port: clobberPort, localAddress: '127.0.0.5' });
  tcp.on('error', () => {});
  try {
    await new Promise((resolve) => tcp.once('connect', resolve));
    for (let i = 0; i < 3; i++) {
      const { ws, open } = await openFrom('127.0.0.5');
      held.push(ws);
      assert.ok(open, `connection ${i + 2} of 4 is accepted`);
    }
    const refused = await openFrom('127.0.0.5');
    assert.equal(refused.open, false, 'the fifth (a clobber connection counts too) is refused');
    const other = await openFrom('127.0.0.6');
    assert.ok(other.open, 'another address is not affected');
    other.ws.close();
    assert.match(server.log(), /127\.0\.0\.5: connection refused \(connections-per-address; 1 since the last such line\)/);
  } finally {
    for (const ws of held) ws.terminate();
    tcp.destroy();
  }
  // The slots come back when the connections close (the server sees the closes a moment later).
  let reopened: { ws: WebSocket; open: boolean } = { ws: null as unknown as WebSocket, open: false };
  for (let attempt = 0; attempt < 50 && !reopened.open; attempt++) {
    reopened = await openFrom('127.0.0.5');
    if (!reopened.open) await new Promise((resolve) => setImmediate(resolve));
  }
  assert.ok(reopened.open, 'closed connections give their slots back');
  reopened.ws.close();
});

test('a WebSocket peer that never answers pings is dropped by the heartbeat', async () => {
  // A raw socket that completes the upgrade and the coco Handshake, then never reads again:
  // it never sees the pings, so it never answers them.
  const socket = connect({ host: '127.0.0.1', port: server.port, localAddress: '127.0.0.7' });
  socket.on('error', () => {});
  await new Promise((resolve) => socket.once('connect', resolve));
  socket.write(
    'GET / HTTP/1.1\r\nHost: 127.0.0.1\r\nUpgrade: websocket\r\nConnection: Upgrade\r\n' +
      'Sec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\nSec-WebSocket-Version: 13\r\n\r\n',
  );
  const text = Buffer.from('{"Handshake":{"magic":"coco","version":2}}');
  const mask = Buffer.from([1, 2, 3, 4]);
  const masked = Buffer.from(text.map((byte, i) => byte ^ mask[i % 4]!));
  socket.write(Buffer.concat([Buffer.from([0x81, 0x80 | text.length]), mask, masked]));
  socket.pause();
  try {
    await server.waitForLog(/127\.0\.0\.7:\d+: dropping connection: no pong within 1 s/);
  } finally {
    socket.destroy();
  }
});

test('a connection that never sends its HTTP request is closed after the handshake time', async () => {
  const socket = connect({ host: '127.0.0.1', port: server.port, localAddress: '127.0.0.8' });
  socket.on('error', () => {});
  socket.on('data', () => {});
  await new Promise((resolve) => socket.once('connect', resolve));
  socket.write('GET / HTTP/1.1\r\nHost: slow');
  await closed(socket);
});

test('a WebSocket that never sends its coco Handshake is closed with 1008 and a reason', async () => {
  const { ws, open } = await openFrom('127.0.0.9');
  assert.ok(open);
  const [code, reason] = await new Promise<[number, string]>((resolve) => ws.once('close', (c, r) => resolve([c, r.toString()])));
  assert.equal(code, 1008);
  assert.equal(reason, 'no Handshake within 2 s');
});

/** A GameNew from `address` on a connection of its own (kept open: its match waits while it lives); the reply's id. */
async function gameNewFrom(address: string, opened: RawClient[]): Promise<{ Ok?: string; Err?: string }> {
  const client = await RawClient.open(server.url, address);
  opened.push(client);
  await client.ask(encodeRequest({ type: 'Handshake', magic: 'coco', version: 2 }));
  const reply = await client.ask(encodeRequest({ type: 'GameNew', name: 'm', game: 'roshambo', params: { players: null, bots: 0, timeout: null }, args: {}, password: null, verification: null }));
  return (JSON.parse(reply!) as { GameNew: { id: { Ok?: string; Err?: string } } }).GameNew.id;
}

test('waiting matches count per /24 too, and a full lobby still admits a newcomer from a network with none waiting', async () => {
  const opened: RawClient[] = [];
  try {
    const flood: string[] = [];
    for (let i = 1; i <= 3; i++) flood.push((await gameNewFrom(`127.0.7.${i}`, opened)).Ok!);
    assert.ok(flood.every(Boolean), 'three addresses of one /24 make three');
    assert.deepEqual(await gameNewFrom('127.0.7.4', opened), { Err: "Too many waiting matches from your network: at most 3 per network (the server's master password lifts this)" });
    assert.ok((await gameNewFrom('127.0.8.1', opened)).Ok, 'another /24 makes the fourth: the lobby is full');
    assert.deepEqual(await gameNewFrom('127.0.8.2', opened), { Err: 'Server is at maximum capacity' }, 'a network with a waiting match makes no room');
    assert.ok((await gameNewFrom('127.0.9.1', opened)).Ok, 'a network with none waiting gets one');
    await server.waitForLog(new RegExp(`lobby full: match ${flood[0]} \\(waiting, made from network net:127\\.0\\.7\\.0/24\\) expires to make room`));
  } finally {
    for (const client of opened) client.close();
  }
});

import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { connect, type Socket } from 'node:net';
import WebSocket from 'ws';
import { startServer, type ServerProcess } from '../support/processes.js';
import { JOIN } from '../support/socha-peer.js';

/**
 * Real cocod processes behind a pretend balancer on 127.0.0.1 (the test writes the preamble or the
 * header a balancer or proxy would); 127.0.0.2 is an ordinary client that tries the same tricks.
 */

const BALANCER = '127.0.0.1';
const STRANGER = '127.0.0.2';
const V2_SIGNATURE = [0x0d, 0x0a, 0x0d, 0x0a, 0x00, 0x0d, 0x0a, 0x51, 0x55, 0x49, 0x54, 0x0a];

function v1(client: string, port: number): Buffer {
  return Buffer.from(`PROXY TCP4 ${client} 127.0.0.1 ${port} 8088\r\n`, 'latin1');
}

function v2(client: string, port: number): Buffer {
  const block = Buffer.alloc(12);
  client.split('.').forEach((part, i) => block.writeUInt8(Number(part), i));
  [127, 0, 0, 1].forEach((part, i) => block.writeUInt8(part, 4 + i));
  block.writeUInt16BE(port, 8);
  block.writeUInt16BE(8088, 10);
  return Buffer.concat([Buffer.from([...V2_SIGNATURE, 0x21, 0x11, 0x00, 0x0c]), block]);
}

const sockets: Socket[] = [];
const websockets: WebSocket[] = [];

/** A TCP connection from `from` to `port` that starts with `preamble` (none when null). */
function tcp(port: number, from: string, preamble: Buffer | null): Socket {
  const socket = connect({ host: '127.0.0.1', port, localAddress: from });
  sockets.push(socket);
  socket.on('error', () => {});
  if (preamble) socket.write(preamble);
  return socket;
}

/** Opens a coco WebSocket; resolves with whether it opened, and the close code if it was closed right after. */
function websocket(server: ServerProcess, from: string, options: { preamble?: Buffer; forwardedFor?: string } = {}): Promise<{ open: boolean; closeCode: number | null }> {
  return new Promise((resolve) => {
    const ws = new WebSocket(server.url, {
      localAddress: from,
      ...(options.forwardedFor !== undefined && { headers: { 'x-forwarded-for': options.forwardedFor } }),
      ...(options.preamble && { createConnection: () => tcp(server.port, from, options.preamble!) }),
    });
    websockets.push(ws);
    ws.once('error', () => resolve({ open: false, closeCode: null }));
    // A refusal after the upgrade closes at once: give the server one round trip to do it.
    ws.once('open', () => {
      ws.once('close', (code) => resolve({ open: false, closeCode: code }));
      ws.ping();
      ws.once('pong', () => resolve({ open: true, closeCode: null }));
    });
  });
}

function closeAll(): void {
  for (const ws of websockets.splice(0)) ws.terminate();
  for (const socket of sockets.splice(0)) socket.destroy();
}

/** Everything the server sends until it closes the connection. */
function replyOf(socket: Socket): Promise<string> {
  let text = '';
  socket.on('data', (chunk: Buffer) => (text += chunk.toString('latin1')));
  return new Promise((resolve) => socket.once('close', () => resolve(text)));
}

describe('behind a balancer that sends the PROXY protocol', () => {
  let server: ServerProcess;
  let clobberPort = 0;
  let sochaPort = 0;

  before(async () => {
    server = await startServer([
      '--trusted-proxy', BALANCER,
      '--proxy-protocol',
      '--clobber-port', '0',
      '--socha-port', '0',
      '--limit', 'connections-per-address=2',
    ]);
    clobberPort = Number((await server.waitForLog(/clobber tournament port listening on [^:]+:(\d+)/))[1]);
    sochaPort = Number((await server.waitForLog(/socha port listening on [^:]+:(\d+)/))[1]);
  });
  after(async () => {
    closeAll();
    await server.stop();
  });

  test('two clients behind one balancer (v1 and v2) each get their own connections-per-address budget', async (t) => {
    t.after(closeAll);
    for (let i = 0; i < 2; i++) {
      assert.ok((await websocket(server, BALANCER, { preamble: v1('203.0.113.1', 1000 + i) })).open, `client 1, connection ${i + 1}`);
      assert.ok((await websocket(server, BALANCER, { preamble: v2('203.0.113.2', 2000 + i) })).open, `client 2, connection ${i + 1}`);
    }
    // The balancer holds four connections now, twice the limit, and is still let in for others.
    assert.equal((await websocket(server, BALANCER, { preamble: v1('203.0.113.1', 1002) })).open, false, 'client 1 has used its two');
    assert.equal((await websocket(server, BALANCER, { preamble: v2('203.0.113.2', 2002) })).open, false, 'client 2 has used its two');
    assert.ok((await websocket(server, BALANCER, { preamble: v2('203.0.113.3', 3000) })).open, 'a third client behind the same balancer');
    await server.waitForLog(/http 203\.0\.113\.1: connection refused \(connections-per-address/);
    await server.waitForLog(/http 203\.0\.113\.2: connection refused \(connections-per-address/);
  });

  test('the Clobber port counts and logs the client the preamble names', async (t) => {
    t.after(closeAll);
    tcp(clobberPort, BALANCER, Buffer.concat([v1('198.51.100.4', 4444), Buffer.from('play clobber alice\n')]));
    await server.waitForLog(/clobber port 198\.51\.100\.4:4444: alice joined match/);
    tcp(clobberPort, BALANCER, Buffer.concat([v2('198.51.100.5', 5555), Buffer.from('play clobber bob\n')]));
    await server.waitForLog(/clobber port 198\.51\.100\.5:5555: bob joined match/);
  });

  test('the Software-Challenge port counts and logs the client the preamble names', async (t) => {
    t.after(closeAll);
    tcp(sochaPort, BALANCER, Buffer.concat([v2('198.51.100.6', 6666), Buffer.from(JOIN)]));
    await server.waitForLog(/socha port 198\.51\.100\.6:6666: player1 joined room/);
  });

  test('a peer that is not a trusted balancer cannot name itself: its PROXY line is refused as garbage on every port', async (t) => {
    t.after(closeAll);
    const http = tcp(server.port, STRANGER, Buffer.from(`${v1('203.0.113.66', 1).toString('latin1')}GET /health HTTP/1.1\r\nHost: x\r\n\r\n`));
    assert.match(await replyOf(http), /^HTTP\/1\.1 400 /);
    const clobber = tcp(clobberPort, STRANGER, Buffer.concat([v1('203.0.113.66', 1), Buffer.from('play clobber mallory\n')]));
    assert.equal(await replyOf(clobber), 'error\n');
    const socha = tcp(sochaPort, STRANGER, Buffer.concat([v2('203.0.113.66', 1), Buffer.from(JOIN)]));
    await replyOf(socha);
    await server.waitForLog(/clobber port 127\.0\.0\.2:\d+: expected "play clobber <name>"/);
    await server.waitForLog(/socha port 127\.0\.0\.2:\d+: .*connection closed/);
    // The refusals quote the line, but nothing was counted or logged as coming from it.
    assert.doesNotMatch(server.log(), /(port|http) 203\.0\.113\.66/);
  });

  test('a malformed preamble from the balancer closes that connection only', async (t) => {
    t.after(closeAll);
    const seated = tcp(clobberPort, BALANCER, Buffer.concat([v1('198.51.100.7', 7777), Buffer.from('play clobber carol\n')]));
    await server.waitForLog(/clobber port 198\.51\.100\.7:7777: carol joined match/);
    const broken = tcp(clobberPort, BALANCER, Buffer.from('PROXY TCP4 198.51.100.8 127.0.0.1 99999 1\r\n'));
    await replyOf(broken);
    await server.waitForLog(/clobber port 127\.0\.0\.1:\d+: PROXY v1 ports are not 0-65535: .*; connection closed/);
    assert.ok(!seated.closed, 'the other connection of the same balancer stays');
  });
});

describe('behind an HTTP proxy that sends X-Forwarded-For', () => {
  let server: ServerProcess;

  before(async () => {
    server = await startServer(['--trusted-proxy', BALANCER, '--limit', 'connections-per-address=2']);
  });
  after(async () => {
    closeAll();
    await server.stop();
  });

  test('each client the trusted proxy names gets its own connections-per-address budget; the proxy is not limited', async (t) => {
    t.after(closeAll);
    for (let i = 0; i < 2; i++) {
      assert.ok((await websocket(server, BALANCER, { forwardedFor: '203.0.113.1' })).open);
      // A client's own entry at the left is not believed: the proxy's (the rightmost) is.
      assert.ok((await websocket(server, BALANCER, { forwardedFor: '10.9.9.9, 203.0.113.2' })).open);
    }
    assert.deepEqual(await websocket(server, BALANCER, { forwardedFor: '203.0.113.1' }), { open: false, closeCode: 1013 });
    assert.ok((await websocket(server, BALANCER, { forwardedFor: '203.0.113.3' })).open);
    await server.waitForLog(/203\.0\.113\.1: connection refused \(connections-per-address\)/);
  });

  test('X-Forwarded-For from a peer that is not trusted is not read', async (t) => {
    t.after(closeAll);
    assert.ok((await websocket(server, STRANGER, { forwardedFor: '203.0.113.7' })).open);
    assert.ok((await websocket(server, STRANGER, { forwardedFor: '203.0.113.8' })).open);
    assert.equal((await websocket(server, STRANGER, { forwardedFor: '203.0.113.9' })).open, false, 'all three count as 127.0.0.2');
    await server.waitForLog(/http 127\.0\.0\.2: connection refused \(connections-per-address/);
  });
});

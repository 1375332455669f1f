import { test } from 'node:test';
import assert from 'node:assert/strict';
import { createServer, type Server, type Socket } from 'node:net';
import type { AddressInfo } from 'node:net';
import { WebSocketServer } from 'ws';
import { CocoClient } from './coco-client.js';
import { PROTOCOL_MAGIC } from '../protocol/coco/messages.js';

/** A server that accepts TCP connections and never says a word. */
async function silentPort(): Promise<{ url: string; close: () => Promise<void> }> {
  const sockets = new Set<Socket>();
  const server: Server = createServer((socket) => sockets.add(socket));
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `ws://127.0.0.1:${(server.address() as AddressInfo).port}/`,
    close: async () => {
      for (const socket of sockets) socket.destroy();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}

/** A WebSocket server that answers the coco Handshake when `shake` and nothing else. */
async function mutePeer(shake: boolean): Promise<{ url: string; close: () => Promise<void> }> {
  const wss = new WebSocketServer({ host: '127.0.0.1', port: 0 });
  await new Promise<void>((resolve) => wss.once('listening', resolve));
  wss.on('connection', (ws) => {
    if (shake) ws.once('message', () => ws.send(JSON.stringify({ Handshake: { magic: PROTOCOL_MAGIC, version: 2 } })));
  });
  return {
    url: `ws://127.0.0.1:${(wss.address() as AddressInfo).port}/`,
    close: async () => {
      for (const ws of wss.clients) ws.terminate();
      await new Promise<void>((resolve) => wss.close(() => resolve()));
    },
  };
}

test('a port that accepts TCP but never completes the WebSocket handshake is given up after connectMs', async () => {
  const port = await silentPort();
  try {
    await assert.rejects(CocoClient.connect(port.url, { connectMs: 200 }), /cannot connect to ws:\/\/127\.0\.0\.1:\d+\/: no answer within 0\.2 s/);
  } finally {
    await port.close();
  }
});

test('a WebSocket server that never answers the coco Handshake is given up after connectMs', async () => {
  const peer = await mutePeer(false);
  try {
    await assert.rejects(CocoClient.connect(peer.url, { connectMs: 200 }), /no answer within 0\.2 s/);
  } finally {
    await peer.close();
  }
});

test('a request the server never answers fails after replyMs, and the connection says why', async () => {
  const peer = await mutePeer(true);
  try {
    const client = await CocoClient.connect(peer.url, { replyMs: 200 });
    await assert.rejects(client.request({ type: 'GameList' }, 'GameList'), /the server did not answer GameList within 0\.2 s/);
    assert.equal(client.closedBecause, 'the server did not answer GameList within 0.2 s');
    assert.equal(await client.next(), null);
  } finally {
    await peer.close();
  }
});

import { once } from 'node:events';
import type { AddressInfo } from 'node:net';
import { WebSocketServer, type WebSocket } from 'ws';
import { decodeRequest, encodeReply } from '../../src/protocol/coco/json-codec.js';
import type { MatchInfo, Reply, Request } from '../../src/protocol/coco/messages.js';

/**
 * A scripted stand-in for a coco server, for the client's tests: it answers the handshake and
 * hands each connection to the test, which plays the server's part step by step (and may misbehave
 * in ways the real server never does: hang up before answering, vanish mid-game).
 */
export interface FakePeer {
  /** The next request after the handshake (text frames). */
  nextRequest(): Promise<Request>;
  reply(reply: Reply): void;
  /** Sends game bytes (a binary frame). */
  sendBytes(text: string): void;
  /** Resolves with everything the client sent as game bytes once it matches `pattern`. */
  waitForBytes(pattern: RegExp): Promise<string>;
  /** Closes with a close frame. */
  close(): void;
  /** Drops the TCP connection without a close frame (the connection is lost). */
  terminate(): void;
  readonly closed: Promise<void>;
}

export interface FakeServer {
  readonly url: string;
  /** The next client that connected and shook hands. */
  nextPeer(): Promise<FakePeer>;
  stop(): Promise<void>;
}

export async function startFakeServer(): Promise<FakeServer> {
  const wss = new WebSocketServer({ port: 0, host: '127.0.0.1' });
  await once(wss, 'listening');
  const peers: FakePeer[] = [];
  const peerWaiters: ((peer: FakePeer) => void)[] = [];
  wss.on('connection', (ws) => {
    const peer = fakePeer(ws);
    void peer.nextRequest().then((first) => {
      if (first.type !== 'Handshake') throw new Error(`expected a handshake, got ${first.type}`);
      peer.reply({ type: 'Handshake', magic: 'coco', version: first.version });
      const waiter = peerWaiters.shift();
      if (waiter) waiter(peer);
      else peers.push(peer);
    });
  });
  const { port } = wss.address() as AddressInfo;
  return {
    url: `ws://127.0.0.1:${port}/`,
    nextPeer: () => {
      const peer = peers.shift();
      return peer ? Promise.resolve(peer) : new Promise((resolve) => peerWaiters.push(resolve));
    },
    stop: async () => {
      for (const client of wss.clients) client.terminate();
      await new Promise((resolve) => wss.close(resolve));
    },
  };
}

function fakePeer(ws: WebSocket): FakePeer {
  const requests: Request[] = [];
  const requestWaiters: ((request: Request) => void)[] = [];
  let bytes = '';
  const byteWaiters: { pattern: RegExp; resolve: (text: string) => void }[] = [];
  ws.on('message', (data, isBinary) => {
    const buffer = Buffer.from(data as Buffer);
    if (isBinary) {
      bytes += buffer.toString('latin1');
      for (const waiter of [...byteWaiters]) {
        if (waiter.pattern.test(bytes)) {
          byteWaiters.splice(byteWaiters.indexOf(waiter), 1);
          waiter.resolve(bytes);
        }
      }
      return;
    }
    const decoded = decodeRequest(buffer.toString('utf8'));
    if (!decoded.ok) throw new Error(`the client sent an invalid request: ${decoded.error}`);
    const waiter = requestWaiters.shift();
    if (waiter) waiter(decoded.value);
    else requests.push(decoded.value);
  });
  const closed = new Promise<void>((resolve) => ws.once('close', () => resolve()));
  return {
    nextRequest: () => {
      const request = requests.shift();
      return request ? Promise.resolve(request) : new Promise((resolve) => requestWaiters.push(resolve));
    },
    reply: (reply) => ws.send(encodeReply(reply, 2)),
    sendBytes: (text) => ws.send(Buffer.from(text, 'latin1'), { binary: true }),
    waitForBytes: (pattern) =>
      pattern.test(bytes) ? Promise.resolve(bytes) : new Promise((resolve) => byteWaiters.push({ pattern, resolve })),
    close: () => ws.close(1000, 'bye'),
    terminate: () => ws.terminate(),
    closed,
  };
}

/** A MatchInfo for the fake's replies (a waiting two-player match). */
export function fakeMatchInfo(id: string, fields: Partial<MatchInfo> = {}): MatchInfo {
  return {
    players: 2,
    bots: 0,
    timeout: 30,
    args: {},
    id,
    name: 'fake',
    game: 'fake',
    running: false,
    time: Math.floor(Date.now() / 1000) + 600,
    connected: [],
    spectators: 0,
    password: false,
    verified: false,
    ...fields,
  };
}

/** Answers the client's join with `info` and starts the match at once; returns the peer. */
export async function acceptJoin(server: FakeServer, id: string): Promise<FakePeer> {
  const peer = await server.nextPeer();
  const join = await peer.nextRequest();
  if (join.type !== 'LobbyJoinMatch' || join.id !== id) throw new Error(`expected a join of ${id}, got ${JSON.stringify(join)}`);
  peer.reply({ type: 'LobbyJoinedMatch', info: { Ok: fakeMatchInfo(id) } });
  peer.reply({ type: 'MatchStarted' });
  return peer;
}

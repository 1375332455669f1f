import { connect, type Socket } from 'node:net';
import WebSocket from 'ws';

/**
 * Every connection an attack (or the harness) opens, so that all of them are closed at the end
 * whatever happened: a test that fails must not leave thousands of sockets behind.
 */
export class Net {
  private readonly sockets = new Set<Socket>();
  private readonly websockets = new Set<WebSocket>();
  private closing = false;

  /** Open connections right now. */
  get open(): number {
    return this.sockets.size + this.websockets.size;
  }

  /** A TCP connection from `localAddress`; resolves once connected, rejects if it cannot be. */
  tcp(port: number, localAddress: string, options: { allowHalfOpen?: boolean } = {}): Promise<Socket> {
    const socket = connect({ port, host: '127.0.0.1', localAddress, allowHalfOpen: options.allowHalfOpen ?? false });
    this.track(socket);
    return new Promise((resolve, reject) => {
      socket.once('connect', () => resolve(socket));
      socket.once('error', reject);
    });
  }

  /** A WebSocket from `localAddress`; resolves once open, rejects if the server refuses it. */
  ws(url: string, localAddress: string): Promise<WebSocket> {
    // A client's own limit must never be what stops a reply the server chose to send.
    const ws = new WebSocket(url, { localAddress, perMessageDeflate: false, maxPayload: 1 << 30 });
    this.websockets.add(ws);
    ws.on('error', () => {});
    ws.once('close', () => this.websockets.delete(ws));
    if (this.closing) ws.terminate();
    return new Promise((resolve, reject) => {
      ws.once('open', () => resolve(ws));
      ws.once('error', reject);
      ws.once('close', () => reject(new Error('closed before it opened')));
    });
  }

  /** Follows a socket made elsewhere. */
  track(socket: Socket): void {
    this.sockets.add(socket);
    socket.on('error', () => {});
    socket.once('close', () => this.sockets.delete(socket));
    if (this.closing) socket.destroy();
  }

  /** Closes every connection at once (no goodbyes: this is the cleanup). */
  closeAll(): void {
    this.closing = true;
    for (const ws of this.websockets) ws.terminate();
    for (const socket of this.sockets) socket.destroy();
  }
}

/** Resolves when the socket has closed (at once if it already has). */
export function whenClosed(socket: Socket): Promise<void> {
  if (socket.closed) return Promise.resolve();
  return new Promise((resolve) => socket.once('close', () => resolve()));
}

/** Resolves when the WebSocket has closed (at once if it already has). */
export function wsClosed(ws: WebSocket): Promise<void> {
  if (ws.readyState === WebSocket.CLOSED) return Promise.resolve();
  return new Promise((resolve) => ws.once('close', () => resolve()));
}

/** Sends on a WebSocket and resolves when the frame has been handed to the kernel (or the socket is gone). */
export function wsSend(ws: WebSocket, data: string | Buffer, binary = Buffer.isBuffer(data)): Promise<void> {
  if (ws.readyState !== WebSocket.OPEN) return Promise.resolve();
  return new Promise((resolve) => ws.send(data, { binary }, () => resolve()));
}

/**
 * Writes on a socket and resolves when written, or when the socket is gone (a server that closes
 * the connection mid-write may leave the write's callback uncalled).
 */
export function tcpWrite(socket: Socket, data: string | Buffer): Promise<void> {
  if (socket.destroyed || !socket.writable) return Promise.resolve();
  return new Promise((resolve) => {
    socket.write(data, () => resolve());
    socket.once('close', () => resolve());
  });
}

/** The socket under a WebSocket (its port; raw bytes written under the WebSocket framing). */
export function rawSocket(ws: WebSocket): Socket {
  return (ws as unknown as { _socket: Socket })._socket;
}

/** Runs `task(i)` for i in [0, count) with at most `concurrency` at once. */
export async function inParallel(count: number, concurrency: number, task: (i: number) => Promise<void>): Promise<void> {
  let next = 0;
  const worker = async (): Promise<void> => {
    while (next < count) await task(next++);
  };
  await Promise.all(Array.from({ length: Math.min(concurrency, count) }, worker));
}

/** Resolves with the first of several promises, ignoring which rejects after that. */
export function firstOf<T>(...promises: Promise<T>[]): Promise<T> {
  for (const promise of promises) promise.catch(() => {});
  return Promise.race(promises);
}

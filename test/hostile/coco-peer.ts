import WebSocket from 'ws';
import { decodeReply, encodeRequest } from '../../src/protocol/coco/json-codec.js';
import { PROTOCOL_MAGIC, type Reply, type ReplyType, type Request } from '../../src/protocol/coco/messages.js';
import { wsClosed, type Net } from './net.js';

export type ReplyOf<T extends ReplyType> = Extract<Reply, { type: T }>;

/** A text reply decoded, a binary frame as bytes, or a text frame our codec could not read. */
export type Frame =
  | { readonly kind: 'reply'; readonly reply: Reply; readonly at: number }
  | { readonly kind: 'data'; readonly bytes: Buffer; readonly at: number }
  | { readonly kind: 'unreadable'; readonly text: string; readonly at: number };

/**
 * A coco protocol client from a chosen source address, for the legitimate players and for attacks
 * that speak the protocol correctly (up to the point where they do not). Frames are queued as they
 * arrive, with their arrival time (performance.now).
 */
export class CocoPeer {
  private readonly inbox: Frame[] = [];
  private readonly waiters = new Set<() => void>();
  private isClosed = false;
  readonly closed: Promise<void>;

  private constructor(readonly ws: WebSocket) {
    ws.on('message', (data, isBinary) => {
      const bytes = Array.isArray(data) ? Buffer.concat(data) : Buffer.from(data as ArrayBuffer);
      const at = performance.now();
      if (isBinary) this.inbox.push({ kind: 'data', bytes, at });
      else {
        const text = bytes.toString('utf8');
        const decoded = decodeReply(text);
        this.inbox.push(decoded.ok ? { kind: 'reply', reply: decoded.value, at } : { kind: 'unreadable', text, at });
      }
      this.wake();
    });
    this.closed = wsClosed(ws).then(() => {
      this.isClosed = true;
      this.wake();
    });
  }

  /** Connects from `localAddress` and, unless told not to, shakes hands (version 2). */
  static async open(net: Net, url: string, localAddress: string, handshake = true): Promise<CocoPeer> {
    const peer = new CocoPeer(await net.ws(url, localAddress));
    if (handshake) {
      peer.send({ type: 'Handshake', magic: PROTOCOL_MAGIC, version: 2 });
      await peer.expect('Handshake');
    }
    return peer;
  }

  get isOpen(): boolean {
    return !this.isClosed && this.ws.readyState === WebSocket.OPEN;
  }

  send(request: Request): void {
    if (this.ws.readyState === WebSocket.OPEN) this.ws.send(encodeRequest(request));
  }

  sendText(text: string): void {
    if (this.ws.readyState === WebSocket.OPEN) this.ws.send(text);
  }

  sendBytes(bytes: Uint8Array): void {
    if (this.ws.readyState === WebSocket.OPEN) this.ws.send(bytes, { binary: true });
  }

  /** The next frame, or null once the connection has closed and every frame was read. */
  async next(): Promise<Frame | null> {
    for (;;) {
      const frame = this.inbox.shift();
      if (frame) return frame;
      if (this.isClosed) return null;
      await new Promise<void>((resolve) => this.waiters.add(resolve));
    }
  }

  /** The next frame, which must be the reply `type`. */
  async expect<T extends ReplyType>(type: T): Promise<ReplyOf<T>> {
    const frame = await this.next();
    if (frame?.kind === 'reply' && frame.reply.type === type) return frame.reply as ReplyOf<T>;
    throw new Error(`expected ${type}, got ${frame === null ? 'the connection closed' : frame.kind === 'reply' ? frame.reply.type : frame.kind}`);
  }

  /** Skips frames until the reply `type` (null if the connection closes first). */
  async until<T extends ReplyType>(type: T): Promise<ReplyOf<T> | null> {
    for (;;) {
      const frame = await this.next();
      if (frame === null) return null;
      if (frame.kind === 'reply' && frame.reply.type === type) return frame.reply as ReplyOf<T>;
    }
  }

  async request<T extends ReplyType>(request: Request, type: T): Promise<ReplyOf<T>> {
    this.send(request);
    return this.expect(type);
  }

  close(): void {
    this.ws.close();
  }

  terminate(): void {
    this.ws.terminate();
  }

  private wake(): void {
    for (const wake of [...this.waiters]) wake();
    this.waiters.clear();
  }
}

/** A GameNew request with the defaults an ordinary client sends. */
export function gameNew(
  game: string,
  name: string,
  options: { args?: Record<string, string>; players?: number | null; bots?: number; timeout?: number | null; password?: string | null; verification?: string | null } = {},
): Request {
  return {
    type: 'GameNew',
    name,
    game,
    params: { players: options.players ?? null, bots: options.bots ?? 0, timeout: options.timeout ?? null },
    args: options.args ?? {},
    password: options.password ?? null,
    verification: options.verification ?? null,
  };
}

import WebSocket from 'ws';
import { decodeHistoryMatchReply, type HistoryMatchOutcome } from '../protocol/coco/bincode.js';
import { decodeReply, encodeRequest } from '../protocol/coco/json-codec.js';
import { PROTOCOL_MAGIC, type Reply, type ReplyType, type Request } from '../protocol/coco/messages.js';

export type ReplyOf<T extends ReplyType> = Extract<Reply, { type: T }>;

/** What arrives from the server: a control reply, or bytes of a game or spectator stream. */
export type Incoming = { readonly kind: 'reply'; readonly reply: Reply } | { readonly kind: 'data'; readonly bytes: Buffer };

/**
 * How long the client waits for a server that does not answer (docs/limits.md, "The coco client's
 * waits"): a port that accepts TCP but never completes the WebSocket handshake, or a server that
 * never replies, must not keep a command waiting forever.
 */
export const CLIENT_WAITS = {
  /** TCP connection, WebSocket upgrade and coco Handshake together. */
  connectMs: 10_000,
  /** The reply to a request (a join's reply included; not the wait for a match to start or end). */
  replyMs: 30_000,
} as const;

export interface ClientOptions {
  readonly version?: number;
  readonly connectMs?: number;
  readonly replyMs?: number;
}

/**
 * A client connection speaking the coco protocol, version 2: requests out, replies and game bytes
 * in, in order. Used by the `coco` command, the tests and the benchmark.
 */
export class CocoClient {
  private readonly inbox: Incoming[] = [];
  private waiter: ((item: Incoming | null) => void) | null = null;
  private closed = false;
  private closeReason = '';
  /** The close frame's code and reason once the server closed the connection, else null. */
  private closeFrame: { readonly code: number; readonly reason: string } | null = null;
  private readonly closeWaiters = new Set<() => void>();

  private constructor(
    private readonly ws: WebSocket,
    private readonly replyMs: number,
  ) {
    ws.on('message', (data, isBinary) => {
      const bytes = Array.isArray(data) ? Buffer.concat(data) : Buffer.from(data as ArrayBuffer);
      if (isBinary) this.push({ kind: 'data', bytes });
      else {
        const decoded = decodeReply(bytes.toString('utf8'));
        if (decoded.ok) this.push({ kind: 'reply', reply: decoded.value });
        else this.fail(`the server sent an invalid message: ${decoded.error}`);
      }
    });
    ws.on('close', (code, reason) => {
      const why = reason.toString('utf8');
      this.closeFrame = { code, reason: why };
      for (const wake of this.closeWaiters) wake();
      this.closeWaiters.clear();
      this.fail(why === '' ? 'the server closed the connection' : `the server closed the connection (${code}): ${why}`);
    });
    ws.on('error', (error) => this.fail(`connection error: ${error.message}`));
  }

  /** Connects and shakes hands, within `connectMs`. */
  static async connect(url: string, options: ClientOptions = {}): Promise<CocoClient> {
    const { version = 2, connectMs = CLIENT_WAITS.connectMs, replyMs = CLIENT_WAITS.replyMs } = options;
    const ws = new WebSocket(url, { perMessageDeflate: false });
    let timer: NodeJS.Timeout | undefined;
    const late = new Promise<never>((_, reject) => {
      timer = setTimeout(() => {
        ws.terminate();
        reject(new Error(`cannot connect to ${url}: no answer within ${connectMs / 1000} s`));
      }, connectMs);
    });
    try {
      const opened = new Promise<void>((resolve, reject) => {
        ws.once('open', () => resolve());
        ws.once('error', (error) => reject(new Error(`cannot connect to ${url}: ${error.message}`)));
      });
      await Promise.race([opened, late]);
      const client = new CocoClient(ws, replyMs);
      client.send({ type: 'Handshake', magic: PROTOCOL_MAGIC, version });
      const reply = await Promise.race([client.expect('Handshake'), late]);
      if (reply.magic !== PROTOCOL_MAGIC || reply.version !== version) {
        client.close();
        throw new Error(`the server speaks protocol ${reply.magic} version ${reply.version}, not ${PROTOCOL_MAGIC} ${version}`);
      }
      return client;
    } finally {
      clearTimeout(timer);
    }
  }

  send(request: Request): void {
    this.ws.send(encodeRequest(request));
  }

  sendBytes(bytes: Uint8Array): void {
    this.ws.send(bytes, { binary: true });
  }

  /** Why the connection closed, as far as the client knows ('' while open or closed by us). */
  get closedBecause(): string {
    return this.closeReason;
  }

  /**
   * The server's close frame (code and reason), waiting up to `ms` for it; null when the
   * connection is still open then. A server going away (1001) says why in the reason.
   */
  async closeFrameWithin(ms: number): Promise<{ readonly code: number; readonly reason: string } | null> {
    if (this.closeFrame === null) {
      let timer: NodeJS.Timeout | undefined;
      let wake: () => void = () => {};
      await new Promise<void>((resolve) => {
        wake = resolve;
        this.closeWaiters.add(wake);
        timer = setTimeout(resolve, ms);
      });
      clearTimeout(timer);
      this.closeWaiters.delete(wake);
    }
    return this.closeFrame;
  }

  /** The next message from the server, or null once the connection is closed. */
  next(): Promise<Incoming | null> {
    const item = this.inbox.shift();
    if (item) return Promise.resolve(item);
    if (this.closed) return Promise.resolve(null);
    return new Promise((resolve) => (this.waiter = resolve));
  }

  /** The next message, which must be the reply `type`; anything else is an error. */
  async expect<T extends ReplyType>(type: T): Promise<ReplyOf<T>> {
    const item = await this.next();
    if (item === null) throw new Error(this.closeReason || 'connection closed');
    if (item.kind !== 'reply' || item.reply.type !== type) {
      throw new Error(`expected ${type} from the server, got ${item.kind === 'reply' ? item.reply.type : 'game data'}`);
    }
    return item.reply as ReplyOf<T>;
  }

  /** Sends a request and waits for its reply; a server silent for `replyMs` closes the connection. */
  async request<T extends ReplyType>(request: Request, reply: T): Promise<ReplyOf<T>> {
    this.send(request);
    return this.withinReplyWait(request.type, this.expect(reply));
  }

  /** HistoryMatch: the reply comes as a bincode binary frame (or JSON text, both accepted). */
  async historyMatch(id: string): Promise<HistoryMatchOutcome> {
    this.send({ type: 'HistoryMatch', id });
    const item = await this.withinReplyWait('HistoryMatch', this.next());
    if (item === null) throw new Error(this.closeReason || 'connection closed');
    if (item.kind === 'data') return decodeHistoryMatchReply(item.bytes);
    if (item.reply.type === 'HistoryMatch') return item.reply.data;
    throw new Error(`expected HistoryMatch from the server, got ${item.reply.type}`);
  }

  /**
   * `answer`, unless `replyMs` pass first: then the connection is given up as lost (closedBecause
   * says why) and the wait resolves as a closed connection would.
   */
  private async withinReplyWait<T>(what: string, answer: Promise<T>): Promise<T> {
    const timer = setTimeout(() => {
      this.fail(`the server did not answer ${what} within ${this.replyMs / 1000} s`);
      this.ws.terminate();
    }, this.replyMs);
    try {
      return await answer;
    } finally {
      clearTimeout(timer);
    }
  }

  /** Closes the connection; a `next()` still waiting resolves with null. */
  close(): void {
    if (this.closed) return;
    this.closed = true;
    this.ws.close();
    this.wake(null);
  }

  private push(item: Incoming): void {
    if (this.waiter) this.wake(item);
    else this.inbox.push(item);
  }

  private fail(reason: string): void {
    if (this.closed) return;
    this.closed = true;
    this.closeReason = reason;
    this.wake(null);
  }

  private wake(item: Incoming | null): void {
    if (this.waiter) {
      const wake = this.waiter;
      this.waiter = null;
      wake(item);
    }
  }
}

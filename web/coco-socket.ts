/**
 * The page's side of the coco WebSocket protocol (notes/coco-wire-protocol.md), version 2, plus
 * the visualizer extension (VisSubscribe -> VisSubscribed, VisEvents..., VisEnded).
 *
 * Messages are externally tagged JSON objects (`{"Variant":{...}}`). The protocol has no request
 * ids: each one-shot request gets one reply of a known variant, in order, so replies are matched
 * to requests by variant, first come first served. Everything else is a push, delivered to the
 * handlers registered with `on`. Binary frames carry the spectator stream.
 */
export const PROTOCOL_VERSION = 2;

/** How long a request waits for its reply before failing. */
const REPLY_TIMEOUT_MS = 20_000;

export type Message = Record<string, unknown>;

export class SocketClosed extends Error {
  constructor(reason: string) {
    super(reason);
    this.name = 'SocketClosed';
  }
}

interface Pending {
  readonly resolve: (payload: unknown) => void;
  readonly reject: (error: Error) => void;
  readonly timer: number;
}

/** `{"Variant": payload}` as [variant, payload]; the bare-string form (`"HistoryMatchList"`) too. */
export function splitMessage(value: unknown): [string, unknown] | null {
  if (typeof value === 'string') return [value, null];
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return null;
  const keys = Object.keys(value);
  if (keys.length !== 1) return null;
  return [keys[0]!, (value as Message)[keys[0]!]];
}

export class CocoSocket {
  private readonly pending = new Map<string, Pending[]>();
  private readonly handlers = new Map<string, Set<(payload: unknown) => void>>();
  private readonly binaryHandlers = new Set<(bytes: Uint8Array) => void>();
  private readonly closeHandlers = new Set<(reason: string) => void>();
  private closed = false;

  private constructor(private readonly ws: WebSocket) {
    ws.binaryType = 'arraybuffer';
    ws.addEventListener('message', (e) => this.onMessage(e));
    ws.addEventListener('close', (e) => this.shutDown(e.reason || `connection closed (${e.code})`));
    ws.addEventListener('error', () => this.shutDown('connection error'));
  }

  /** Opens a connection and performs the version-2 handshake. */
  static open(url: string): Promise<CocoSocket> {
    return new Promise((resolve, reject) => {
      let ws: WebSocket;
      try {
        ws = new WebSocket(url);
      } catch (e) {
        reject(e instanceof Error ? e : new Error(String(e)));
        return;
      }
      const socket = new CocoSocket(ws);
      const fail = (): void => reject(new SocketClosed(`cannot connect to ${url}`));
      ws.addEventListener('error', fail, { once: true });
      ws.addEventListener(
        'open',
        () => {
          ws.removeEventListener('error', fail);
          socket
            .request({ Handshake: { magic: 'coco', version: PROTOCOL_VERSION } }, 'Handshake')
            .then((reply) => {
              const r = reply as { magic?: unknown; version?: unknown };
              if (r.magic !== 'coco' || r.version !== PROTOCOL_VERSION) {
                socket.close();
                reject(new Error(`the server speaks protocol version ${String(r.version)}, not ${PROTOCOL_VERSION}`));
              } else resolve(socket);
            }, reject);
        },
        { once: true },
      );
    });
  }

  get isClosed(): boolean {
    return this.closed;
  }

  /** Sends a request and waits for the reply variant `reply`; resolves with its payload. */
  request(message: Message | string, reply: string): Promise<unknown> {
    if (this.closed) return Promise.reject(new SocketClosed('connection closed'));
    return new Promise((resolve, reject) => {
      const queue = this.pending.get(reply) ?? [];
      const timer = window.setTimeout(() => {
        const index = queue.findIndex((p) => p.timer === timer);
        if (index >= 0) queue.splice(index, 1);
        reject(new Error(`no ${reply} reply from the server`));
      }, REPLY_TIMEOUT_MS);
      queue.push({ resolve, reject, timer });
      this.pending.set(reply, queue);
      this.send(message);
    });
  }

  /** Sends a message that has no reply (or whose reply is a push). */
  send(message: Message | string): void {
    if (!this.closed) this.ws.send(JSON.stringify(message));
  }

  /** Handles pushes of one variant; returns a function that removes the handler. */
  on(variant: string, handler: (payload: unknown) => void): () => void {
    const set = this.handlers.get(variant) ?? new Set();
    set.add(handler);
    this.handlers.set(variant, set);
    return () => set.delete(handler);
  }

  onBinary(handler: (bytes: Uint8Array) => void): void {
    this.binaryHandlers.add(handler);
  }

  /** Called once when the connection ends for any reason other than `close()`. */
  onClosed(handler: (reason: string) => void): void {
    this.closeHandlers.add(handler);
  }

  private shutDown(reason: string): void {
    if (this.closed) return;
    this.closed = true;
    for (const queue of this.pending.values()) {
      for (const p of queue) {
        window.clearTimeout(p.timer);
        p.reject(new SocketClosed(reason));
      }
    }
    this.pending.clear();
    for (const handler of this.closeHandlers) handler(reason);
  }

  close(): void {
    this.closeHandlers.clear();
    this.shutDown('closed by the page');
    try {
      this.ws.close(1000);
    } catch {
      // already closing
    }
  }

  private onMessage(e: MessageEvent): void {
    if (e.data instanceof ArrayBuffer) {
      const bytes = new Uint8Array(e.data);
      for (const handler of this.binaryHandlers) handler(bytes);
      return;
    }
    if (typeof e.data !== 'string') return;
    let value: unknown;
    try {
      value = JSON.parse(e.data);
    } catch {
      return;
    }
    const split = splitMessage(value);
    if (!split) return;
    const [variant, payload] = split;
    const queue = this.pending.get(variant);
    const waiting = queue?.shift();
    if (waiting) {
      window.clearTimeout(waiting.timer);
      waiting.resolve(payload);
      return;
    }
    for (const handler of this.handlers.get(variant) ?? []) handler(payload);
  }
}

/** A `{"Ok": x}` / `{"Err": "message"}` value as a result. */
export function rustResult(value: unknown): { ok: true; value: unknown } | { ok: false; error: string } {
  if (typeof value === 'object' && value !== null) {
    if ('Ok' in value) return { ok: true, value: (value as { Ok: unknown }).Ok };
    if ('Err' in value) return { ok: false, error: String((value as { Err: unknown }).Err) };
  }
  return { ok: false, error: 'malformed reply from the server' };
}

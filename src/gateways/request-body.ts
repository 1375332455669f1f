import type { IncomingMessage } from 'node:http';
import type { Clock } from '../util/clock.js';
import type { Log } from '../util/log.js';
import { addressKey, type RefusalReason } from './address-limits.js';
import { memoryCutRefusal, type ClientMemory, type MemoryCutReason } from './client-memory.js';
import type { PeerAddresses } from './peer-addresses.js';
import type { ServerLimits } from './server-limits.js';
import { ConcurrencyGate } from './concurrency-gate.js';

/**
 * Why a body was not read: larger than allowed, the client went away (or was cut off for the
 * memory it held), not all there within the body deadline, or the address already sends as many
 * bodies as it may.
 */
export type BodyRefusal = 'too-large' | 'aborted' | 'too-slow' | 'too-many';

export type BodyResult = { readonly ok: true; readonly body: Buffer } | { readonly ok: false; readonly reason: BodyRefusal };

/** A body being read: its result, the bytes kept so far, and a way to give up on it. */
interface BodyReception {
  readonly result: Promise<BodyResult>;
  size(): number;
  /** Stops reading (the stream is paused, the rest left unread) and settles the result with `reason`. */
  stop(reason: BodyRefusal): void;
}

/**
 * Reads a request body of at most `maxBytes`. A Content-Length above the limit is refused before
 * a byte of the body is read; a body that grows past it (chunked, or lying about its length) is
 * refused at the first byte beyond, and the rest is left unread: the stream is paused, so the
 * socket stops being read and the answer can go out (with `connection: close`) without the
 * server taking in the remainder. `received` is told after each chunk kept.
 */
function receiveBody(request: IncomingMessage, maxBytes: number, received?: () => void): BodyReception {
  const chunks: Buffer[] = [];
  let size = 0;
  let settle: (result: BodyResult) => void = () => {};
  const result = new Promise<BodyResult>((resolve) => (settle = resolve));
  const stop = (outcome: BodyResult): void => {
    request.off('data', onData);
    request.off('end', onEnd);
    request.off('close', onClose);
    if (!outcome.ok) {
      request.pause();
      chunks.length = 0;
    }
    settle(outcome);
    settle = () => {};
  };
  const onData = (chunk: Buffer): void => {
    size += chunk.length;
    if (size > maxBytes) return stop({ ok: false, reason: 'too-large' });
    chunks.push(chunk);
    received?.();
  };
  const onEnd = (): void => stop({ ok: true, body: Buffer.concat(chunks, size) });
  const onClose = (): void => stop({ ok: false, reason: 'aborted' });
  const declared = request.headers['content-length'];
  if (declared !== undefined && Number(declared) > maxBytes) settle({ ok: false, reason: 'too-large' });
  else {
    request.on('data', onData);
    request.on('end', onEnd);
    request.on('close', onClose);
  }
  return { result, size: () => size, stop: (reason) => stop({ ok: false, reason }) };
}

/** Reads a request body of at most `maxBytes`, with no deadline and no budget (see RequestBodies for those). */
export function readBodyWithin(request: IncomingMessage, maxBytes: number): Promise<BodyResult> {
  return receiveBody(request, maxBytes).result;
}

export interface RequestBodiesOptions {
  readonly clock: Clock;
  /** The budget the bytes of bodies being received count against, by the client's address. */
  readonly memory: ClientMemory;
  /** The client's address key (address-limits.ts), as the per-address limits count it. */
  readonly addressOf: (request: IncomingMessage) => string;
  /** A body must have arrived whole this long after its reading started (request-body-seconds). */
  readonly seconds: number;
  /** Bodies one address may be sending at once (request-bodies-per-address). */
  readonly perAddress: number;
  /** Told when a body is cut off for the memory held (the log line and metric). */
  readonly cut?: (why: MemoryCutReason, addressKey: string, heldBytes: number) => void;
}

/**
 * The one reader of request bodies (POST /api/replay-log, POST /api/tournaments), as a budget:
 * a body must arrive whole within a deadline, one address sends at most a few at once, and the
 * bytes received count against the client-memory budget (per address and server-wide) until the
 * body is whole. Whatever a request then does with its body (an import slot, a tournament) is
 * taken only once it has arrived, so that a slow sender holds nothing but its own request.
 */
export class RequestBodies {
  /** Bodies being received, per address; the server-wide bound is the memory budget's. */
  private readonly sending: ConcurrencyGate;

  constructor(private readonly options: RequestBodiesOptions) {
    this.sending = new ConcurrencyGate(Number.POSITIVE_INFINITY, options.perAddress);
  }

  /** The server's reader: its limits, its clients' addresses (a trusted proxy's client), a log line and a metric per cut. */
  static forServer(deps: {
    readonly limits: Pick<ServerLimits, 'request-body-seconds' | 'request-bodies-per-address'>;
    readonly clock: Clock;
    readonly memory: ClientMemory;
    readonly peers: PeerAddresses;
    readonly log: Log;
    readonly refused?: (reason: RefusalReason) => void;
  }): RequestBodies {
    return new RequestBodies({
      clock: deps.clock,
      memory: deps.memory,
      addressOf: (request) => addressKey(deps.peers.ofRequest(request).address),
      seconds: deps.limits['request-body-seconds'],
      perAddress: deps.limits['request-bodies-per-address'],
      cut: (why, key, held) => {
        deps.refused?.(memoryCutRefusal(why));
        deps.log.warn(`http ${key}: request dropped: its body held ${held} bytes (${why})`);
      },
    });
  }

  /** Bodies being received now, on all addresses. */
  get receiving(): number {
    return this.sending.inFlight;
  }

  read(request: IncomingMessage, maxBytes: number): Promise<BodyResult> {
    const key = this.options.addressOf(request);
    const entered = this.sending.tryEnter(key);
    if (!entered.ok) {
      request.pause();
      return Promise.resolve({ ok: false, reason: 'too-many' });
    }
    // Charged as each chunk is kept; past a budget the cut below ends the request.
    const reception = receiveBody(request, maxBytes, () => account.charge());
    const account = this.options.memory.register(key, {
      heldBytes: () => reception.size(),
      cut: (why) => {
        this.options.cut?.(why, key, reception.size());
        reception.stop('aborted');
        request.socket.destroy();
      },
    });
    const cancelDeadline = this.options.clock.setTimer(this.options.seconds * 1000, () => reception.stop('too-slow'), { weak: true });
    return reception.result.finally(() => {
      cancelDeadline();
      account.release();
      entered.release();
    });
  }
}

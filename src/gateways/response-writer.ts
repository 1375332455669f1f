import type { OutgoingHttpHeaders, ServerResponse } from 'node:http';
import type { Clock } from '../util/clock.js';
import type { MemoryAccount, MemoryHolder } from './client-memory.js';

/**
 * A body is written in pieces of this size (default 64 KiB), the next one only once the client
 * has taken the last: a client that reads slowly holds at most about one piece in the socket's
 * buffer, not a copy of the whole body.
 */
export const RESPONSE_CHUNK_BYTES = 64 * 1024;

/** How a response ended. */
export interface Delivery {
  /** The whole body was handed to the socket; false when the client left first. */
  readonly complete: boolean;
  /** Body bytes handed to the socket. */
  readonly bytesWritten: number;
  readonly bodyBytes: number;
}

/**
 * A body sent as it is produced: its pieces are asked for one at a time, the next only once the
 * client has taken the last, so that a body read from the store a slice at a time is never whole
 * in memory.
 */
export interface StreamedBody {
  /** Its length when known beforehand (sent as content-length); chunked otherwise. */
  readonly bytes?: number;
  /** Its pieces in order; not started for a HEAD request. */
  pieces(): AsyncIterable<Buffer>;
}

export interface ResponseWriterOptions {
  readonly chunkBytes?: number;
  /**
   * A response the client takes nothing of for this long is cut off (its connection closed), as
   * nginx's send_timeout: otherwise a client that never reads would hold its response, and what the
   * response holds, for ever. Needs `clock`.
   */
  readonly sendIdleMs?: number;
  readonly clock?: Clock;
  /**
   * Counts each response against the clients' memory budget (ClientMemory.register by the
   * client's address): it holds the piece in hand and what the socket has not sent; charged after
   * each write, released at the end; a cut closes its connection.
   */
  readonly account?: (response: ServerResponse, holder: MemoryHolder) => MemoryAccount;
  /** Called when a response is done, either way (for logs and tests). */
  readonly onDelivered?: (delivery: Delivery) => void;
}

interface InFlight {
  readonly response: ServerResponse;
  /** Body bytes in the writer's hands, not handed to the socket yet (a sent body's rest, a streamed body's piece). */
  held: number;
}

/**
 * Writes HTTP response bodies honouring backpressure, stops as soon as the client goes away, and
 * counts the bytes still waiting for clients (the body not yet written and what the socket holds).
 * A history record can be tens of MiB: a client that asks for it and never reads must not make the
 * server keep writing it, nor keep it all in memory.
 */
export class ResponseWriter {
  private readonly inFlight = new Set<InFlight>();
  private readonly chunkBytes: number;

  constructor(private readonly options: ResponseWriterOptions = {}) {
    this.chunkBytes = options.chunkBytes ?? RESPONSE_CHUNK_BYTES;
  }

  /** Bytes of response bodies that clients have not taken yet. */
  queuedBytes(): number {
    let total = 0;
    for (const entry of this.inFlight) total += heldBy(entry);
    return total;
  }

  /** Responses being written. */
  get responsesInFlight(): number {
    return this.inFlight.size;
  }

  /** Sends a whole response; resolves once it is handed to the socket or the client has left. */
  async send(response: ServerResponse, status: number, headers: OutgoingHttpHeaders, body: Buffer | string): Promise<Delivery> {
    const bytes = typeof body === 'string' ? Buffer.from(body, 'utf8') : body;
    const chunkBytes = this.chunkBytes;
    const pieces = async function* (): AsyncIterable<Buffer> {
      for (let at = 0; at < bytes.length; at += chunkBytes) yield bytes.subarray(at, at + chunkBytes);
    };
    return this.deliver(response, status, headers, { bytes: bytes.length, pieces }, bytes.length);
  }

  /**
   * Sends a response whose body is produced a piece at a time (StreamedBody); resolves once it is
   * handed to the socket or the client has left. When producing a piece fails, the connection is
   * cut (the client must not take a shortened body for the whole) and the error is thrown.
   */
  stream(response: ServerResponse, status: number, headers: OutgoingHttpHeaders, body: StreamedBody): Promise<Delivery> {
    return this.deliver(response, status, headers, body, 0);
  }

  /** `heldUpfront`: body bytes already in memory when it starts (a whole body given to `send`). */
  private async deliver(response: ServerResponse, status: number, headers: OutgoingHttpHeaders, body: StreamedBody, heldUpfront: number): Promise<Delivery> {
    let bytesWritten = 0;
    let complete = false;
    if (!response.destroyed) {
      response.writeHead(status, body.bytes === undefined ? headers : { ...headers, 'content-length': body.bytes });
      const entry: InFlight = { response, held: heldUpfront };
      this.inFlight.add(entry);
      const account = this.options.account?.(response, { heldBytes: () => heldBy(entry), cut: () => void response.destroy() });
      try {
        // A HEAD answer has the headers of the GET and no body.
        if (response.req?.method !== 'HEAD') {
          for await (const piece of body.pieces()) {
            if (response.destroyed) break;
            if (heldUpfront === 0) entry.held = piece.length;
            bytesWritten += piece.length;
            const more = response.write(piece);
            entry.held -= piece.length;
            if (account && !account.charge()) break;
            if (!more && !(await this.drained(response))) break;
          }
        }
        if (!response.destroyed) {
          response.end();
          complete = await finished(response);
        }
      } catch (error) {
        response.destroy();
        throw error;
      } finally {
        this.inFlight.delete(entry);
        account?.release();
      }
    }
    const delivery: Delivery = { complete, bytesWritten, bodyBytes: body.bytes ?? bytesWritten };
    this.options.onDelivered?.(delivery);
    return delivery;
  }

  /** Waits for the response to take more (true) or for the client to leave or stall past sendIdleMs (false). */
  private async drained(response: ServerResponse): Promise<boolean> {
    const { sendIdleMs, clock } = this.options;
    if (sendIdleMs === undefined || !clock) return settleOn(response, 'drain');
    const cancel = clock.setTimer(sendIdleMs, () => response.destroy(), { weak: true });
    try {
      return await settleOn(response, 'drain');
    } finally {
      cancel();
    }
  }
}

/** What a response in flight holds for its client: the bytes in the writer's hands and in the socket's buffer. */
function heldBy(entry: InFlight): number {
  return entry.held + (entry.response.destroyed ? 0 : entry.response.writableLength);
}

/** Waits for the response to be handed to the socket in full (true) or the client to leave (false). */
function finished(response: ServerResponse): Promise<boolean> {
  if (response.writableFinished) return Promise.resolve(true);
  return settleOn(response, 'finish');
}

function settleOn(response: ServerResponse, event: 'drain' | 'finish'): Promise<boolean> {
  if (response.destroyed) return Promise.resolve(false);
  return new Promise((resolve) => {
    const onEvent = (): void => done(true);
    const onClose = (): void => done(false);
    const done = (value: boolean): void => {
      response.off(event, onEvent);
      response.off('close', onClose);
      resolve(value);
    };
    response.once(event, onEvent);
    response.once('close', onClose);
  });
}

import type { OutgoingHttpHeaders, ServerResponse } from 'node:http';

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

export interface ResponseWriterOptions {
  readonly chunkBytes?: number;
  /** Called when a response is done, either way (for logs and tests). */
  readonly onDelivered?: (delivery: Delivery) => void;
}

interface InFlight {
  readonly response: ServerResponse;
  /** Body bytes not handed to the socket yet. */
  unwritten: number;
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
    for (const entry of this.inFlight) total += entry.unwritten + (entry.response.destroyed ? 0 : entry.response.writableLength);
    return total;
  }

  /** Responses being written. */
  get responsesInFlight(): number {
    return this.inFlight.size;
  }

  /** Sends a whole response; resolves once it is handed to the socket or the client has left. */
  async send(response: ServerResponse, status: number, headers: OutgoingHttpHeaders, body: Buffer | string): Promise<Delivery> {
    const bytes = typeof body === 'string' ? Buffer.from(body, 'utf8') : body;
    let bytesWritten = 0;
    let complete = false;
    if (!response.destroyed) {
      response.writeHead(status, { ...headers, 'content-length': bytes.length });
      // A HEAD answer has the headers of the GET and no body.
      const payload = response.req?.method === 'HEAD' ? bytes.subarray(0, 0) : bytes;
      const entry: InFlight = { response, unwritten: payload.length };
      this.inFlight.add(entry);
      try {
        while (bytesWritten < payload.length && !response.destroyed) {
          const chunk = payload.subarray(bytesWritten, bytesWritten + this.chunkBytes);
          bytesWritten += chunk.length;
          entry.unwritten -= chunk.length;
          if (!response.write(chunk) && !(await drained(response))) break;
        }
        if (!response.destroyed) {
          response.end();
          complete = await finished(response);
        }
      } finally {
        this.inFlight.delete(entry);
      }
    }
    const delivery: Delivery = { complete, bytesWritten, bodyBytes: bytes.length };
    this.options.onDelivered?.(delivery);
    return delivery;
  }
}

/** Waits for the response to take more (true) or for the client to leave (false). */
function drained(response: ServerResponse): Promise<boolean> {
  return settleOn(response, 'drain');
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

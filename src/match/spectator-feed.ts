import { ByteLog } from '../util/byte-log.js';

/** Someone watching a match's spectator stream: a WebSocket, a TCP observer, a test. */
export interface SpectatorSink {
  /** Live bytes of the spectator stream. */
  data(bytes: Uint8Array): void;
  /** The stream is complete. */
  end(): void;
}

/**
 * The spectator stream of one match: everything written is kept (the history a late spectator
 * catches up with, and the record stored at the end) and forwarded to every live spectator.
 */
export class SpectatorFeed {
  private readonly log = new ByteLog();
  private readonly sinks = new Set<SpectatorSink>();
  private ended = false;

  write(data: string | Uint8Array): void {
    if (this.ended) return;
    if (data.length === 0) return;
    if (this.sinks.size === 0) return this.log.append(data);
    // Encoded once, for the log and for every live spectator.
    const chunk = typeof data === 'string' ? Buffer.from(data, 'utf8') : data;
    this.log.append(chunk);
    for (const sink of this.sinks) sink.data(chunk);
  }

  /** The whole stream so far as one buffer. */
  history(): Buffer {
    return this.log.toBuffer();
  }

  /**
   * Adds a live spectator. Returns the history up to this instant; every later write reaches the
   * sink, so history plus live data is the whole stream without gap or overlap. On a stream that
   * has already ended, `live` is false and the sink is never called.
   */
  subscribe(sink: SpectatorSink): { history: Buffer; live: boolean; unsubscribe: () => void } {
    const history = this.history();
    if (this.ended) return { history, live: false, unsubscribe: () => {} };
    this.sinks.add(sink);
    return { history, live: true, unsubscribe: () => this.sinks.delete(sink) };
  }

  end(): void {
    if (this.ended) return;
    this.ended = true;
    const sinks = [...this.sinks];
    this.sinks.clear();
    for (const sink of sinks) sink.end();
  }
}

import type { LiveSeats } from '../protocol/coco/messages.js';
import type { VisEvent, VisEventInput } from '../protocol/vis-event.js';
import type { VisError, VisLimits } from '../protocol/vis-limits.js';
import { type AcceptedVisEvent, VisValidator } from '../protocol/vis-validate.js';
import type { Result } from '../util/result.js';
import { VisLog, type SharedRuns } from './vis-log.js';

export interface VisSink {
  /**
   * The events before the subscription, as the text of one JSON array as the record keeps it
   * (`VisFeed.jsonBytes`): called once, before any `event`. Text, not objects, so that a viewer
   * who comes late to a long match costs no parse, and its history can be sent in slices as it is.
   */
  history(json: Buffer): void;
  event(event: VisEvent): void;
  /** The seats as they are now (their turns, who was closed): once on subscribing, then at each change. Optional: a sink may not show them. */
  seats?(seats: LiveSeats): void;
  end(): void;
}

export interface VisFeedOptions {
  readonly limits?: Partial<VisLimits>;
  /** Where the log keeps the runs of shapes it refers to: the server's one table by default (a test gives its own). */
  readonly sharedRuns?: SharedRuns;
  /** Told about each refused event (log it when serving; throw in tests to catch game bugs). */
  readonly onReject?: (error: VisError) => void;
  /**
   * Called before a viewer is given the events so far: a match whose events are derived when
   * wanted starts drawing here (match.ts), so the viewer's history and its live events are whole.
   */
  readonly beforeSubscribe?: () => void;
  /** The match's seats as they are now, for live viewers (`seatsChanged`); none by default. */
  readonly seatsNow?: () => LiveSeats;
}

/**
 * The visualizer events of one match: validated (protocol/vis-validate.ts), stamped with a time
 * that never decreases, kept for the record and forwarded to live web spectators.
 *
 * Events are kept as JSON text in a VisLog, not as objects: a long match has thousands of them,
 * and a server runs a thousand matches at once; text outside the heap is a fraction of the memory
 * and costs the garbage collector nothing. It is also the form the record is stored in. The log
 * keeps the prepared shapes of a game's events by reference, so that the events of a round cost a
 * few bytes each beyond their words and numbers; the text is put together when it is read.
 */
export class VisFeed {
  private readonly log: VisLog;
  private readonly sinks = new Set<VisSink>();
  private readonly validator: VisValidator;
  private ended = false;
  /** Events accepted so far: where a seat's turn falls among the pictures (seat-clocks.ts). */
  private accepted = 0;

  constructor(
    private readonly now: () => number,
    private readonly options: VisFeedOptions = {},
  ) {
    this.validator = new VisValidator(options.limits);
    this.log = new VisLog(options.sharedRuns);
  }

  /** A built-in game's event; without `t` it is stamped with the match time. Null when accepted. */
  emit(input: VisEventInput): VisError | null {
    if (this.ended) return null;
    // Without a live viewer the event is needed as text only, which costs less to check and write.
    if (this.sinks.size > 0) return this.accept(this.validator.acceptEvent(input, this.now()));
    const error = this.validator.acceptEventTo(input, this.now(), this.log);
    if (error === null) this.accepted++;
    return error === null ? null : this.reject(error);
  }

  /** An external game server's `vis` line (the text after `vis `, JSON or Hjson, `t` required). */
  emitLine(body: string): VisError | null {
    return this.ended ? null : this.accept(this.validator.acceptLine(body));
  }

  private accept(result: Result<AcceptedVisEvent, VisError>): VisError | null {
    if (!result.ok) return this.reject(result.error);
    this.accepted++;
    this.log.text(result.value.json);
    this.log.end();
    for (const sink of this.sinks) sink.event(result.value.event);
    return null;
  }

  private reject(error: VisError): VisError {
    this.options.onReject?.(error);
    return error;
  }

  /** How many events the feed has accepted (what the record holds, in order). */
  get count(): number {
    return this.accepted;
  }

  /** Bytes the feed keeps for its events (fewer than their JSON text: see VisLog). */
  get logBytes(): number {
    return this.log.compactLength;
  }

  /** The events so far. */
  all(): VisEvent[] {
    return JSON.parse(this.json()) as VisEvent[];
  }

  /** The events so far as the text of one JSON array, as the record keeps them. */
  json(): string {
    return this.jsonBytes().toString('utf8');
  }

  /** `json()` as UTF-8 bytes, in a buffer of its own (the record takes them as they are). */
  jsonBytes(): Buffer {
    const bytes = Buffer.allocUnsafeSlow(this.log.jsonLength + 2);
    bytes[0] = 0x5b; // [
    this.log.copyJsonTo(bytes, 1);
    bytes[bytes.length - 1] = 0x5d; // ]
    return bytes;
  }

  /**
   * The seats changed (a turn started or ended, a seat closed): each live viewer is told how they
   * are now. Nothing is built while nobody watches.
   */
  seatsChanged(): void {
    const seatsNow = this.options.seatsNow;
    if (this.ended || this.sinks.size === 0 || seatsNow === undefined) return;
    const seats = seatsNow();
    for (const sink of this.sinks) sink.seats?.(seats);
  }

  /** `historyJson` is the events so far as `jsonBytes()` gives them; `sink` gets every later one, and the seats as they are now. */
  subscribe(sink: VisSink): { historyJson: Buffer; live: boolean; unsubscribe: () => void } {
    if (!this.ended) this.options.beforeSubscribe?.();
    const historyJson = this.jsonBytes();
    if (this.ended) return { historyJson, live: false, unsubscribe: () => {} };
    this.sinks.add(sink);
    if (this.options.seatsNow && sink.seats) sink.seats(this.options.seatsNow());
    return { historyJson, live: true, unsubscribe: () => this.sinks.delete(sink) };
  }

  end(): void {
    if (this.ended) return;
    this.ended = true;
    const sinks = [...this.sinks];
    this.sinks.clear();
    for (const sink of sinks) sink.end();
  }
}

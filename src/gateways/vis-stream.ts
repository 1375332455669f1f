import type { VisSink } from '../match/vis-feed.js';
import { encodeVisEventsFrame } from '../protocol/coco/json-codec.js';
import type { LiveSeats, Reply } from '../protocol/coco/messages.js';
import { JsonArraySlicer } from '../protocol/json-array-slicer.js';
import type { VisEvent } from '../protocol/vis-event.js';
import type { ReplaySlot } from './replay-slots.js';

/** How visualizer events are cut and paced on their way to one client. */
export const VIS_STREAM_CHUNKS = {
  /** Visualizer events per VisEvents message. */
  batch: 500,
  /** A VisEvents message of a history ends at the first event boundary at or past this many bytes. */
  sliceBytes: 256 * 1024,
  /** The next slice of a history is sent once the client has at most this much unread. */
  lowWaterBytes: 64 * 1024,
  /**
   * Live events held while the history before them is still going out; a client that reads so
   * slowly that more pile up is dropped (as past outbound-max-bytes), not buffered without bound.
   */
  heldEvents: 50_000,
} as const;

/** What a stream needs of its connection. */
export interface VisOutput {
  reply(reply: Reply): void;
  /** Sends a text frame made elsewhere (a VisEvents reply spliced from stored text). */
  sendText(frame: Buffer): void;
  /** Resolves once the client has at most `bytes` unread; false when the connection has closed. */
  drainedTo(bytes: number): Promise<boolean>;
  /** The stream is over (VisEnded goes next): the connection takes requests again. */
  idle(): void;
  /** The client reads too slowly for the live events (heldEvents), or the history is not an array. */
  fail(why: 'slow-reader' | Error): void;
}

/**
 * The visualizer events one coco client subscribed to (VisSubscribe): first the history (a
 * finished match's stored events, or the events so far of a running one), sent as it is stored in
 * VisEvents slices, each only once the client has read most of the one before; then the live
 * events as they come, batched per turn; then VisEnded.
 *
 * The history is never parsed here: each slice's message is spliced from the stored text, so a
 * replay of a long match costs the main thread a copy and a scan per slice, not a decode and an
 * encode of the whole match at once (which blocked the server for a second per request).
 */
export class VisStream implements VisSink {
  private readonly histories: Buffer[] = [];
  private held: VisEvent[] = [];
  private sendingHistory = false;
  private flushScheduled = false;
  private feedEnded = false;
  private finished = false;
  private stopped = false;

  constructor(
    private readonly id: string,
    private readonly out: VisOutput,
    /** Held until the history has gone out. */
    private readonly slot: ReplaySlot,
  ) {}

  history(json: Buffer): void {
    if (this.stopped) return;
    this.histories.push(json);
    void this.sendHistories();
  }

  event(event: VisEvent): void {
    if (this.stopped) return;
    this.held.push(event);
    if (this.held.length > VIS_STREAM_CHUNKS.heldEvents) {
      this.stop();
      return this.out.fail('slow-reader');
    }
    if (this.sendingHistory || this.flushScheduled) return;
    this.flushScheduled = true;
    queueMicrotask(() => this.flushHeld());
  }

  /** The seats as they are now: sent at once (a page's clocks and statuses), between the history's slices if need be. */
  seats(seats: LiveSeats): void {
    if (this.stopped || this.finished) return;
    this.out.reply({ type: 'VisSeats', id: this.id, now: seats.now, seats: seats.seats });
  }

  end(): void {
    if (this.stopped) return;
    this.feedEnded = true;
    // After the events of this turn (their flush is a microtask queued before this one).
    if (!this.sendingHistory) queueMicrotask(() => this.finish());
  }

  /** The client left or the server stops: nothing more is sent, the replay's slot is given back. */
  stop(): void {
    this.stopped = true;
    this.histories.length = 0;
    this.held = [];
    this.slot.release();
  }

  private async sendHistories(): Promise<void> {
    if (this.sendingHistory) return;
    this.sendingHistory = true;
    try {
      while (this.histories.length > 0) {
        const json = this.histories.shift()!;
        const slicer = new JsonArraySlicer(json);
        for (;;) {
          if (!(await this.out.drainedTo(VIS_STREAM_CHUNKS.lowWaterBytes)) || this.stopped) return;
          const slice = slicer.next(VIS_STREAM_CHUNKS.batch, VIS_STREAM_CHUNKS.sliceBytes);
          if (slice === null) break;
          this.out.sendText(encodeVisEventsFrame(this.id, json.subarray(slice.start, slice.end)));
          // One slice a turn of the event loop, however fast the client reads: the matches and the
          // other connections run between two slices.
          await new Promise<void>((resolve) => setImmediate(resolve));
        }
      }
    } catch (error) {
      this.stop();
      return this.out.fail(error instanceof Error ? error : new Error(String(error)));
    } finally {
      this.sendingHistory = false;
    }
    if (this.stopped) return;
    this.slot.release();
    this.flushHeld();
    if (this.feedEnded) this.finish();
  }

  private flushHeld(): void {
    this.flushScheduled = false;
    if (this.stopped || this.sendingHistory) return;
    const events = this.held;
    this.held = [];
    for (let i = 0; i < events.length; i += VIS_STREAM_CHUNKS.batch) {
      this.out.reply({ type: 'VisEvents', id: this.id, events: events.slice(i, i + VIS_STREAM_CHUNKS.batch) });
    }
  }

  private finish(): void {
    if (this.finished || this.stopped) return;
    this.finished = true;
    this.flushHeld();
    this.slot.release();
    this.out.idle();
    this.out.reply({ type: 'VisEnded', id: this.id });
  }
}

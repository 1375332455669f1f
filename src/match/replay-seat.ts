import { LineQueue } from './line-queue.js';
import type { PlayerSeat, SeatCloseReason } from './seat.js';

/**
 * Why a seat's input ended when nothing else is known: the player's program went away. It is the
 * reason a played seat has by the time its game, having read the end, looks (match/seat.ts).
 */
export const PRESUMED_END_REASON: SeatCloseReason = 'disconnected';

/**
 * Lets a replay's reads go on in a later turn of the event loop every `every` lines read, across
 * its seats: a replay of a long record then holds the main thread for a slice at a time.
 */
export class ReadPacer {
  private read = 0;

  constructor(private readonly every: number) {}

  /** Whether this read waits for the next turn. */
  due(): boolean {
    return ++this.read % this.every === 0;
  }
}

/**
 * A seat of a replayed match (match/vis-replay.ts): it gives the game the lines the seat's game
 * read in the match that was played, in order, then the end; what the game writes goes nowhere.
 * There is no player, no timeout and no transcript: a line or the end comes only when pushed.
 * Once the game reads the end, the seat is closed for the reason the played seat had then (its
 * timeout, a bad line, ...), so a game that tells why a player left draws the same words.
 */
export class ReplaySeat implements PlayerSeat {
  private readonly input = new LineQueue((line) => {
    if (line !== null) this.onRead?.();
    else if (this.reason === null) this.reason = this.endReason;
  });
  private reason: SeatCloseReason | null = null;
  private endReason: SeatCloseReason = PRESUMED_END_REASON;

  constructor(
    readonly index: number,
    readonly name: string,
    readonly isBot: boolean,
    /** Told when the game takes a line (as a played seat tells its clock: match/seat-clocks.ts). */
    private readonly onRead: (() => void) | null = null,
    /** When reads wait for a later turn of the event loop, or null (never). */
    private readonly pacer: ReadPacer | null = null,
  ) {}

  get closed(): boolean {
    return this.reason !== null;
  }

  get closeReason(): SeatCloseReason | null {
    return this.reason;
  }

  /** The next line the played match's game read from this seat. */
  push(line: string): void {
    this.input.push(line);
  }

  /**
   * The played match's game read the end of this seat's input (or the match is over): no more
   * lines. `reason` is why the played seat was closed, if it was known.
   */
  end(reason: SeatCloseReason | null = null): void {
    if (reason !== null) this.endReason = reason;
    this.input.end();
  }

  readLine(): Promise<string | null> {
    if (this.pacer?.due()) return new Promise((resolve) => setImmediate(() => resolve(this.readNow())));
    return this.readNow();
  }

  takeLine(taker: (line: string | null) => void): void {
    if (this.pacer?.due()) setImmediate(() => this.takeNow(taker));
    else this.takeNow(taker);
  }

  private readNow(): Promise<string | null> {
    if (this.reason) return Promise.resolve(null);
    return this.input.next();
  }

  private takeNow(taker: (line: string | null) => void): void {
    if (this.reason) return taker(null);
    this.input.take(taker);
  }

  write(): void {}

  writeBytes(): void {}

  close(reason: SeatCloseReason = 'removed'): void {
    if (this.reason) return;
    this.reason = reason;
    this.input.close();
  }
}

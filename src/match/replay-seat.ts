import { LineQueue } from './line-queue.js';
import type { PlayerSeat, SeatCloseReason } from './seat.js';

/**
 * A seat of a replayed match (match/vis-replay.ts): it gives the game the lines the seat's game
 * read in the match that was played, in order, then the end; what the game writes goes nowhere.
 * There is no player, no timeout and no transcript: a line or the end comes only when pushed.
 */
export class ReplaySeat implements PlayerSeat {
  private readonly input = new LineQueue();
  private reason: SeatCloseReason | null = null;

  constructor(
    readonly index: number,
    readonly name: string,
    readonly isBot: boolean,
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

  /** The played match's game read the end of this seat's input (or the match is over): no more lines. */
  end(): void {
    this.input.end();
  }

  readLine(): Promise<string | null> {
    if (this.reason) return Promise.resolve(null);
    return this.input.next();
  }

  takeLine(taker: (line: string | null) => void): void {
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

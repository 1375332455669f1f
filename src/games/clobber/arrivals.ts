import type { PlayerSeat } from '../../match/seat.js';
import { parsePlayLine } from './notation.js';

/**
 * Reads every seat at once and merges their lines in arrival order.
 *
 * The 2006 protocol makes a line sent by the player who is not to move an offence ("move out of
 * turn"). Reading only the mover's seat would leave such a line unseen in its queue until that
 * player's next turn, where it would pass for a move. So each seat is read all the time, every
 * line gets a sequence number when it arrives, and each seat remembers the sequence number at the
 * moment the game last told it to move: a line from a seat that arrived before that prompt, or
 * from a seat that is not to move at all, was sent out of turn.
 */
export type Arrival =
  | { readonly seat: number; readonly seq: number; readonly line: string }
  /** The seat is gone (disconnected, closed for a bad line, or removed). */
  | { readonly seat: number; readonly seq: number; readonly line: null };

/**
 * Lines a seat may have waiting before one is judged. A well-behaved player never has more than
 * one; a player flooding while it is not being read is closed when it passes this.
 */
export const MAX_WAITING_LINES = 64;

export class Arrivals {
  private readonly waiting: Arrival[] = [];
  private readonly waitingPerSeat: number[];
  private readonly promptedAt: number[];
  private nextSeq = 0;
  private wake: (() => void) | null = null;

  constructor(seats: readonly PlayerSeat[]) {
    this.waitingPerSeat = seats.map(() => 0);
    this.promptedAt = seats.map(() => Number.POSITIVE_INFINITY);
    for (const seat of seats) void this.pump(seat);
  }

  /** Notes that `seat` was just told it is to move: its lines from now on may be moves. */
  prompted(seat: number): void {
    this.promptedAt[seat] = this.nextSeq;
  }

  /** Whether `arrival` came after its seat was last told to move. */
  inTurn(arrival: Arrival): boolean {
    return arrival.seq >= this.promptedAt[arrival.seat]!;
  }

  /**
   * Forgets the lines that are waiting (between games they answer nothing) and every prompt; a
   * seat that is gone stays gone.
   */
  reset(): void {
    const kept = this.waiting.filter((arrival) => arrival.line === null);
    this.waiting.length = 0;
    this.waiting.push(...kept);
    this.waitingPerSeat.fill(0);
    this.promptedAt.fill(Number.POSITIVE_INFINITY);
  }

  /**
   * The earliest arrival not yet taken, waiting for one if needed; 'timeout' when none came
   * within `seconds` (armed through `after`, the match's timer, so it dies with the match).
   */
  async next(seconds: number, after: (seconds: number, callback: () => void) => () => void): Promise<Arrival | 'timeout'> {
    if (this.waiting.length === 0) {
      const arrived = await new Promise<boolean>((resolve) => {
        // setTimeout fires at once for delays past 2^31 ms; a longer wait is no wait limit at all.
        const cancel = Number.isFinite(seconds) && seconds * 1000 < 2 ** 31
          ? after(seconds, () => {
              this.wake = null;
              resolve(false);
            })
          : () => {};
        this.wake = () => {
          this.wake = null;
          cancel();
          resolve(true);
        };
      });
      if (!arrived) return 'timeout';
    }
    const arrival = this.waiting.shift()!;
    if (arrival.line !== null) this.waitingPerSeat[arrival.seat]!--;
    else this.waiting.unshift(arrival); // a seat that is gone stays gone for every later read
    return arrival;
  }

  private async pump(seat: PlayerSeat): Promise<void> {
    let first = true;
    for (;;) {
      // The game keeps its own per-turn deadline; the seat's own timeout would close the seat,
      // but a timeout in clobber only loses the game at hand.
      const line = await seat.readLine({ timeoutSeconds: Number.POSITIVE_INFINITY });
      if (line === null) {
        this.add({ seat: seat.index, seq: this.nextSeq++, line: null });
        return;
      }
      if (first) {
        first = false;
        // Accepted and ignored whenever it arrives, so a 2006 client works through every door.
        if (parsePlayLine(line).ok) continue;
      }
      if (this.waitingPerSeat[seat.index]! >= MAX_WAITING_LINES) {
        seat.close('removed');
        continue; // the next read returns null and reports the seat gone
      }
      this.waitingPerSeat[seat.index]!++;
      this.add({ seat: seat.index, seq: this.nextSeq++, line });
    }
  }

  private add(arrival: Arrival): void {
    this.waiting.push(arrival);
    this.wake?.();
  }
}

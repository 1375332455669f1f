import { recallDecision } from '../../match/decision-log.js';
import type { MatchContext } from '../../match/game.js';
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
  /** `inTurn`: the line came after its seat was last told to move. */
  | { readonly seat: number; readonly line: string; readonly inTurn: boolean }
  /** The seat is gone (disconnected, closed for a bad line, or removed). */
  | { readonly seat: number; readonly line: null };

/**
 * How the game reads its two seats: by arrival when played (Arrivals), and in a replay of the
 * match, which only has each seat's lines, in the order the played game's decisions say
 * (RecalledArrivals).
 */
export interface ArrivalOrder {
  /** Notes that `seat` was just told it is to move: its lines from now on may be moves. */
  prompted(seat: number): void;
  /**
   * Forgets the lines that are waiting (between games they answer nothing) and every prompt; a
   * seat that is gone stays gone.
   */
  reset(): Promise<void>;
  /**
   * The earliest arrival not yet taken, waiting for one if needed; 'timeout' when none came
   * within `seconds` (armed through `after`, the match's timer, so it dies with the match).
   */
  next(seconds: number, after: MatchContext['after']): Promise<Arrival | 'timeout'>;
}

/** The match's arrivals: recalled in a replay, read as they come when played (and noted when the match keeps notes). */
export function arrivalsFor(ctx: MatchContext): ArrivalOrder {
  return ctx.recall ? new RecalledArrivals(ctx.seats, ctx.recall) : new Arrivals(ctx.seats, ctx.note ?? null);
}

/**
 * What the played game decided (MatchContext.note), as the record keeps it: each arrival taken as
 * 0 for a timeout, else 1 + 3 x seat + (0 a line in turn, 1 a line out of turn, 2 the seat gone);
 * each reset as the number of lines it dropped from each seat, in seat order.
 */
const TIMEOUT_DECISION = 0;
const KINDS = 3;
const IN_TURN = 0;
const OUT_OF_TURN = 1;
const GONE = 2;

function arrivalDecision(arrival: Arrival): number {
  const kind = arrival.line === null ? GONE : arrival.inTurn ? IN_TURN : OUT_OF_TURN;
  return 1 + KINDS * arrival.seat + kind;
}

/**
 * Lines a seat may have waiting before one is judged. A well-behaved player never has more than
 * one; a player flooding while it is not being read is closed when it passes this.
 */
export const MAX_WAITING_LINES = 64;

interface Waiting {
  readonly seat: number;
  readonly seq: number;
  readonly line: string | null;
}

export class Arrivals implements ArrivalOrder {
  private readonly waiting: Waiting[] = [];
  private readonly waitingPerSeat: number[];
  private readonly promptedAt: number[];
  private nextSeq = 0;
  private wake: (() => void) | null = null;

  constructor(
    seats: readonly PlayerSeat[],
    /** Where each decision is noted for the record (MatchContext.note), or null. */
    private readonly note: ((decision: number) => void) | null = null,
  ) {
    this.waitingPerSeat = seats.map(() => 0);
    this.promptedAt = seats.map(() => Number.POSITIVE_INFINITY);
    for (const seat of seats) void this.pump(seat);
  }

  prompted(seat: number): void {
    this.promptedAt[seat] = this.nextSeq;
  }

  reset(): Promise<void> {
    const kept = this.waiting.filter((arrival) => arrival.line === null);
    this.waiting.length = 0;
    this.waiting.push(...kept);
    if (this.note) for (const dropped of this.waitingPerSeat) this.note(dropped);
    this.waitingPerSeat.fill(0);
    this.promptedAt.fill(Number.POSITIVE_INFINITY);
    return Promise.resolve();
  }

  async next(seconds: number, after: MatchContext['after']): Promise<Arrival | 'timeout'> {
    const arrival = await this.take(seconds, after);
    this.note?.(arrival === 'timeout' ? TIMEOUT_DECISION : arrivalDecision(arrival));
    return arrival;
  }

  private async take(seconds: number, after: MatchContext['after']): Promise<Arrival | 'timeout'> {
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
    const { seat, seq, line } = this.waiting.shift()!;
    if (line === null) {
      this.waiting.unshift({ seat, seq, line }); // a seat that is gone stays gone for every later read
      return { seat, line };
    }
    this.waitingPerSeat[seat]!--;
    return { seat, line, inTurn: seq >= this.promptedAt[seat]! };
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

  private add(arrival: Waiting): void {
    this.waiting.push(arrival);
    this.wake?.();
  }
}

/**
 * The arrivals of a replayed match: each seat gives the lines the played game read from it, and
 * the played game's decisions say whose came next, whether it was in turn, and how many lines
 * each reset dropped. Lines are read from a seat only when taken or dropped, so the clock places
 * an answer where the played game took it. No timer: a timeout is a decision.
 */
export class RecalledArrivals implements ArrivalOrder {
  /** Whether each seat's first line was read (a first "play" line is skipped, as when played). */
  private readonly firstRead: boolean[];

  constructor(
    private readonly seats: readonly PlayerSeat[],
    private readonly recall: () => Promise<number | null>,
  ) {
    this.firstRead = seats.map(() => false);
  }

  prompted(): void {}

  async reset(): Promise<void> {
    for (let seat = 0; seat < this.seats.length; seat++) {
      for (let dropped = await recallDecision(this.recall, 'clobber'); dropped > 0; dropped--) await this.lineOf(seat);
    }
  }

  async next(): Promise<Arrival | 'timeout'> {
    const decision = await recallDecision(this.recall, 'clobber');
    if (decision === TIMEOUT_DECISION) return 'timeout';
    const seat = Math.floor((decision - 1) / KINDS);
    const kind = (decision - 1) % KINDS;
    if (seat >= this.seats.length) throw new Error(`clobber: a decision names seat ${seat}`);
    if (kind === GONE) return { seat, line: null };
    const line = await this.lineOf(seat);
    if (line === null) throw new Error(`clobber: seat ${seat} has no line left where the match took one`);
    return { seat, line, inTurn: kind === IN_TURN };
  }

  private async lineOf(index: number): Promise<string | null> {
    const seat = this.seats[index]!;
    for (;;) {
      const line = await seat.readLine();
      if (line !== null && !this.firstRead[index]) {
        this.firstRead[index] = true;
        if (parsePlayLine(line).ok) continue;
      }
      return line;
    }
  }
}

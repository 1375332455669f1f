/**
 * Each seat's turns over a match: when the game asked it to move, within what limit, and when its
 * answer came. The game says when a seat is to move (`MatchContext.toMove`); the runtime closes the
 * turn when the game takes the seat's next line. Kept with the record as the artifact
 * `clock.json` (CLOCK_RECORD), so that the match page shows each seat's time left at every step,
 * from the server's times, as lichess shows its clocks.
 *
 * The record (version 1), times in seconds since the match started (the transcripts' scale),
 * rounded to the millisecond:
 *
 *     {"version":1,"ended":12.5,"seats":[{"turns":[[0.01,1.52,30,4,4],[3.1,null,30,9,null]],"dropped":0}, ...]}
 *
 * A turn is `[asked, answered, limit, eventsBeforeAsk, eventsBeforeAnswer]`: `answered` is null
 * when the seat never answered it (it timed out, left, or the match ended first); `limit` is the
 * seconds the seat had for that move (null: no limit); the last two say how many of the match's
 * visualizer events had been emitted when it was asked and when it answered, which places the turn
 * among the pictures whatever time scale a game draws on (several draw on a logical one). A seat past CLOCK_RECORD.maxTurnsPerSeat turns keeps its first ones and counts
 * the rest in `dropped`. Older records have no `clock.json`: their pages show no clock; nor do
 * matches of a game whose pictures are derived from its input (roshambo, royalur, dama), whose record keeps none.
 */
export const CLOCK_RECORD = {
  /** The artifact's name in the record. */
  artifact: 'clock.json',
  /** The record's format; a reader ignores a version it does not know. */
  version: 1,
  /** Turns kept per seat (about 25 bytes each): a long match's clock stays under half a megabyte per seat. */
  maxTurnsPerSeat: 20_000,
} as const;

type Turn = [asked: number, answered: number | null, limit: number | null];
/** A turn as the record keeps it: with how many of the match's visualizer events came before its ask and its answer. */
type RecordTurn = [asked: number, answered: number | null, limit: number | null, eventsBeforeAsk: number, eventsBeforeAnswer: number | null];

interface SeatTurns {
  /** The turns kept for the record (at most CLOCK_RECORD.maxTurnsPerSeat). */
  readonly turns: RecordTurn[];
  /** The seat's latest turn, kept apart and changed in place: what a live viewer is told. */
  readonly latest: Turn;
  asked: boolean;
  /** Whether the latest turn still waits for the seat's answer. */
  open: boolean;
  /** The record's entry of the open turn, if it has one. */
  openRecord: RecordTurn | null;
  dropped: number;
}

export interface SeatClocksOptions {
  /** Told when a turn starts or ends (the live page's seats: VisSeats). */
  readonly onChange?: () => void;
  /**
   * Whether the turns are kept for the record (default true). A game whose pictures are derived
   * from its input has them on a time scale of their own, where a page cannot place its clocks:
   * only each seat's latest turn is kept then, for live viewers, with no allocation per turn.
   */
  readonly keepTurns?: boolean;
  /** How many visualizer events the match has emitted so far (VisFeed.count): where each turn falls among its pictures. */
  readonly visEvents?: () => number;
}

export class SeatClocks {
  private readonly seats: SeatTurns[];
  private used = false;
  private readonly onChange: (() => void) | null;
  private readonly keepTurns: boolean;
  private readonly visEvents: () => number;

  constructor(
    seats: number,
    /** Seconds since the match started. */
    private readonly now: () => number,
    options: SeatClocksOptions = {},
  ) {
    this.onChange = options.onChange ?? null;
    this.keepTurns = options.keepTurns ?? true;
    this.visEvents = options.visEvents ?? (() => 0);
    this.seats = Array.from({ length: seats }, () => ({ turns: [], latest: [0, null, null], asked: false, open: false, openRecord: null, dropped: 0 }));
  }

  /**
   * The game asks `seat` to move within `limitSeconds` (Infinity or NaN: no limit). Call it before
   * reading the seat's answer: a line already waiting is taken at once and ends the turn. A seat
   * asked again before it answered (a game of a series ended while it was to move) has its earlier
   * turn end unanswered, and a new one start.
   */
  toMove(seat: number, limitSeconds: number): void {
    const state = this.seats[seat];
    if (state === undefined) return;
    this.used = true;
    const asked = round(this.now());
    const limit = Number.isFinite(limitSeconds) ? round(limitSeconds) : null;
    state.latest[0] = asked;
    state.latest[1] = null;
    state.latest[2] = limit;
    state.asked = true;
    state.open = true;
    state.openRecord = null;
    if (this.keepTurns) {
      if (state.turns.length >= CLOCK_RECORD.maxTurnsPerSeat) state.dropped++;
      else state.turns.push((state.openRecord = [asked, null, limit, this.visEvents(), null]));
    }
    this.onChange?.();
  }

  /** The game took a line from `seat`: its turn, if one was open, ends now. */
  moved(seat: number): void {
    const state = this.seats[seat];
    if (state === undefined || !state.open) return;
    const answered = round(this.now());
    state.open = false;
    state.latest[1] = answered;
    if (state.openRecord !== null) {
      state.openRecord[1] = answered;
      state.openRecord[4] = this.visEvents();
    }
    state.openRecord = null;
    this.onChange?.();
  }

  /** The seat's latest turn (a copy), or null before its first. */
  latest(seat: number): [asked: number, answered: number | null, limit: number | null] | null {
    const state = this.seats[seat];
    return state === undefined || !state.asked ? null : [...state.latest];
  }

  /** The record's text, or null when the game never said a seat was to move or the turns are not kept (no clock to show). */
  json(): string | null {
    if (!this.used || !this.keepTurns) return null;
    return JSON.stringify({
      version: CLOCK_RECORD.version,
      ended: round(this.now()),
      seats: this.seats.map(({ turns, dropped }) => ({ turns, dropped })),
    });
  }
}

function round(seconds: number): number {
  return Math.round(seconds * 1000) / 1000;
}

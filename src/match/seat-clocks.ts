/**
 * Each seat's turns over a match: when the game asked it to move, within what limit, and when its
 * answer came. The game says when a seat is to move (`MatchContext.toMove`); the runtime closes the
 * turn when the game takes the seat's next line. Kept with the record as the artifact
 * `clock.json` (CLOCK_RECORD), so that the match page shows each seat's time left at every step,
 * from the server's times, as lichess shows its clocks.
 *
 * The record (version 1), times in seconds since the match started (the scale of the visualizer
 * events' `t` and the transcripts' stamps), rounded to the millisecond:
 *
 *     {"version":1,"ended":12.5,"vis_times":true,"seats":[{"turns":[[0.01,1.52,30],[3.1,null,30]],"dropped":0}, ...]}
 *
 * A turn is `[asked, answered, limit]`: `answered` is null when the seat never answered it (it
 * timed out, left, or the match ended first); `limit` is the seconds the seat had for that move
 * (null: no limit). A seat past CLOCK_RECORD.maxTurnsPerSeat turns keeps its first ones and counts
 * the rest in `dropped`. Older records have no `clock.json`: their pages show no clock.
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

interface SeatTurns {
  readonly turns: Turn[];
  /** The turn still waiting for the seat's answer, if any. */
  open: Turn | null;
  dropped: number;
}

export class SeatClocks {
  private readonly seats: SeatTurns[];
  private used = false;

  constructor(
    seats: number,
    /** Seconds since the match started. */
    private readonly now: () => number,
    /** Told when a turn starts or ends (the live page's seats: VisSeats). */
    private readonly onChange: (() => void) | null = null,
  ) {
    this.seats = Array.from({ length: seats }, () => ({ turns: [], open: null, dropped: 0 }));
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
    state.open = null;
    this.used = true;
    if (state.turns.length >= CLOCK_RECORD.maxTurnsPerSeat) {
      state.dropped++;
      return;
    }
    const turn: Turn = [round(this.now()), null, Number.isFinite(limitSeconds) ? round(limitSeconds) : null];
    state.turns.push(turn);
    state.open = turn;
    this.onChange?.();
  }

  /** The game took a line from `seat`: its turn, if one was open, ends now. */
  moved(seat: number): void {
    const state = this.seats[seat];
    if (state?.open == null) return;
    state.open[1] = round(this.now());
    state.open = null;
    this.onChange?.();
  }

  /** The seat's latest turn kept (a copy), or null before its first. */
  latest(seat: number): [asked: number, answered: number | null, limit: number | null] | null {
    const turns = this.seats[seat]?.turns;
    const last = turns?.[turns.length - 1];
    return last === undefined ? null : [...last];
  }

  /**
   * The record's text, or null when the game never said a seat was to move (no clock to show).
   * `visTimes` says whether the match's visualizer events are stamped with the match's time (false
   * for a game whose events are derived from its input, on a time scale of their own): a page then
   * shows the clock by the pictures' times only when they are.
   */
  json(visTimes = true): string | null {
    if (!this.used) return null;
    return JSON.stringify({
      version: CLOCK_RECORD.version,
      ended: round(this.now()),
      vis_times: visTimes,
      seats: this.seats.map(({ turns, dropped }) => ({ turns, dropped })),
    });
  }
}

function round(seconds: number): number {
  return Math.round(seconds * 1000) / 1000;
}

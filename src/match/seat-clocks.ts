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
 * among the pictures whatever time scale a game draws on (several draw on a logical one). A seat
 * past CLOCK_RECORD.maxTurnsPerSeat turns keeps its first ones and counts the rest in `dropped`.
 * Older records have no `clock.json`: their pages show no clock.
 *
 * A game whose pictures are derived from its input (GameDefinition.visFromInput: roshambo, royalur,
 * dama) draws nothing while it plays, so its turns cannot be placed then: its record keeps them
 * unplaced, `[asked, answered, limit]` (placement 'replay'), and the replay that derives its
 * pictures places them (TurnPlaces: the game says who is to move and takes their lines in the
 * replay as it did in the match) before a reader sees the record (store/derived-vis-store.ts, or
 * the match itself when a live viewer's replay drew it). A reader of version 1 that meets an
 * unplaced turn skips it: it shows no clock rather than a wrong one.
 */
export const CLOCK_RECORD = {
  /** The artifact's name in the record. */
  artifact: 'clock.json',
  /** The record's format; a reader ignores a version it does not know. */
  version: 1,
  /** Turns kept per seat (about 25 bytes each): a long match's clock stays under half a megabyte per seat. */
  maxTurnsPerSeat: 20_000,
} as const;

/**
 * Where a turn is placed among the pictures: by the visualizer events emitted so far ('events', a
 * game that draws as it plays), or later, by a replay of the game ('replay', a game whose pictures
 * are derived from its input).
 */
export type TurnPlacement = 'events' | 'replay';

/**
 * Numbers kept per turn (NaN: null): asked, answered, limit, and for placement 'events'
 * eventsBeforeAsk and eventsBeforeAnswer. An unplaced turn keeps its three: a roshambo match of
 * 200 rounds holds 400 turns while it plays, and waits for its record with them.
 */
const SLOTS: Readonly<Record<TurnPlacement, number>> = { events: 5, replay: 3 };

interface SeatTurns {
  /** The turns kept for the record (at most CLOCK_RECORD.maxTurnsPerSeat), SLOTS numbers each: no object per turn. */
  readonly turns: number[];
  /** The seat's latest turn, kept apart and changed in place: what a live viewer is told. */
  readonly latest: [asked: number, answered: number | null, limit: number | null];
  asked: boolean;
  /** Whether the latest turn still waits for the seat's answer. */
  open: boolean;
  /** Where the open turn starts in `turns`, or -1 when the record does not keep it. */
  openAt: number;
  dropped: number;
}

export interface SeatClocksOptions {
  /** Told when a turn starts or ends (the live page's seats: VisSeats). */
  readonly onChange?: () => void;
  /** Where turns are placed among the pictures (default 'events'). */
  readonly placement?: TurnPlacement;
  /** How many visualizer events the match has emitted so far (VisFeed.count): where each turn falls among its pictures. */
  readonly visEvents?: () => number;
}

export class SeatClocks {
  private readonly seats: SeatTurns[];
  private used = false;
  private readonly onChange: (() => void) | null;
  private readonly placement: TurnPlacement;
  private readonly slots: number;
  private readonly visEvents: () => number;

  constructor(
    seats: number,
    /** Seconds since the match started. */
    private readonly now: () => number,
    options: SeatClocksOptions = {},
  ) {
    this.onChange = options.onChange ?? null;
    this.placement = options.placement ?? 'events';
    this.slots = SLOTS[this.placement];
    this.visEvents = options.visEvents ?? (() => 0);
    this.seats = Array.from({ length: seats }, () => ({ turns: [], latest: [0, null, null], asked: false, open: false, openAt: -1, dropped: 0 }));
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
    state.openAt = -1;
    if (state.turns.length >= CLOCK_RECORD.maxTurnsPerSeat * this.slots) state.dropped++;
    else {
      state.openAt = state.turns.length;
      if (this.placement === 'events') state.turns.push(asked, Number.NaN, limit ?? Number.NaN, this.visEvents(), Number.NaN);
      else state.turns.push(asked, Number.NaN, limit ?? Number.NaN);
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
    if (state.openAt !== -1) {
      state.turns[state.openAt + 1] = answered;
      if (this.placement === 'events') state.turns[state.openAt + 4] = this.visEvents();
    }
    state.openAt = -1;
    this.onChange?.();
  }

  /** The seat's latest turn (a copy), or null before its first. */
  latest(seat: number): [asked: number, answered: number | null, limit: number | null] | null {
    const state = this.seats[seat];
    return state === undefined || !state.asked ? null : [...state.latest];
  }

  /**
   * The record's text, or null when the game never said a seat was to move (no clock to show).
   * Written as text from the flat numbers (JSON.stringify's text: a finite number as String gives
   * it, anything else (NaN) as null), not through an array per turn.
   */
  json(): string | null {
    if (!this.used) return null;
    let text = `{"version":${CLOCK_RECORD.version},"ended":${round(this.now())},"seats":[`;
    this.seats.forEach(({ turns, dropped }, index) => {
      text += `${index === 0 ? '' : ','}{"turns":[`;
      for (let at = 0; at < turns.length; at += this.slots) {
        text += at === 0 ? '[' : ',[';
        for (let slot = 0; slot < this.slots; slot++) {
          const value = turns[at + slot]!;
          text += `${slot === 0 ? '' : ','}${Number.isFinite(value) ? value : 'null'}`;
        }
        text += ']';
      }
      text += `],"dropped":${dropped}}`;
    });
    return `${text}]}`;
  }
}

/**
 * Where each seat's turns fall among the pictures of a replayed game whose pictures are derived
 * from its input (match/vis-replay.ts): the replay says who is to move and takes their lines as
 * the played game did, in the same order, so its n-th turn of a seat is the match's n-th; the
 * events it has drawn by then place it. `place` then completes the match's unplaced record.
 */
export class TurnPlaces {
  /** Per seat, two numbers a turn: events before its ask, before its answer (NaN: not answered). */
  private readonly seats: { readonly places: number[]; openAt: number }[];

  constructor(
    seats: number,
    /** How many visualizer events the replay has drawn so far. */
    private readonly visEvents: () => number,
  ) {
    this.seats = Array.from({ length: seats }, () => ({ places: [], openAt: -1 }));
  }

  /** The replayed game asks `seat` to move. */
  toMove(seat: number): void {
    const state = this.seats[seat];
    if (state === undefined) return;
    state.openAt = -1;
    if (state.places.length >= CLOCK_RECORD.maxTurnsPerSeat * 2) return;
    state.openAt = state.places.length;
    state.places.push(this.visEvents(), Number.NaN);
  }

  /** The replayed game took a line from `seat`. */
  moved(seat: number): void {
    const state = this.seats[seat];
    if (state === undefined || state.openAt === -1) return;
    state.places[state.openAt + 1] = this.visEvents();
    state.openAt = -1;
  }

  /**
   * The match's clock record (`json` of SeatClocks with placement 'replay') with each turn placed:
   * the version 1 record a game drawn as it plays keeps. A turn the replay did not see (it
   * failed) stays unplaced, which a reader skips. Null when the text is not such a record.
   */
  place(clockJson: string): string | null {
    let value: unknown;
    try {
      value = JSON.parse(clockJson);
    } catch {
      return null;
    }
    const seats = (value as { seats?: unknown } | null)?.seats;
    if (!Array.isArray(seats)) return null;
    seats.forEach((seat: { turns?: unknown } | null, index) => {
      const turns = seat?.turns;
      const places = this.seats[index]?.places ?? [];
      if (!Array.isArray(turns)) return;
      turns.forEach((turn: unknown, n) => {
        if (!Array.isArray(turn) || turn.length !== 3 || 2 * n >= places.length) return;
        const beforeAsk = places[2 * n]!;
        const beforeAnswer = places[2 * n + 1]!;
        // A turn the match saw answered is answered in the replay too; should it not be, the answer is placed at the ask.
        turn.push(beforeAsk, turn[1] === null ? null : Number.isNaN(beforeAnswer) ? beforeAsk : beforeAnswer);
      });
    });
    return JSON.stringify(value);
  }
}

function round(seconds: number): number {
  return Math.round(seconds * 1000) / 1000;
}

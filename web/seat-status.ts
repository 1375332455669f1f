/**
 * Each seat's status at each step of a match, as Kaggle's viewer shows it beside every agent (ACTIVE,
 * DONE, TIMEOUT, ERROR): derived from what the record already says, with no new server field.
 * Pure, so that it is tested under Node.
 *
 * Two sources, each with a time on the match's clock (the clock the visualizer events use):
 * - the seats' transcripts (artifacts `transcript-<seat>.txt`), whose `#` lines are the runtime's
 *   notes on the seat: `the seat was closed: timeout`, `the seat was closed: line/too-long`,
 *   `the player closed its end (disconnected or exited)`, `the match is over`;
 * - the result's reason, for what a game decides itself without closing the seat (chess counts its
 *   own time: "ann wins: bob did not move in time"); it applies at the end of the match.
 *
 * The server sees a connection close, not an exit status: a program that closed its end while the
 * game still needed it (the game then read the end, and closed the seat as `disconnected`) is
 * `crashed`, as cutechess-cli and the tournaments count it; one that closed its end and was never
 * asked again is `left`.
 */

export const SEAT_STATUSES = ['ok', 'timeout', 'error', 'crashed', 'left'] as const;
export type SeatStatus = (typeof SEAT_STATUSES)[number];

/** The words the page shows for each status. */
export const STATUS_LABEL: Readonly<Record<SeatStatus, string>> = {
  ok: 'ok',
  timeout: 'timed out',
  error: 'error',
  crashed: 'crashed',
  left: 'left',
};

/** What happened to one seat at one time of the match. */
export interface SeatEvent {
  readonly seat: number;
  /** Seconds since the match started; Infinity: at the end of the match. */
  readonly t: number;
  readonly status: SeatStatus;
  /** Why, in the record's own words. */
  readonly why: string;
}

/** A seat's status at some moment, with why (empty for `ok`). */
export interface SeatState {
  readonly status: SeatStatus;
  readonly why: string;
}

/** The closing reasons of a seat (SeatCloseReason on the server) that are the player's fault, and what they mean. */
const CLOSURE_STATUS: Readonly<Record<string, SeatStatus>> = {
  timeout: 'timeout',
  disconnected: 'crashed',
  flood: 'error',
  removed: 'error',
  'line/too-long': 'error',
  'line/invalid-utf8': 'error',
};

const CLOSED = /^the seat was closed: (\S+)/;
const CLOSED_ITS_END = /^the player closed its end/;
/** A transcript line: its time (seconds, 3 decimals), its kind, its text. */
const TRANSCRIPT_LINE = /^(-?\d+(?:\.\d+)?) ([<>#]) (.*)$/;

/**
 * The events of seat `seat` in its transcript's text. A seat closed for timeout or a bad line is
 * that status from then on; a program that closed its end is `left`, or `crashed` once the game
 * found it gone (the closure `disconnected` that follows).
 */
export function transcriptEvents(seat: number, text: string): SeatEvent[] {
  const events: SeatEvent[] = [];
  for (const line of text.split('\n')) {
    const m = TRANSCRIPT_LINE.exec(line);
    if (!m || m[2] !== '#') continue;
    const t = Number(m[1]);
    const note = m[3]!;
    if (CLOSED_ITS_END.test(note)) {
      events.push({ seat, t, status: 'left', why: 'its program closed the connection (exited or disconnected)' });
      continue;
    }
    const closed = CLOSED.exec(note);
    const status = closed ? CLOSURE_STATUS[closed[1]!] : undefined;
    if (status !== undefined) events.push({ seat, t, status, why: closureWords(closed![1]!) });
  }
  return events;
}

/**
 * A seat's state from why the runtime closed it (the live page's VisSeats), before any record: the
 * player's fault as in a transcript's note; not closed, or closed for the match's end or the
 * server's shutdown, is `ok`.
 */
export function closureState(reason: string | null): SeatState {
  const status = reason === null ? undefined : CLOSURE_STATUS[reason];
  return status === undefined ? { status: 'ok', why: '' } : { status, why: closureWords(reason!) };
}

function closureWords(reason: string): string {
  switch (reason) {
    case 'timeout':
      return 'did not answer in time';
    case 'disconnected':
      return 'its program ended (exited, crashed or disconnected) while the game waited for it';
    case 'flood':
      return 'sent more than the server keeps unread';
    case 'removed':
      return 'was removed by the game (an invalid or illegal move)';
    case 'line/too-long':
      return 'sent a line that is too long';
    case 'line/invalid-utf8':
      return 'sent bytes that are not UTF-8';
    default:
      return reason;
  }
}

/**
 * What the result's reason says of a seat, by the phrases the games use right after a player's
 * name ("bob did not move in time", "Player 2 ran out of time", "ann disconnected"). Games name a
 * seat by its player's name, external games as "Player N"; a name is matched whole, followed by a
 * space.
 */
const REASON_PHRASES: readonly { readonly pattern: RegExp; readonly status: SeatStatus }[] = [
  { pattern: /^(?:did not (?:move|answer|play) in time|timed out|ran out of time|was too slow|did not answer)/, status: 'timeout' },
  { pattern: /^(?:disconnected|crashed|exited|left|was not ready|did not start)/, status: 'crashed' },
  {
    pattern: /^(?:sent (?:an? )?(?:illegal|invalid|unreadable|bad)|sent bytes that are not UTF-8|sent more than|made an illegal|made an invalid|played an illegal|broke the protocol|was removed)/,
    status: 'error',
  },
];

export function reasonEvents(players: readonly string[], reason: string): SeatEvent[] {
  const events: SeatEvent[] = [];
  players.forEach((name, seat) => {
    for (const alias of new Set([name, `Player ${seat + 1}`])) {
      if (alias === '') continue;
      let from = 0;
      for (;;) {
        const at = reason.indexOf(`${alias} `, from);
        if (at === -1) break;
        from = at + 1;
        // The name whole: not the end of a longer word ("Player 12" is not "Player 1" and more).
        if (at > 0 && /[\p{L}\p{N}_$]/u.test(reason[at - 1]!)) continue;
        const rest = reason.slice(at + alias.length + 1);
        const phrase = REASON_PHRASES.find((p) => p.pattern.test(rest));
        if (phrase) {
          const why = rest.split(/[;,(]/, 1)[0]!.trim();
          events.push({ seat, t: Infinity, status: phrase.status, why });
          return;
        }
      }
    }
  });
  return events;
}

/**
 * The statuses of the seats over the match. A seat is `ok` until its first event; the first
 * status other than `left` is kept (a seat that timed out and was then closed stays timed out),
 * and `left` turns into `crashed` when the game then found the program gone.
 */
export class SeatStatusTimeline {
  private readonly events: readonly SeatEvent[];

  constructor(
    private readonly seats: number,
    events: readonly SeatEvent[],
  ) {
    this.events = [...events].sort((a, b) => a.t - b.t);
  }

  /** Whether any seat is ever other than `ok`. */
  get eventful(): boolean {
    return this.events.length > 0;
  }

  /** Each seat's state at time t (`atEnd`: the last step, where every event counts). */
  at(t: number, atEnd = false): SeatState[] {
    const states: SeatState[] = Array.from({ length: this.seats }, () => ({ status: 'ok', why: '' }));
    for (const event of this.events) {
      if (!atEnd && event.t > t) break;
      if (event.seat < 0 || event.seat >= this.seats) continue;
      const now = states[event.seat]!;
      if (now.status === 'ok' || (now.status === 'left' && event.status !== 'left')) states[event.seat] = { status: event.status, why: event.why };
    }
    return states;
  }
}

/** The timeline of a finished match: its transcripts' texts by seat (missing ones skipped) and its reason. */
export function seatStatusTimeline(players: readonly string[], reason: string, transcripts: readonly (string | null)[]): SeatStatusTimeline {
  const events = transcripts.flatMap((text, seat) => (text === null ? [] : transcriptEvents(seat, text)));
  const fromReason = reasonEvents(players, reason).filter((event) => !events.some((e) => e.seat === event.seat && e.status === event.status));
  return new SeatStatusTimeline(players.length, [...events, ...fromReason]);
}

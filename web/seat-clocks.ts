import { looseRecord as record } from '../src/protocol/loose-json.js';

/**
 * Each seat's clock at each step of a replay, from the record's `clock.json` (written by
 * src/match/seat-clocks.ts: per seat, its turns as `[asked, answered, limit, eventsBeforeAsk,
 * eventsBeforeAnswer]`, times in seconds of the match). As lichess shows a game's moves: the seat
 * to move is marked with the time it has for the move; every other seat shows what it had left
 * when it last answered; at the end, a seat that never answered shows what was left when its turn
 * ended (0.0 when it ran out). A turn is placed among the pictures by how many visualizer events
 * came before it, not by the pictures' times: several games draw on a time scale of their own.
 * A game whose pictures are derived from its input keeps its turns unplaced (`[asked, answered,
 * limit]`) and the server places them among the derived events before sending the artifact; a turn
 * still unplaced is skipped here, never guessed.
 * Pure, so that it is tested under Node. Times come from the record (the server's clock).
 */
export const CLOCK_ARTIFACT = 'clock.json';
/** The record versions this reader knows; a later one shows no clock rather than a wrong one. */
const KNOWN_VERSIONS = new Set([1]);

export interface ClockTurn {
  readonly asked: number;
  /** When the seat's answer came; null if it never came (timed out, left, the match ended). */
  readonly answered: number | null;
  /** Seconds the seat had for this move; null: no limit. */
  readonly limit: number | null;
  /** How many of the match's visualizer events had been drawn when it was asked, and when it answered. */
  readonly eventsBeforeAsk: number;
  readonly eventsBeforeAnswer: number | null;
}

export interface ClockRecord {
  /** When the game ended, in match seconds: a turn still open then stops there. */
  readonly ended: number;
  readonly seats: readonly (readonly ClockTurn[])[];
}

export interface SeatClock {
  /** Seconds left of the current (or the latest) move's limit; null when the seat has no limit or has not been asked yet. */
  readonly left: number | null;
  /** The limit of that move, or null. */
  readonly limit: number | null;
  /** Whether the seat is to move at that moment (its clock runs). */
  readonly running: boolean;
}

const finite = (v: unknown): number | null => (typeof v === 'number' && Number.isFinite(v) ? v : null);
const count = (v: unknown): number | null => (typeof v === 'number' && Number.isInteger(v) && v >= 0 ? v : null);

/** The record read from the artifact's text, or null (absent, malformed, a version unknown here). */
export function readClockRecord(text: string | null): ClockRecord | null {
  if (text === null) return null;
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    return null;
  }
  const r = record(value);
  const ended = finite(r['ended']);
  if (!KNOWN_VERSIONS.has(r['version'] as number) || ended === null || !Array.isArray(r['seats'])) return null;
  const seats = r['seats'].map((seat): ClockTurn[] => {
    const turns = record(seat)['turns'];
    if (!Array.isArray(turns)) return [];
    return turns.flatMap((turn): ClockTurn[] => {
      if (!Array.isArray(turn)) return [];
      const asked = finite(turn[0]);
      const limit = finite(turn[2]);
      const eventsBeforeAsk = count(turn[3]);
      if (asked === null || eventsBeforeAsk === null) return [];
      const answered = finite(turn[1]);
      return [{ asked, answered, limit: limit !== null && limit >= 0 ? limit : null, eventsBeforeAsk, eventsBeforeAnswer: answered === null ? null : count(turn[4]) ?? eventsBeforeAsk }];
    });
  });
  return { ended, seats };
}

/**
 * Each seat's clock once `shown` of the match's visualizer events are drawn (`atEnd`: the last
 * step, where every turn is over). A turn has begun once the events before its ask are drawn, and
 * is answered once an event after its answer is (the move's own drawing).
 */
export function clocksAt(clock: ClockRecord, shown: number, atEnd = false): SeatClock[] {
  return clock.seats.map((turns): SeatClock => {
    let index = -1;
    for (let i = 0; i < turns.length && (atEnd || turns[i]!.eventsBeforeAsk <= shown); i++) index = i;
    if (index === -1) return { left: null, limit: turns[0]?.limit ?? null, running: false };
    const turn = turns[index]!;
    const left = (used: number): number | null => (turn.limit === null ? null : Math.max(0, turn.limit - used));
    if (turn.answered !== null && (atEnd || shown > turn.eventsBeforeAnswer!)) return { left: left(turn.answered - turn.asked), limit: turn.limit, running: false };
    // Never answered: over at the end (at the seat's next turn, or the game's end).
    if (turn.answered === null && atEnd) return { left: left(Math.min(turns[index + 1]?.asked ?? Infinity, clock.ended) - turn.asked), limit: turn.limit, running: false };
    return { left: turn.limit, limit: turn.limit, running: true };
  });
}

/**
 * The events' times as `eventsShown` takes them: each the latest time so far in the record's order
 * (a game may draw an event a little ahead of the next one's time), so that they never decrease.
 */
export function drawnByTimes(events: readonly { readonly t: number }[]): number[] {
  let latest = -Infinity;
  return events.map((event) => (latest = Math.max(latest, event.t)));
}

/** How many of the match's first events are drawn at picture time `t` (`times` from drawnByTimes). */
export function eventsShown(times: readonly number[], t: number): number {
  let lo = 0;
  let hi = times.length;
  while (lo < hi) {
    const mid = (lo + hi) >> 1;
    if (times[mid]! <= t) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}

/** A clock's face: `m:ss` from a minute on, `s.t` (tenths) under it, as lichess shows its last seconds. */
export function formatClock(seconds: number): string {
  const s = Math.max(0, seconds);
  if (s < 60) return `${(Math.floor(s * 10) / 10).toFixed(1)}`;
  const whole = Math.floor(s);
  const hours = Math.floor(whole / 3600);
  const minutes = Math.floor((whole % 3600) / 60);
  const secs = String(whole % 60).padStart(2, '0');
  return hours > 0 ? `${hours}:${String(minutes).padStart(2, '0')}:${secs}` : `${minutes}:${secs}`;
}

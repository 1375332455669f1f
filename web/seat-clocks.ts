import { looseRecord as record } from '../src/protocol/loose-json.js';

/**
 * Each seat's clock at a moment of the match, from the record's `clock.json` (written by
 * src/match/seat-clocks.ts: per seat, its turns as [asked, answered, limit] in seconds since the
 * match started, the scale of the visualizer events' `t`). As lichess shows it: the time left of
 * the move being thought about, running for the seat to move; between its turns, what it had left
 * when it last answered. Pure, so that it is tested under Node. Times come from the record (the
 * server's clock): a page only moves the shown time on between two of them (display only).
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
      if (asked === null) return [];
      return [{ asked, answered: finite(turn[1]), limit: limit !== null && limit >= 0 ? limit : null }];
    });
  });
  return { ended, seats };
}

/**
 * Each seat's clock at match time `t` (seconds). A turn ends at its answer, else at the seat's
 * next turn or the end of the game, whichever comes first.
 *
 * A picture's step is drawn when a move is made, a moment (or the game's pace) before the game
 * asks the next seat. When no clock runs at `t`, a seat whose next turn is the next thing to
 * happen (no seat answers between `t` and it) is shown to move, its whole limit left, as lichess
 * switches the clocks with the move.
 */
export function clocksAt(clock: ClockRecord, t: number): SeatClock[] {
  const at = clock.seats.map((turns) => {
    let index = -1;
    for (let i = 0; i < turns.length && turns[i]!.asked <= t; i++) index = i;
    return { current: index === -1 ? null : turns[index]!, next: turns[index + 1] ?? null };
  });
  const clocks = at.map(({ current, next }): SeatClock => {
    if (current === null) return { left: null, limit: next?.limit ?? null, running: false };
    const stop = Math.min(current.answered ?? Infinity, next?.asked ?? Infinity, clock.ended);
    const running = t < stop;
    const used = (running ? t : stop) - current.asked;
    return { left: current.limit === null ? null : Math.max(0, current.limit - used), limit: current.limit, running };
  });
  if (clocks.some((c) => c.running)) return clocks;
  const answers = clock.seats.flatMap((turns) => turns.flatMap((turn) => (turn.answered === null ? [] : [turn.answered])));
  const comesNext = (asked: number): boolean => asked < clock.ended && !answers.some((answered) => answered > t && answered < asked);
  return clocks.map((c, seat) => {
    const next = at[seat]!.next;
    return next !== null && comesNext(next.asked) ? { left: next.limit, limit: next.limit, running: true } : c;
  });
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

import { looseRecord as record } from '../src/protocol/loose-json.js';
import type { LiveSeat, LiveSeats } from '../src/protocol/coco/messages.js';
import type { SeatClock } from './seat-clocks.js';
import { closureState, type SeatState } from './seat-status.js';

/**
 * A running match's seats as the server last told them (VisSeats: src/match/match.ts), for the
 * live page before the record exists: each seat's name in seat order, its clock and its status.
 * The server sends the match's time with each message; between two, the page moves it on by its own
 * elapsed time (display only), as lichess's clocks tick between the server's moves. Pure, so that
 * it is tested under Node.
 */
export type { LiveSeats } from '../src/protocol/coco/messages.js';

const time = (v: unknown): number | null => (typeof v === 'number' && Number.isFinite(v) ? v : null);

/** The VisSeats payload read field by field; null when it is not one. */
export function readLiveSeats(payload: unknown): LiveSeats | null {
  const r = record(payload);
  const now = time(r['now']);
  if (now === null || !Array.isArray(r['seats'])) return null;
  const seats = r['seats'].map((value): LiveSeat => {
    const seat = record(value);
    const turn = Array.isArray(seat['turn']) ? (seat['turn'] as unknown[]) : null;
    const asked = turn ? time(turn[0]) : null;
    return {
      name: typeof seat['name'] === 'string' ? seat['name'] : '',
      turn: turn && asked !== null ? [asked, time(turn[1]), time(turn[2])] : null,
      closed: typeof seat['closed'] === 'string' ? seat['closed'] : null,
    };
  });
  return { now, seats };
}

/**
 * Each seat's clock at match time `now` (the server's last `now` moved on by the page): a seat
 * whose turn is open runs; an answered turn shows what was left at the answer; a seat closed
 * while to move stops where the server said it closed.
 */
export function liveClocks(seats: LiveSeats, now: number): SeatClock[] {
  return seats.seats.map(({ turn, closed }) => {
    if (turn === null) return { left: null, limit: null, running: false };
    const [asked, answered, limit] = turn;
    const running = answered === null && closed === null;
    const stop = answered ?? (closed !== null ? seats.now : Infinity);
    const used = Math.max(0, Math.min(now, stop) - asked);
    return { left: limit === null ? null : Math.max(0, limit - used), limit, running };
  });
}

/** Each seat's status from why it was closed (ok while it plays). */
export function liveStatuses(seats: LiveSeats): SeatState[] {
  return seats.seats.map((seat) => closureState(seat.closed));
}

import type { PlayerSeat } from '../../match/seat.js';
import { EventQueue } from './event-queue.js';
import { PlayerInput, type PlayerInputEvent } from './player-input.js';
import type { GateDecision } from './room-control.js';

/** What the room's loop reacts to: its players' messages and ends, the gate, its timers. */
export type RoomEvent =
  | PlayerInputEvent
  | { readonly kind: 'gate'; readonly decision: GateDecision }
  | { readonly kind: 'hard-timeout'; readonly request: number }
  | { readonly kind: 'join-wait-over' };

/**
 * Where the room's loop takes its events from: in a played match, as they come (the players'
 * streams, the gate, the timers push them); in a replay of it, in the order the played room took
 * them, which its decisions say (GameDefinition.visFromInput, MatchContext.recall).
 */
export interface RoomEvents {
  push(event: RoomEvent): void;
  next(): Promise<RoomEvent>;
}

/**
 * The event as the record keeps it (MatchContext.note): 0 the join wait over; 1 the hard time
 * limit of the move request open (`current`), 2 that of one already answered; 3 the gate's go, 4
 * its cancel; 5 + seat the seat's next input event, which its stream holds.
 */
const JOIN_WAIT_OVER = 0;
const HARD_TIMEOUT = 1;
const STALE_HARD_TIMEOUT = 2;
const GATE_GO = 3;
const GATE_CANCEL = 4;
const FIRST_SEAT = 5;

export function roomEventDecision(event: RoomEvent, current: boolean): number {
  switch (event.kind) {
    case 'join-wait-over':
      return JOIN_WAIT_OVER;
    case 'hard-timeout':
      return current ? HARD_TIMEOUT : STALE_HARD_TIMEOUT;
    case 'gate':
      return event.decision === 'go' ? GATE_GO : GATE_CANCEL;
    default:
      return FIRST_SEAT + event.seat;
  }
}

/** The played match's events, in the order they come. */
export class PlayedRoomEvents extends EventQueue<RoomEvent> implements RoomEvents {
  constructor(seats: readonly PlayerSeat[]) {
    super();
    seats.forEach((seat, index) => void this.pump(new PlayerInput(seat, index)));
  }

  private async pump(input: PlayerInput): Promise<void> {
    for (let events = await input.next(); events !== null; events = await input.next()) {
      for (const event of events) this.push(event);
    }
  }
}

/**
 * The events of a replayed room, in the order the played room took them: each seat's stream is
 * read only when its next event is taken (so the clock places an answer where the played room
 * took it), and the timers and the gate, which are the played match's, are recalled. What the
 * replayed room pushes (its own timers and gate) is not looked at.
 */
export class RecalledRoomEvents implements RoomEvents {
  private readonly inputs: PlayerInput[];
  /** Per seat, events read from its stream and not taken yet (a piece of text may hold several). */
  private readonly read: PlayerInputEvent[][];

  constructor(
    seats: readonly PlayerSeat[],
    private readonly recall: () => Promise<number>,
    /** The move request open now: the one a recalled hard time limit is for. */
    private readonly currentRequest: () => number,
  ) {
    this.inputs = seats.map((seat, index) => new PlayerInput(seat, index));
    this.read = seats.map(() => []);
  }

  push(): void {}

  async next(): Promise<RoomEvent> {
    const decision = await this.recall();
    switch (decision) {
      case JOIN_WAIT_OVER:
        return { kind: 'join-wait-over' };
      case HARD_TIMEOUT:
        return { kind: 'hard-timeout', request: this.currentRequest() };
      case STALE_HARD_TIMEOUT:
        return { kind: 'hard-timeout', request: -1 };
      case GATE_GO:
      case GATE_CANCEL:
        return { kind: 'gate', decision: decision === GATE_GO ? 'go' : 'cancel' };
      default:
        return this.fromSeat(decision - FIRST_SEAT);
    }
  }

  private async fromSeat(seat: number): Promise<PlayerInputEvent> {
    const input = this.inputs[seat];
    const read = this.read[seat];
    if (input === undefined || read === undefined) throw new Error(`hase und igel: a decision names seat ${seat}`);
    while (read.length === 0) {
      const events = await input.next();
      if (events === null) throw new Error(`hase und igel: seat ${seat}'s stream ended where the match took an event from it`);
      read.push(...events);
    }
    return read.shift()!;
  }
}

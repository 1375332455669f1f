import type { VisEvent } from '../../src/protocol/vis-event.js';
import { liveClocks, liveStatuses, readLiveSeats, type LiveSeats } from '../live-seats.js';
import type { Player } from '../player.js';
import type { PlayerLegend } from '../player-legend.js';
import { SeatColourTimeline } from '../seat-colours.js';

/** How often the seat to move's clock is redrawn between the server's VisSeats (display only). */
export const CLOCK_TICK_MS = 100;
/** The pictures' first creates and log lines kept to read the seats' colours from: games draw who is who early. */
export const COLOUR_EVENTS_MAX = 2000;

/**
 * The live page's legend before the match's record exists, from what the server says as it plays
 * (VisSeats: live-seats.ts): the seats in order, each with its colour at the step shown (from the
 * pictures so far, seat-colours.ts), its clock, ticking for the seat to move between two of the
 * server's messages, and its status. Once the record is shown (`stop`), record-details.ts takes over.
 */
export class LiveSeatLegend {
  /** The seats as the server last told them, and when that came (the page's monotonic milliseconds). */
  private live: { readonly seats: LiveSeats; readonly at: number } | null = null;
  private stopped = false;
  private readonly colourEvents: VisEvent[] = [];
  private colours: SeatColourTimeline | null = null;
  private shownAt = { t: 0, atEnd: false };
  private notes: ReadonlyMap<string, string> = new Map();

  constructor(
    player: Player,
    private readonly legend: PlayerLegend,
  ) {
    player.onStepShown((_, t, atEnd) => {
      this.shownAt = { t, atEnd };
      this.showColours();
    });
  }

  /** Whether the server has said the seats: the legend is this class's until the record. */
  get seatsKnown(): boolean {
    return this.live !== null;
  }

  /** A VisSeats payload. */
  seats(payload: unknown): void {
    const seats = readLiveSeats(payload);
    if (seats === null || this.stopped) return;
    const names = seats.seats.map((seat) => seat.name);
    const renamed = this.live === null || this.live.seats.seats.some((seat, i) => seat.name !== names[i]);
    this.live = { seats, at: performance.now() };
    if (renamed) {
      this.legend.showSeats(names);
      this.colours = null;
      this.showColours();
      this.showNotes();
    }
    this.tick();
  }

  /** Visualizer events as they arrive: the first ones are kept to read the seats' colours from. */
  events(events: readonly VisEvent[]): void {
    const kept = this.colourEvents.length;
    for (const event of events) {
      if (this.colourEvents.length >= COLOUR_EVENTS_MAX) break;
      if ('create' in event || 'log' in event) this.colourEvents.push(event);
    }
    if (this.colourEvents.length === kept) return;
    this.colours = null;
    this.showColours();
  }

  /** Notes by player name (a chess side's time); false while the seats are not known (the caller shows them). */
  showNotesByName(notes: ReadonlyMap<string, string>): boolean {
    this.notes = notes;
    if (this.live === null || this.stopped) return false;
    this.showNotes();
    return true;
  }

  /** The clocks at the server's time moved on by the page's, and the statuses: call it every CLOCK_TICK_MS. */
  tick(): void {
    if (this.live === null || this.stopped) return;
    const now = this.live.seats.now + (performance.now() - this.live.at) / 1000;
    this.legend.showClocks(liveClocks(this.live.seats, now));
    this.legend.showStatuses(liveStatuses(this.live.seats));
  }

  /** The record is shown: its details take the legend over. */
  stop(): void {
    this.stopped = true;
    this.legend.showClocks(null);
    this.legend.showStatuses(null);
  }

  private showColours(): void {
    if (this.live === null || this.stopped) return;
    this.colours ??= new SeatColourTimeline(this.live.seats.seats.map((seat) => seat.name), this.colourEvents);
    this.legend.showColours(this.colours.at(this.shownAt.atEnd ? Infinity : this.shownAt.t));
  }

  private showNotes(): void {
    if (this.live === null) return;
    this.legend.showNotes(this.live.seats.seats.map((seat) => this.notes.get(seat.name) ?? null));
  }
}

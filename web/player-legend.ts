import { h } from './dom.js';
import type { SeatColour } from './seat-colours.js';
import { formatClock, type SeatClock } from './seat-clocks.js';
import { STATUS_LABEL, type SeatState } from './seat-status.js';

/**
 * Who is who beside the picture. Games name seats by number in their pictures and logs ("Player 1
 * plays column 3"); the legend says which program that is: seat 1 is the first name of the
 * record's `players`, as every game numbers its seats in that order. While a match runs the page
 * knows only who joined (the lobby lists them sorted, not by seat), so the legend lists the names
 * without numbers until the record gives the seats.
 *
 * Once the seats are known, each may show the colour the board draws it in (its badge is that
 * colour), its status at the step shown (ok, timed out, error, crashed, left: seat-status.ts, as
 * Kaggle's viewer shows each agent's) and a note the game's page adds (a chess side's time).
 */
export class PlayerLegend {
  readonly element: HTMLElement;
  private readonly list: HTMLElement;
  private players: readonly string[] = [];
  private scores: readonly number[] | null = null;
  private colours: readonly (SeatColour | null)[] = [];
  private statuses: readonly SeatState[] | null = null;
  private notes: readonly (string | null)[] = [];
  private clocks: readonly SeatClock[] | null = null;

  constructor() {
    this.list = h('ol', { class: 'legend-list' });
    this.element = h('section', { class: 'player-legend', 'aria-label': 'players', hidden: true }, h('h3', {}, 'Players'), this.list);
  }

  /** The seats in order (the record's `players`), each with its score when the match is over. */
  showSeats(players: readonly string[], scores: readonly number[] | null = null): void {
    this.players = players;
    this.scores = scores;
    this.renderSeats();
  }

  /** Each seat's colour on the board (seat-colours.ts); null where the picture does not say. */
  showColours(colours: readonly (SeatColour | null)[]): void {
    this.colours = colours;
    this.renderSeats();
  }

  /** Each seat's status at the step shown; null hides the statuses (nothing known of them). */
  showStatuses(statuses: readonly SeatState[] | null): void {
    this.statuses = statuses;
    this.renderSeats();
  }

  /**
   * Each seat's clock at the step shown (seat-clocks.ts): the time left of its move, marked while
   * it runs (the seat to move); null hides the clocks (the record has none).
   */
  showClocks(clocks: readonly SeatClock[] | null): void {
    this.clocks = clocks;
    this.renderSeats();
  }

  /** A line under each seat's name (null: none). */
  showNotes(notes: readonly (string | null)[]): void {
    this.notes = notes;
    this.renderSeats();
  }

  private renderSeats(): void {
    this.list.classList.remove('unnumbered');
    this.list.replaceChildren(
      ...this.players.map((name, i) => {
        const score = this.scores?.[i];
        const colour = this.colours[i] ?? null;
        const state = this.statuses?.[i];
        const note = this.notes[i] ?? null;
        const clock = this.clocks?.[i];
        const badge = h('span', { class: 'seat-badge', title: colour?.word ? `Player ${i + 1}, ${colour.word}` : `Player ${i + 1}` }, String(i + 1));
        if (colour) {
          badge.classList.add('coloured');
          badge.style.setProperty('--seat-colour', colour.css);
          badge.style.setProperty('--seat-ink', isLight(colour.css) ? '#111' : '#fff');
        }
        return h(
          'li',
          { class: 'legend-seat', 'data-seat': i + 1, 'data-colour': colour?.css ?? null, 'data-status': state?.status ?? null },
          badge,
          h(
            'span',
            { class: 'legend-who' },
            h('span', { class: 'legend-name' }, name),
            colour?.word ? h('span', { class: 'legend-colour-word muted' }, ` ${colour.word}`) : null,
            note === null ? null : h('span', { class: 'legend-note muted' }, note),
          ),
          clock ? clockFace(clock) : null,
          state ? h('span', { class: `legend-status status-${state.status}`, title: state.why || 'playing as expected' }, STATUS_LABEL[state.status]) : null,
          score === undefined || !Number.isFinite(score) ? null : h('span', { class: 'legend-score' }, String(score)),
        );
      }),
    );
    this.element.hidden = this.players.length === 0;
  }

  /**
   * Who joined a running match, seat order unknown: names only (each with its note by name, a
   * chess side's time), then how many server bots.
   */
  showJoined(names: readonly string[], bots: number, notes: ReadonlyMap<string, string> = new Map()): void {
    this.list.classList.add('unnumbered');
    const items = names.map((name) => {
      const note = notes.get(name);
      return h('li', { class: 'legend-seat' }, h('span', { class: 'legend-who' }, h('span', { class: 'legend-name' }, name), note === undefined ? null : h('span', { class: 'legend-note muted' }, note)));
    });
    if (bots > 0) items.push(h('li', { class: 'legend-seat muted' }, `${bots} server ${bots === 1 ? 'bot' : 'bots'}`));
    this.list.replaceChildren(...items);
    this.element.hidden = items.length === 0;
  }
}

/** A seat's clock: its time left (a dash before its first turn, or with no limit), highlighted while it runs. */
function clockFace(clock: SeatClock): HTMLElement {
  const text = clock.left === null ? (clock.limit === null && clock.running ? 'to move' : '–') : formatClock(clock.left);
  const title = clock.limit === null ? 'no time limit per move' : `${clock.limit} s per move${clock.running ? '; to move' : ''}`;
  return h('span', { class: `legend-clock${clock.running ? ' running' : ''}${clock.left !== null && clock.left <= 0 ? ' flagged' : ''}`, title, 'data-running': clock.running ? 'true' : null }, text);
}

/** Whether dark text reads better on `#rrggbb` (its relative luminance, roughly). */
function isLight(css: string): boolean {
  const value = parseInt(css.slice(1), 16);
  const r = (value >> 16) & 255;
  const g = (value >> 8) & 255;
  const b = value & 255;
  return 0.2126 * r + 0.7152 * g + 0.0722 * b > 150;
}

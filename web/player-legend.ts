import { h } from './dom.js';

/**
 * Who is who beside the picture. Games name seats by number in their pictures and logs ("Player 1
 * plays column 3"); the legend says which program that is: seat 1 is the first name of the
 * record's `players`, as every game numbers its seats in that order. While a match runs the page
 * knows only who joined (the lobby lists them sorted, not by seat), so the legend lists the names
 * without numbers until the record gives the seats.
 */
export class PlayerLegend {
  readonly element: HTMLElement;
  private readonly list: HTMLElement;

  constructor() {
    this.list = h('ol', { class: 'legend-list' });
    this.element = h('section', { class: 'player-legend', 'aria-label': 'players', hidden: true }, h('h3', {}, 'Players'), this.list);
  }

  /** The seats in order (the record's `players`), each with its score when the match is over. */
  showSeats(players: readonly string[], scores: readonly number[] | null = null): void {
    this.list.classList.remove('unnumbered');
    this.list.replaceChildren(
      ...players.map((name, i) => {
        const score = scores?.[i];
        return h(
          'li',
          { class: 'legend-seat', 'data-seat': i + 1 },
          h('span', { class: 'seat-badge', title: `Player ${i + 1}` }, String(i + 1)),
          h('span', { class: 'legend-name' }, name),
          score === undefined || !Number.isFinite(score) ? null : h('span', { class: 'legend-score' }, String(score)),
        );
      }),
    );
    this.element.hidden = players.length === 0;
  }

  /** Who joined a running match, seat order unknown: names only, then how many server bots. */
  showJoined(names: readonly string[], bots: number): void {
    this.list.classList.add('unnumbered');
    const items = names.map((name) => h('li', { class: 'legend-seat' }, h('span', { class: 'legend-name' }, name)));
    if (bots > 0) items.push(h('li', { class: 'legend-seat muted' }, `${bots} server ${bots === 1 ? 'bot' : 'bots'}`));
    this.list.replaceChildren(...items);
    this.element.hidden = items.length === 0;
  }
}

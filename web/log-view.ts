import { h } from './dom.js';
import type { LogLine } from './timeline.js';
import { formatClock } from './format.js';

/** The most log lines kept in the DOM; older ones are summarised, so a chatty game stays fast. */
const MAX_SHOWN = 2000;

/**
 * The log lines visible up to the current time, kept in sync incrementally. The current step's
 * line is highlighted, and a click on a line asks to show its moment (`onPick` with its index).
 */
export class LogView {
  readonly element: HTMLElement;
  private readonly list: HTMLOListElement;
  private readonly note: HTMLElement;
  private first = 0;
  private count = 0;
  private current: HTMLElement | null = null;

  constructor(onPick: (index: number) => void) {
    this.list = h('ol', { class: 'log-lines' });
    this.note = h('p', { class: 'log-note', hidden: true });
    this.element = h('div', { class: 'log-view' }, this.note, this.list);
    // One listener for every line, however many there are.
    this.list.addEventListener('click', (e) => {
      const item = e.target instanceof Element ? e.target.closest('li') : null;
      if (item instanceof HTMLElement && item.dataset['index'] !== undefined) onPick(Number(item.dataset['index']));
    });
  }

  /** Shows lines [0, visible) (the latest MAX_SHOWN of them) and highlights line `current` (-1: none). */
  render(lines: readonly LogLine[], visible: number, current: number): void {
    const first = Math.max(0, visible - MAX_SHOWN);
    if (first !== this.first || visible !== this.count) this.sync(lines, first, visible);
    const item = current >= this.first && current < this.count ? (this.list.children[current - this.first] as HTMLElement) : null;
    if (item === this.current) return;
    this.current?.classList.remove('is-current');
    this.current?.removeAttribute('aria-current');
    this.current = item;
    if (!item) return;
    item.classList.add('is-current');
    item.setAttribute('aria-current', 'step');
    this.reveal(item);
  }

  private sync(lines: readonly LogLine[], first: number, visible: number): void {
    if (first !== this.first || visible < this.first) {
      this.list.replaceChildren();
      this.current = null;
      this.first = first;
      this.count = first;
    }
    while (this.count > visible) {
      if (this.list.lastElementChild === this.current) this.current = null;
      this.list.lastElementChild?.remove();
      this.count--;
    }
    const fragment = document.createDocumentFragment();
    for (; this.count < visible; this.count++) {
      const line = lines[this.count]!;
      fragment.append(
        h('li', { 'data-index': this.count, title: 'Show this moment' }, h('span', { class: 'log-t' }, formatClock(line.t)), ' ', line.line),
      );
    }
    this.list.append(fragment);
    this.note.hidden = first === 0;
    this.note.textContent = `${first} earlier lines not shown`;
  }

  /** Scrolls the log (not the page: scrollIntoView would move the page too) to show `item`. */
  private reveal(item: HTMLElement): void {
    // The log view is positioned (style.css), so a line's offsetTop is measured from it.
    const view = this.element;
    const top = item.offsetTop;
    const bottom = top + item.offsetHeight;
    if (top < view.scrollTop) view.scrollTop = top;
    else if (bottom > view.scrollTop + view.clientHeight) view.scrollTop = bottom - view.clientHeight;
  }
}

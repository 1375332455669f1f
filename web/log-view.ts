import { h } from './dom.js';
import type { LogLine } from './timeline.js';
import { formatClock } from './format.js';

/** The most log lines kept in the DOM; older ones are summarised, so a chatty game stays fast. */
const MAX_SHOWN = 2000;

/** The log lines visible up to the current time, kept in sync incrementally. */
export class LogView {
  readonly element: HTMLElement;
  private readonly list: HTMLOListElement;
  private readonly note: HTMLElement;
  private first = 0;
  private count = 0;

  constructor() {
    this.list = h('ol', { class: 'log-lines' });
    this.note = h('p', { class: 'log-note', hidden: true });
    this.element = h('div', { class: 'log-view' }, this.note, this.list);
  }

  render(lines: readonly LogLine[], visible: number): void {
    const first = Math.max(0, visible - MAX_SHOWN);
    if (first === this.first && visible === this.count) return;
    const atBottom = this.element.scrollTop + this.element.clientHeight >= this.element.scrollHeight - 4;
    if (first !== this.first || visible < this.first) {
      this.list.replaceChildren();
      this.first = first;
      this.count = first;
    }
    while (this.count > visible) {
      this.list.lastElementChild?.remove();
      this.count--;
    }
    const fragment = document.createDocumentFragment();
    for (; this.count < visible; this.count++) {
      const line = lines[this.count]!;
      fragment.append(h('li', {}, h('span', { class: 'log-t' }, formatClock(line.t)), ' ', line.line));
    }
    this.list.append(fragment);
    this.note.hidden = first === 0;
    this.note.textContent = `${first} earlier lines not shown`;
    if (atBottom) this.element.scrollTop = this.element.scrollHeight;
  }
}

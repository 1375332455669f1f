import { h } from '../dom.js';

/** The most characters of a spectator stream kept on the page; older text is dropped. */
const MAX_CHARS = 512 * 1024;

/**
 * The raw spectator stream, as bytes arrive (binary frames may split lines and characters).
 * Bounded: past MAX_CHARS the oldest half is dropped, so a long match cannot grow the page forever.
 */
export class StreamPanel {
  readonly element: HTMLDetailsElement;
  private readonly pre: HTMLPreElement;
  private readonly note: HTMLElement;
  private readonly size: HTMLElement;
  private readonly decoder = new TextDecoder('utf-8');
  private chars = 0;
  private dropped = 0;
  private total = 0;

  constructor(title: string, open: boolean) {
    this.pre = h('pre', { class: 'stream' });
    this.note = h('p', { class: 'muted small', hidden: true });
    this.size = h('span', { class: 'muted small' });
    this.element = h('details', { class: 'card stream-panel', open }, h('summary', {}, title, ' ', this.size), this.note, this.pre);
  }

  appendBytes(bytes: Uint8Array): void {
    this.appendText(this.decoder.decode(bytes, { stream: true }));
  }

  appendText(text: string): void {
    if (text === '') return;
    const atBottom = this.pre.scrollTop + this.pre.clientHeight >= this.pre.scrollHeight - 4;
    this.total += text.length;
    this.pre.append(text);
    this.chars += text.length;
    if (this.chars > MAX_CHARS) {
      const all = this.pre.textContent ?? '';
      const keep = all.slice(all.length - MAX_CHARS / 2);
      this.dropped += all.length - keep.length;
      this.pre.textContent = keep;
      this.chars = keep.length;
      this.note.hidden = false;
      this.note.textContent = `The first ${this.dropped} characters are not shown.`;
    }
    this.size.textContent = `(${this.total} characters)`;
    if (atBottom) this.pre.scrollTop = this.pre.scrollHeight;
  }

  /** A status line inside the stream (not part of it). */
  mark(text: string): void {
    this.pre.append(h('span', { class: 'stream-mark' }, `— ${text} —\n`));
  }
}

import { artifactPath } from '../api.js';
import { h } from '../dom.js';

/**
 * A seat's transcript (what its program received and sent), shown as text beside the board (under
 * it on a narrow screen) instead of downloaded: reading a bot's side of a move next to the picture
 * is what a transcript is for. One panel per replay page; opening another seat's transcript
 * replaces the text.
 */
export class TranscriptPanel {
  readonly element: HTMLElement;
  private readonly heading = h('h2', {});
  private readonly text = h('pre', { class: 'transcript-text mono' });
  private request = 0;

  constructor(private readonly matchId: string) {
    const close = h('button', { type: 'button', class: 'button small transcript-close' }, 'Close');
    close.addEventListener('click', () => (this.element.hidden = true));
    this.element = h('section', { class: 'card transcript-panel', hidden: true }, h('div', { class: 'transcript-head' }, this.heading, close), this.text);
  }

  /** Shows `artifact` (a transcript-N.txt) under `title`, fetched now. */
  async open(artifact: string, title: string): Promise<void> {
    const request = ++this.request;
    this.heading.textContent = title;
    this.text.textContent = 'Loading…';
    this.element.hidden = false;
    this.element.scrollIntoView({ block: 'nearest' });
    try {
      const response = await fetch(artifactPath(this.matchId, artifact));
      if (!response.ok) throw new Error(`${response.status} ${response.statusText}`);
      const text = await response.text();
      if (request === this.request) this.text.textContent = text;
    } catch (e) {
      if (request === this.request) this.text.textContent = `Cannot load the transcript: ${e instanceof Error ? e.message : String(e)}`;
    }
  }
}

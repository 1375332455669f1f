import { CocoSocket } from '../coco-socket.js';
import { h } from '../dom.js';

/** What every view gets from the shell. */
export interface ViewContext {
  /** The coco WebSocket of the page's own origin. */
  readonly socketUrl: string;
  navigate(hash: string, options?: { replace?: boolean }): void;
}

/** A view draws into `root` and returns what undoes it (sockets, timers, frames). */
export type View = (root: HTMLElement, context: ViewContext) => () => void;

/** Collects what a view must release when the page moves on. */
export class Resources {
  private readonly releases: (() => void)[] = [];
  private released = false;

  get isReleased(): boolean {
    return this.released;
  }

  add(release: () => void): void {
    if (this.released) release();
    else this.releases.push(release);
  }

  socket(socket: CocoSocket): CocoSocket {
    this.add(() => socket.close());
    return socket;
  }

  /** Opens a socket that is closed with the view; rejects if the view is gone meanwhile. */
  async open(url: string): Promise<CocoSocket> {
    const socket = await CocoSocket.open(url);
    if (this.released) {
      socket.close();
      throw new Error('view closed');
    }
    return this.socket(socket);
  }

  interval(callback: () => void, ms: number): void {
    const id = window.setInterval(callback, ms);
    this.add(() => window.clearInterval(id));
  }

  timeout(callback: () => void, ms: number): void {
    const id = window.setTimeout(callback, ms);
    this.add(() => window.clearTimeout(id));
  }

  release(): void {
    if (this.released) return;
    this.released = true;
    for (const release of this.releases.splice(0).reverse()) {
      try {
        release();
      } catch {
        // one failing release must not keep the others from running
      }
    }
  }
}

export function pageHead(title: string | Node, ...actions: Node[]): HTMLElement {
  return h('div', { class: 'page-head' }, h('h1', {}, title), actions.length > 0 ? h('div', { class: 'page-actions' }, actions) : null);
}

export function notice(kind: 'info' | 'error' | 'success', text: string | Node): HTMLElement {
  return h('div', { class: `notice notice-${kind}`, role: kind === 'error' ? 'alert' : 'status' }, text);
}

export function errorText(e: unknown): string {
  return e instanceof Error ? e.message : String(e);
}

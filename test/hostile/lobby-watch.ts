import { OBSERVER } from './addresses.js';
import { CocoPeer } from './coco-peer.js';
import type { Net } from './net.js';

/**
 * The harness's eye on the lobby: a subscribed connection that reads everything. A match is
 * deleted from the lobby only after its record was written, so `deleted(id)` is the event to wait
 * for before reading a match's history; `created(name)` tells that a request sent on some other
 * connection has been handled.
 */
export class LobbyWatch {
  private readonly createdNames = new Map<string, string>();
  private readonly deletedIds = new Set<string>();
  private readonly waiters = new Set<() => void>();
  private ended = false;

  private constructor(private readonly peer: CocoPeer) {
    void this.read();
  }

  static async open(net: Net, url: string): Promise<LobbyWatch> {
    const peer = await CocoPeer.open(net, url, OBSERVER);
    await peer.request({ type: 'LobbySubscribe' }, 'LobbySubscribed');
    return new LobbyWatch(peer);
  }

  /** Resolves true once `id` left the lobby (recorded or expired), false if the watch ends first. */
  deleted(id: string): Promise<boolean> {
    return this.until(() => (this.deletedIds.has(id) ? true : undefined), false);
  }

  /** Resolves with the id of the match named `name` once it was created, null if the watch ends first. */
  created(name: string): Promise<string | null> {
    return this.until(() => this.createdNames.get(name), null);
  }

  close(): void {
    this.peer.terminate();
  }

  private async until<T, F>(look: () => T | undefined, fallback: F): Promise<T | F> {
    for (;;) {
      const found = look();
      if (found !== undefined) return found;
      if (this.ended) return fallback;
      await new Promise<void>((resolve) => this.waiters.add(resolve));
    }
  }

  private async read(): Promise<void> {
    for (;;) {
      const frame = await this.peer.next();
      if (frame === null) break;
      if (frame.kind !== 'reply') continue;
      const { reply } = frame;
      if (reply.type === 'LobbyNew') this.createdNames.set(reply.info.name, reply.info.id);
      else if (reply.type === 'LobbyDelete') this.deletedIds.add(reply.id);
      else continue;
      this.wake();
    }
    this.ended = true;
    this.wake();
  }

  private wake(): void {
    for (const wake of [...this.waiters]) wake();
    this.waiters.clear();
  }
}

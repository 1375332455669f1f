import { ConcurrencyGate } from './concurrency-gate.js';
import type { ServerLimits } from './server-limits.js';

/** A replay's place, given back once when it is over. */
export interface ReplaySlot {
  release(): void;
}

export type ReplayRefusal = { readonly reason: 'replays-per-address' | 'replays'; readonly error: string };

/**
 * The replays in flight (limits `replays-per-address` and `replays`): the requests that send a
 * whole recorded match or the history of a long one. Each is paced by its client's reading and
 * costs the server little at a time, but a slow reader holds it long; counting them keeps a few
 * addresses from holding the history store and the server's output for everyone.
 */
export class ReplaySlots {
  private readonly gate: ConcurrencyGate;
  /** Requests waiting for a slot (waitFor), woken to try again when one is given back. */
  private waiting: (() => void)[] = [];

  constructor(private readonly limits: Pick<ServerLimits, 'replays-per-address' | 'replays'>) {
    this.gate = new ConcurrencyGate(limits.replays, limits['replays-per-address']);
  }

  /** A slot for a replay asked for from `address`, or why there is none now. */
  take(address: string): ReplaySlot | ReplayRefusal {
    const entered = this.gate.tryEnter(address);
    if (!entered.ok && entered.refusal === 'per-address') {
      return { reason: 'replays-per-address', error: `Too many replays at once: at most ${this.limits['replays-per-address']} per address, try again when one has ended` };
    }
    if (!entered.ok) return { reason: 'replays', error: `Too many replays at once on the server (at most ${this.limits.replays}): try again later` };
    let released = false;
    return {
      release: () => {
        if (released) return;
        released = true;
        entered.release();
        const waiting = this.waiting;
        this.waiting = [];
        for (const wake of waiting) wake();
      },
    };
  }

  /**
   * A slot once there is one: for a request whose answer has no room for a refusal (HistoryMatch's
   * binary reply knows only its three errors). The connection handles one request at a time, so
   * each waits at most once, and meanwhile its requests are not read.
   */
  async waitFor(address: string): Promise<ReplaySlot> {
    for (;;) {
      const slot = this.take(address);
      if (!isRefusal(slot)) return slot;
      await new Promise<void>((wake) => this.waiting.push(wake));
    }
  }

  /** Replays in flight, all addresses together. */
  get inFlight(): number {
    return this.gate.inFlight;
  }
}

/** For requests that need no slot (the history of a match that has not started is empty). */
export const NO_REPLAY_SLOT: ReplaySlot = { release: () => {} };

export function isRefusal(slot: ReplaySlot | ReplayRefusal): slot is ReplayRefusal {
  return 'reason' in slot;
}

import type { Clock } from '../util/clock.js';

/** What the heartbeat needs of a connection. */
export interface HeartbeatPeer {
  ping(): void;
  /** The peer did not answer the last ping in time: drop it. */
  dead(): void;
}

interface Beat {
  lastHeard: number;
  pingedAt: number | null;
}

/**
 * Keeps WebSocket connections honest (as `ws` recommends): a connection silent for `seconds` gets
 * a ping; one that has not answered it `seconds` later is dropped. Anything heard from the peer
 * (a message, a pong) counts as an answer. One timer for all connections, on the injected clock.
 */
export class Heartbeat {
  private readonly peers = new Map<HeartbeatPeer, Beat>();
  private cancel: (() => void) | null = null;
  private readonly periodMs: number;

  constructor(
    private readonly clock: Clock,
    seconds: number,
  ) {
    this.periodMs = seconds * 1000;
  }

  start(): void {
    this.schedule();
  }

  stop(): void {
    this.cancel?.();
    this.cancel = null;
  }

  add(peer: HeartbeatPeer): void {
    this.peers.set(peer, { lastHeard: this.clock.monotonic(), pingedAt: null });
  }

  remove(peer: HeartbeatPeer): void {
    this.peers.delete(peer);
  }

  /** The peer said something (a message or a pong). */
  heard(peer: HeartbeatPeer): void {
    const beat = this.peers.get(peer);
    if (!beat) return;
    beat.lastHeard = this.clock.monotonic();
    beat.pingedAt = null;
  }

  /** One round: ping the silent, drop those that missed their pong. */
  check(): void {
    const now = this.clock.monotonic();
    for (const [peer, beat] of [...this.peers]) {
      if (beat.pingedAt !== null) {
        if (now - beat.pingedAt >= this.periodMs) {
          this.peers.delete(peer);
          peer.dead();
        }
      } else if (now - beat.lastHeard >= this.periodMs) {
        beat.pingedAt = now;
        peer.ping();
      }
    }
  }

  private schedule(): void {
    // Checking five times a period keeps every deadline within a fifth of a period of its time.
    this.cancel = this.clock.setTimer(
      this.periodMs / 5,
      () => {
        this.check();
        this.schedule();
      },
      { weak: true },
    );
  }
}

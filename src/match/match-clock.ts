import { systemClock, type Clock } from '../util/clock.js';

/**
 * The timers of one match. Every wait of a match goes through here, so that when the match ends
 * `dispose()` cancels them all and no timer outlives it.
 */
export class MatchClock {
  private readonly cancels = new Set<() => void>();
  private readonly sleepers = new Set<() => void>();
  private disposed = false;
  private hurried = false;

  constructor(private readonly clock: Clock = systemClock) {}

  /** Milliseconds on the underlying clock's monotonic scale. */
  monotonic(): number {
    return this.clock.monotonic();
  }

  /** Calls `callback` after `ms` milliseconds; returns a function that cancels it. */
  after(ms: number, callback: () => void): () => void {
    if (this.disposed) return () => {};
    const cancel = this.clock.setTimer(Math.max(0, ms), () => {
      this.cancels.delete(cancel);
      callback();
    });
    this.cancels.add(cancel);
    return () => {
      cancel();
      this.cancels.delete(cancel);
    };
  }

  /** Resolves after `seconds`; at once for 0. Resolves early (never rejects) when hurried or disposed. */
  sleep(seconds: number): Promise<void> {
    if (this.disposed || this.hurried || !(seconds > 0)) return Promise.resolve();
    return new Promise((resolve) => {
      const wake = (): void => {
        this.sleepers.delete(wake);
        cancel();
        resolve();
      };
      const cancel = this.after(seconds * 1000, wake);
      this.sleepers.add(wake);
    });
  }

  /**
   * The match is being stopped: every sleep ends now and later ones return at once, but deadlines
   * (`after`) stay, so a game still gives up on a peer that does not answer.
   */
  hurry(): void {
    this.hurried = true;
    for (const wake of [...this.sleepers]) wake();
  }

  dispose(): void {
    this.disposed = true;
    for (const cancel of this.cancels) cancel();
    this.cancels.clear();
    for (const wake of [...this.sleepers]) wake();
  }
}

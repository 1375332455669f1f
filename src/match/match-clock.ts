/**
 * The timers of one match. Every wait of a match goes through here, so that when the match ends
 * `dispose()` cancels them all and no timer outlives it.
 */
export class MatchClock {
  private readonly timers = new Set<NodeJS.Timeout>();
  private readonly sleepers = new Set<() => void>();
  private disposed = false;

  /** Calls `callback` after `ms` milliseconds; returns a function that cancels it. */
  after(ms: number, callback: () => void): () => void {
    if (this.disposed) return () => {};
    const timer = setTimeout(() => {
      this.timers.delete(timer);
      callback();
    }, Math.max(0, ms));
    this.timers.add(timer);
    return () => {
      clearTimeout(timer);
      this.timers.delete(timer);
    };
  }

  /** Resolves after `seconds`; at once for 0. Resolves early (never rejects) when disposed. */
  sleep(seconds: number): Promise<void> {
    if (this.disposed || !(seconds > 0)) return Promise.resolve();
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

  dispose(): void {
    this.disposed = true;
    for (const timer of this.timers) clearTimeout(timer);
    this.timers.clear();
    for (const wake of [...this.sleepers]) wake();
  }
}

/**
 * Where the server's time comes from: the match runtime, lobby expiry, the front doors' deadlines
 * and the per-address limits all take a Clock, so that tests move time by hand instead of sleeping
 * and a busy machine cannot make them fail.
 */
export interface Clock {
  /** Milliseconds since the Unix epoch (wall time, for records and lobby times). */
  now(): number;
  /** A monotonic reading in milliseconds, for durations. */
  monotonic(): number;
  /**
   * Calls `callback` after `ms` milliseconds; returns a function that cancels it. A `weak` timer
   * alone does not keep the process running (a housekeeping deadline, not work to be done).
   */
  setTimer(ms: number, callback: () => void, options?: { readonly weak?: boolean }): () => void;
}

/** The real clock. */
export const systemClock: Clock = {
  now: () => Date.now(),
  monotonic: () => performance.now(),
  setTimer(ms, callback, options) {
    const timer = setTimeout(callback, Math.max(0, ms));
    if (options?.weak) timer.unref();
    return () => clearTimeout(timer);
  },
};

interface PendingTimer {
  readonly at: number;
  readonly order: number;
  readonly callback: () => void;
}

/**
 * A clock that moves only when told (`advance`), for tests and simulations. Timers due within an
 * advance fire in time order, each seeing `now()` at its own due time; a callback may set new
 * timers, which fire in the same advance when they fall due within it.
 */
export class ManualClock implements Clock {
  private time: number;
  private readonly start: number;
  private readonly timers = new Set<PendingTimer>();
  private order = 0;
  /** How many timers of each length were ever set, and who waits for a count (`timerSet`). */
  private readonly setCounts = new Map<number, number>();
  private readonly setWaiters: { readonly ms: number; readonly count: number; readonly resolve: () => void }[] = [];

  constructor(startMs = 1_700_000_000_000) {
    this.time = startMs;
    this.start = startMs;
  }

  now(): number {
    return this.time;
  }

  monotonic(): number {
    return this.time - this.start;
  }

  setTimer(ms: number, callback: () => void): () => void {
    const timer: PendingTimer = { at: this.time + Math.max(0, ms), order: this.order++, callback };
    this.timers.add(timer);
    const count = (this.setCounts.get(ms) ?? 0) + 1;
    this.setCounts.set(ms, count);
    for (const waiter of [...this.setWaiters]) {
      if (waiter.ms === ms && waiter.count <= count) {
        this.setWaiters.splice(this.setWaiters.indexOf(waiter), 1);
        waiter.resolve();
      }
    }
    return () => void this.timers.delete(timer);
  }

  /**
   * Resolves once `count` timers of `ms` milliseconds have been set on this clock since it was
   * made: a test that talks to a real process waits for the deadline it means to pass to be armed,
   * then advances past it.
   */
  timerSet(ms: number, count = 1): Promise<void> {
    if ((this.setCounts.get(ms) ?? 0) >= count) return Promise.resolve();
    return new Promise((resolve) => this.setWaiters.push({ ms, count, resolve }));
  }

  /** Timers not yet fired. */
  get pending(): number {
    return this.timers.size;
  }

  /**
   * Moves time forward by `ms`, firing what falls due. Between timers it lets promise callbacks
   * run, so that code woken by one timer can react (and set the next) before time moves on.
   */
  async advance(ms: number): Promise<void> {
    const end = this.time + ms;
    for (;;) {
      await settle();
      let next: PendingTimer | null = null;
      for (const timer of this.timers) {
        if (timer.at <= end && (next === null || timer.at < next.at || (timer.at === next.at && timer.order < next.order))) next = timer;
      }
      if (next === null) break;
      this.timers.delete(next);
      this.time = Math.max(this.time, next.at);
      next.callback();
    }
    this.time = end;
    await settle();
  }

  /**
   * Waits for `work`, moving time on only when nothing else is left to do: each time the process
   * is idle, the clock jumps to its next timer and fires it. Time thus passes exactly as far as the
   * work under test waits for it, however busy the machine is. Meant for in-process work whose
   * only waits are timers of this clock (no child processes, worker threads or files to wait for
   * while a timer is pending: their replies would come too late, after the jump). With no timer
   * pending it waits for the work in real time (it may be loading a module), looking again every
   * millisecond.
   */
  async runUntil<T>(work: Promise<T>): Promise<T> {
    let done = false;
    const finished = work.finally(() => (done = true));
    // The work's own failure is reported by the await below, not as an unhandled rejection here.
    finished.catch(() => {});
    for (;;) {
      // Twice: a callback of the first round may queue immediates of its own.
      await settle();
      await settle();
      if (done) return work;
      let next: PendingTimer | null = null;
      for (const timer of this.timers) {
        if (next === null || timer.at < next.at || (timer.at === next.at && timer.order < next.order)) next = timer;
      }
      if (next === null) await new Promise((resolve) => setTimeout(resolve, 1));
      else await this.advance(next.at - this.time);
    }
  }
}

/** Lets queued promise callbacks and I/O callbacks already due run. */
function settle(): Promise<void> {
  return new Promise((resolve) => setImmediate(resolve));
}

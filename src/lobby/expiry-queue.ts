import type { Clock } from '../util/clock.js';

/**
 * Countdowns of one length for many items (the lobby's waiting matches), on one timer. Every
 * countdown is as long as every other, so the items expire in the order their countdowns were
 * last (re)started: a Map in insertion order, where a restart moves the item to the end, is
 * already sorted by deadline, and only its first item needs a timer. Ten thousand waiting
 * matches cost ten thousand Map entries, not ten thousand timers with their closures.
 */
export class ExpiryQueue<T> {
  /** Each item's deadline on the clock's monotonic time, earliest first. */
  private readonly deadlines = new Map<T, number>();
  private cancelTimer: (() => void) | null = null;
  /** The deadline the timer is armed for, or null when no timer is armed. */
  private armedFor: number | null = null;

  constructor(
    private readonly clock: Clock,
    private readonly ms: number,
    private readonly expire: (item: T) => void,
  ) {}

  /** Starts the item's countdown again from now (or starts it). */
  restart(item: T): void {
    this.deadlines.delete(item);
    this.deadlines.set(item, this.clock.monotonic() + this.ms);
    this.arm();
  }

  /** The item will not expire (it started, or it is gone). */
  remove(item: T): void {
    if (!this.deadlines.delete(item)) return;
    if (this.deadlines.size === 0) this.disarm();
  }

  get size(): number {
    return this.deadlines.size;
  }

  /** Arms the timer for the first deadline, unless it is armed for that one already. */
  private arm(): void {
    const first = this.deadlines.values().next();
    if (first.done) return this.disarm();
    if (this.armedFor === first.value) return;
    this.disarm();
    this.armedFor = first.value;
    // A housekeeping deadline: it alone does not keep the process running.
    this.cancelTimer = this.clock.setTimer(first.value - this.clock.monotonic(), () => this.fire(), { weak: true });
  }

  private disarm(): void {
    this.cancelTimer?.();
    this.cancelTimer = null;
    this.armedFor = null;
  }

  private fire(): void {
    this.cancelTimer = null;
    this.armedFor = null;
    const now = this.clock.monotonic();
    for (const [item, deadline] of this.deadlines) {
      if (deadline > now) break;
      this.deadlines.delete(item);
      this.expire(item);
    }
    this.arm();
  }
}

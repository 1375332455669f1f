/**
 * The order in which bot searches get a worker, and how long each may run. Pure (time is passed
 * in), so that tests can run many searches "at once" on a manual clock.
 *
 * A bot's time budget counts from when it asked for its move, not from when a worker takes the
 * search up: a search that waited in the queue has less left. Searches run earliest deadline
 * first, and each is given a fair share of what is left of its time: with `workers` workers and n
 * timed searches waiting, a search taken up gets (time left) x workers / n (never more than the
 * time left). So n matches that ask at once all answer within their deadlines, each having thought
 * about as long as the others, instead of the last ones forfeiting while the first think in full.
 * A search whose time is up by the time a worker is free runs with a budget of 0: every search
 * completes its first iteration, so the bot answers at once with the best move found so far.
 */

/** A search bounded by time. */
export interface TimedSearch {
  /** Milliseconds the search may take in all, counted from when it was asked for. */
  readonly budgetMs: number;
  /** The arguments of the search, given the milliseconds it may run from when a worker starts it. */
  args(ms: number): readonly unknown[];
}

export interface QueuedSearch<J> {
  readonly job: J;
  /** When it was asked for (the queue's clock, monotonic milliseconds). */
  readonly askedAt: number;
  /** askedAt + budget for a timed search; askedAt for an untimed one, which cannot be shortened. */
  readonly deadline: number;
  readonly timed: boolean;
}

/** What a worker is to run next and for how long (Infinity for an untimed search). */
export interface TakenSearch<J> {
  readonly job: J;
  readonly runMs: number;
  /** Milliseconds it waited for a worker. */
  readonly waitedMs: number;
}

export class SearchQueue<J> {
  private readonly waiting: QueuedSearch<J>[] = [];
  private arrivals = 0;
  private readonly order = new WeakMap<QueuedSearch<J>, number>();

  constructor(private readonly workers: number) {
    if (!(workers >= 1)) throw new Error(`a search queue needs at least one worker, not ${workers}`);
  }

  get length(): number {
    return this.waiting.length;
  }

  /** Queues a search asked for at `now`; `budgetMs` null for an untimed one (a node budget). */
  add(job: J, now: number, budgetMs: number | null): void {
    const entry: QueuedSearch<J> = { job, askedAt: now, deadline: budgetMs === null ? now : now + Math.max(0, budgetMs), timed: budgetMs !== null };
    this.order.set(entry, this.arrivals++);
    this.waiting.push(entry);
  }

  /** The search a free worker takes at `now`, with its share of time; null when none waits. */
  take(now: number): TakenSearch<J> | null {
    if (this.waiting.length === 0) return null;
    let best = 0;
    for (let i = 1; i < this.waiting.length; i++) if (this.before(this.waiting[i]!, this.waiting[best]!)) best = i;
    const [entry] = this.waiting.splice(best, 1) as [QueuedSearch<J>];
    const waitedMs = now - entry.askedAt;
    if (!entry.timed) return { job: entry.job, runMs: Infinity, waitedMs };
    const timedWaiting = 1 + this.waiting.filter((other) => other.timed).length;
    const left = Math.max(0, entry.deadline - now);
    const share = left * Math.min(1, this.workers / timedWaiting);
    return { job: entry.job, runMs: Math.floor(share), waitedMs };
  }

  /** Removes every waiting search (the pool is closing). */
  drain(): J[] {
    return this.waiting.splice(0).map((entry) => entry.job);
  }

  private before(a: QueuedSearch<J>, b: QueuedSearch<J>): boolean {
    return a.deadline !== b.deadline ? a.deadline < b.deadline : this.order.get(a)! < this.order.get(b)!;
  }
}

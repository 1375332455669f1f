import type { Redis } from 'ioredis';
import type { Clock } from '../util/clock.js';
import type { Log } from '../util/log.js';
import { GONE_MS, runScript, type RedisKeys } from './redis-scripts.js';

export interface LivenessOptions {
  readonly node: string;
  readonly redis: Redis;
  readonly keys: RedisKeys;
  readonly clock: Clock;
  /** True: the scripts take the clock's time (tests); false: Redis's own time (production). */
  readonly useClockTime: boolean;
  readonly leaseMs: number;
  readonly refreshMs: number;
  readonly log: Log;
  /** Cleans up after a node whose lease ran out (records its running matches, then removes it). */
  readonly reap: (node: string) => Promise<void>;
  /** This node was declared dead by another while it could not reach Redis. */
  readonly evicted: () => void;
}

/**
 * Node liveness through leases: each node refreshes its lease every `refreshMs`, and on the same
 * beat claims the clean-up of any other node whose lease ran out. The claim takes the lease out of
 * the set in one script, so exactly one survivor cleans up after a dead node; if that survivor dies
 * too before it is done, the claim itself runs out and another takes it over.
 */
export class Liveness {
  private cancel: (() => void) | null = null;
  /** No claims before this time: after (re)connecting, the other nodes get a lease's time to refresh theirs. */
  private claimsFrom = Number.POSITIVE_INFINITY;
  private current: Promise<void> | null = null;
  private queued: Promise<void> | null = null;
  private stopped = false;

  constructor(private readonly options: LivenessOptions) {}

  /** The lease is taken now (call once connected, and again after every reconnection). */
  async connected(): Promise<boolean> {
    this.claimsFrom = this.options.clock.now() + this.options.leaseMs;
    const ok = await this.refresh();
    this.schedule();
    return ok;
  }

  stop(): void {
    this.stopped = true;
    this.cancel?.();
    this.cancel = null;
  }

  /**
   * One beat: refresh, then clean up after the dead. A beat asked for while one runs follows it
   * (once), so a beat asked for after a change of the clock always sees that time. Exposed for
   * tests that move the clock.
   */
  beat(): Promise<void> {
    if (!this.current) {
      this.current = this.runBeat().finally(() => (this.current = null));
      return this.current;
    }
    this.queued ??= this.current.then(() => {
      this.queued = null;
      return this.beat();
    });
    return this.queued;
  }

  private async runBeat(): Promise<void> {
    if (this.stopped) return;
    try {
      if (!(await this.refresh())) return;
      if (this.options.clock.now() < this.claimsFrom) return;
      for (;;) {
        const victim = await this.claim();
        if (victim === null || this.stopped) return;
        this.options.log.error(`node ${victim} stopped refreshing its lease: cleaning up after it`);
        await this.options.reap(victim);
      }
    } catch (error) {
      // Redis is unreachable: the reconnection starts over with connected().
      this.options.log.warn(`lease: ${error instanceof Error ? error.message : String(error)}`);
    }
  }

  private schedule(): void {
    this.cancel?.();
    if (this.stopped) return;
    this.cancel = this.options.clock.setTimer(
      this.options.refreshMs,
      () => {
        this.schedule();
        void this.beat();
      },
      { weak: true },
    );
  }

  private now(): string {
    return this.options.useClockTime ? String(this.options.clock.now()) : '';
  }

  private async refresh(): Promise<boolean> {
    const { redis, keys, node, leaseMs } = this.options;
    const until = Number(await runScript(redis, 'leaseRefresh', [keys.leases, keys.gone(node)], [node, leaseMs, this.now()]));
    if (until >= 0) return true;
    if (!this.stopped) {
      this.stop();
      this.options.evicted();
    }
    return false;
  }

  private async claim(): Promise<string | null> {
    const { redis, keys, node, leaseMs } = this.options;
    // The clean-up must finish within a lease, as a node's refresh must; else another takes it over.
    const victim = await runScript(redis, 'leaseClaim', [keys.leases, keys.reaping], [node, leaseMs, GONE_MS, keys.prefix, this.now()]);
    return typeof victim === 'string' ? victim : null;
  }
}

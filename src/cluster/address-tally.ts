import type { Clock } from '../util/clock.js';
import type { SharedBucket, TokensRefused } from '../util/shared-buckets.js';

/** A GameNew bucket refills over a minute. */
const REFILL_MS = 60_000;
/** Full buckets are swept out after this many new ones (amortized: memory follows the addresses active in a minute). */
const SWEEP_EVERY = 1024;

/**
 * The per-address counts of the nodes a hub serves (the in-process and IPC implementations of
 * AddressCounter): connection slots by node, so that a node's go with it, and one GameNew bucket per
 * address for all of them. The Redis implementation keeps the same in Redis (redis-address-counter.ts).
 */
export class AddressTally {
  private readonly slots = new Map<string, Map<string, number>>();
  /** The buckets of takeTokens (GameNew, registrations...), each with its own refill time. */
  private readonly buckets = new Map<string, { tokens: number; at: number; refillMs: number }>();
  private added = 0;

  constructor(private readonly clock: Clock) {}

  openConnection(node: string, key: string, limit: number): boolean {
    let total = 0;
    for (const held of this.slots.values()) total += held.get(key) ?? 0;
    if (total >= limit) return false;
    let held = this.slots.get(node);
    if (!held) this.slots.set(node, (held = new Map()));
    held.set(key, (held.get(key) ?? 0) + 1);
    return true;
  }

  closeConnection(node: string, key: string): void {
    const held = this.slots.get(node);
    const count = held?.get(key) ?? 0;
    if (count > 1) return void held!.set(key, count - 1);
    held?.delete(key);
    if (held?.size === 0) this.slots.delete(node);
  }

  /** 0 when a token was taken, else the milliseconds until one is back: a shared bucket refilled over a minute. */
  takeGameNew(key: string, perMinute: number): number {
    return this.takeTokens([{ key: `game-new:${key}`, capacity: perMinute, refillMs: REFILL_MS }])?.waitMs ?? 0;
  }

  /** One token from each bucket if all have one, else none: null when taken. */
  takeTokens(buckets: readonly SharedBucket[]): TokensRefused | null {
    const now = this.clock.monotonic();
    const refilled = buckets.map((bucket) => {
      const held = this.buckets.get(bucket.key);
      const tokens = held ? Math.min(bucket.capacity, held.tokens + ((now - held.at) * bucket.capacity) / bucket.refillMs) : bucket.capacity;
      return { ...bucket, tokens };
    });
    const empty = refilled.findIndex((bucket) => bucket.tokens < 1);
    if (empty >= 0) {
      const bucket = refilled[empty]!;
      return { index: empty, waitMs: Math.ceil(((1 - bucket.tokens) * bucket.refillMs) / bucket.capacity) };
    }
    for (const bucket of refilled) {
      if (!this.buckets.has(bucket.key) && ++this.added % SWEEP_EVERY === 0) this.sweep(now);
      this.buckets.set(bucket.key, { tokens: bucket.tokens - 1, at: now, refillMs: bucket.refillMs });
    }
    return null;
  }

  /** A node is gone: the slots it held are free. */
  nodeDown(node: string): void {
    this.slots.delete(node);
  }

  /** Buckets untouched for their whole refill time are full again: as good as absent. */
  private sweep(now: number): void {
    for (const [key, bucket] of this.buckets) if (now - bucket.at >= bucket.refillMs) this.buckets.delete(key);
  }

}

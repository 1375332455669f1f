import type { Redis } from 'ioredis';
import type { Clock } from '../util/clock.js';
import type { Log } from '../util/log.js';
import { runScript, type RedisKeys } from './redis-scripts.js';
import type { AddressCounter } from '../gateways/address-counter.js';
import type { SharedBucket, TokensRefused } from '../util/shared-buckets.js';

export interface RedisAddressCounterOptions {
  readonly node: string;
  readonly redis: Redis;
  readonly keys: RedisKeys;
  readonly clock: Clock;
  /** True: the buckets are timed by the clock (tests); false: by Redis's own time. */
  readonly useClockTime: boolean;
  /** Whether Redis can be asked now (the link is connected and a member). */
  readonly available: () => boolean;
  readonly log: Log;
}

/**
 * The per-address counts in Redis (redis-scripts.ts: addr:NODE, game-new:KEY): each question is
 * one script, answered in one round trip that only the connection or GameNew asking waits for.
 * This node also keeps the slots it holds itself, to publish them again when Redis comes back
 * (a restarted Redis has lost them). While Redis cannot be answered, every question is granted:
 * each node counts alone (its own limits still hold), and says so once in its log.
 */
export class RedisAddressCounter implements AddressCounter {
  /** The slots this node holds, by address key. */
  private readonly mine = new Map<string, number>();
  private alone = false;

  constructor(private readonly options: RedisAddressCounterOptions) {}

  async openConnection(key: string, limit: number): Promise<boolean> {
    const { redis, keys, node } = this.options;
    let granted = true;
    if (this.options.available()) {
      try {
        granted = Number(await runScript(redis, 'addressOpen', [keys.leases, keys.addresses(node)], [key, limit, keys.prefix])) === 1;
        this.together();
      } catch (error) {
        this.countAlone(error);
      }
    } else {
      this.countAlone('Redis is unreachable');
    }
    if (granted) this.mine.set(key, (this.mine.get(key) ?? 0) + 1);
    return granted;
  }

  closeConnection(key: string): void {
    const count = this.mine.get(key) ?? 0;
    if (count === 0) return;
    if (count === 1) this.mine.delete(key);
    else this.mine.set(key, count - 1);
    if (!this.options.available()) return;
    const { redis, keys, node } = this.options;
    // Not waited for: a count that fails here is put right by publish() after the reconnection.
    runScript(redis, 'addressClose', [keys.addresses(node)], [key]).catch((error: unknown) => this.countAlone(error));
  }

  async takeGameNew(key: string, perMinute: number): Promise<number> {
    // A bucket refilled over a minute, under the key GameNew buckets always had.
    return (await this.take([this.options.keys.gameNew(key)], [{ capacity: perMinute, refillMs: 60_000 }]))?.waitMs ?? 0;
  }

  takeTokens(buckets: readonly SharedBucket[]): Promise<TokensRefused | null> {
    return this.take(buckets.map((bucket) => this.options.keys.bucket(bucket.key)), buckets);
  }

  /** One token from each bucket (`redisKeys[i]` holds bucket i) if all have one; none counted while Redis is away. */
  private async take(redisKeys: readonly string[], buckets: readonly Omit<SharedBucket, 'key'>[]): Promise<TokensRefused | null> {
    if (buckets.length === 0) return null;
    if (!this.options.available()) {
      this.countAlone('Redis is unreachable');
      return null;
    }
    const { redis, clock, useClockTime } = this.options;
    const args = [...buckets.flatMap((bucket) => [bucket.capacity, bucket.refillMs]), useClockTime ? String(clock.now()) : ''];
    try {
      // The script takes any number of buckets: their count goes first.
      const [index, waitMs] = (await runScript(redis, 'tokensTake', [String(redisKeys.length), ...redisKeys], args)) as [number, number];
      this.together();
      return Number(index) === 0 ? null : { index: Number(index) - 1, waitMs: Number(waitMs) };
    } catch (error) {
      this.countAlone(error);
      return null;
    }
  }

  /** Redis is back: this node's slots replace whatever it holds there (nothing, after a restart). */
  async publish(): Promise<void> {
    const { redis, keys, node } = this.options;
    const pairs = [...this.mine].flatMap(([key, count]) => [key, count]);
    await runScript(redis, 'addressReplace', [keys.addresses(node)], pairs);
    this.together();
  }

  private countAlone(why: unknown): void {
    if (this.alone) return;
    this.alone = true;
    this.options.log.warn(`per-address limits are counted by this node alone until Redis answers again (${why instanceof Error ? why.message : String(why)})`);
  }

  private together(): void {
    if (!this.alone) return;
    this.alone = false;
    this.options.log.info('per-address limits are counted across the cluster again');
  }
}

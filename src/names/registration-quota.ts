import type { Clock } from '../util/clock.js';
import type { SharedTokenBuckets } from '../util/shared-buckets.js';

const HOUR_MS = 60 * 60 * 1000;

/** Which quota refused a registration (the names of its limits in LIMIT_SPECS). */
export type RegistrationRefusal = 'name-registrations-per-hour' | 'name-registrations-per-hour-per-network';

/** The values of the limits named in RegistrationRefusal, and of `tracked-addresses`. */
export interface RegistrationLimits {
  readonly perHour: number;
  readonly perHourPerNetwork: number;
  /** Keys remembered at most, per level. */
  readonly tracked: number;
}

interface Bucket {
  tokens: number;
  at: number;
}

/**
 * Registrations per key per hour: a bucket that holds `perHour` and refills continuously, so a
 * burst of `perHour` is allowed and then one every hour / perHour. At most `capacity` keys are
 * remembered; past it the least recently used is forgotten (which can only be generous to it).
 */
class HourlyBuckets {
  private readonly buckets = new Map<string, Bucket>();

  constructor(
    private readonly perHour: number,
    private readonly capacity: number,
    private readonly clock: Clock,
  ) {}

  /** The bucket of `key` refilled to now (made full if new), as the most recently used. */
  private refilled(key: string): Bucket {
    const now = this.clock.monotonic();
    let bucket = this.buckets.get(key);
    if (bucket) {
      this.buckets.delete(key);
      bucket.tokens = Math.min(this.perHour, bucket.tokens + ((now - bucket.at) * this.perHour) / HOUR_MS);
      bucket.at = now;
    } else {
      bucket = { tokens: this.perHour, at: now };
      if (this.buckets.size >= this.capacity) this.buckets.delete(this.buckets.keys().next().value!);
    }
    this.buckets.set(key, bucket);
    return bucket;
  }

  hasToken(key: string): boolean {
    return this.refilled(key).tokens >= 1;
  }

  take(key: string): void {
    this.refilled(key).tokens -= 1;
  }

  /** Puts back a token `take` took (the cluster refused what this node granted). */
  giveBack(key: string): void {
    const bucket = this.refilled(key);
    bucket.tokens = Math.min(this.perHour, bucket.tokens + 1);
  }

  /** Seconds until `key` has a token again (0 when it has one). */
  wait(key: string): number {
    const bucket = this.refilled(key);
    // Whole milliseconds first: the fractions of a refilled bucket must not turn 1 s into 2.
    return bucket.tokens >= 1 ? 0 : Math.ceil(Math.round(((1 - bucket.tokens) * HOUR_MS) / this.perHour) / 1000);
  }

  get size(): number {
    return this.buckets.size;
  }
}

/** Names the shared buckets of registrations among the users of SharedTokenBuckets.takeTokens. */
const SHARED_PREFIX = 'registrations:';

/**
 * The quotas of name registrations (NameRegister): per address and per network (the keys of
 * address-limits.ts), apart from the GameNew rate, so that registering names and creating
 * matches cannot starve each other. On a cluster (`--nodes`, `--redis`) they are counted by every
 * node together, in the cluster's shared buckets (SharedTokenBuckets.takeTokens); each node's own
 * count holds as well, so a cluster that cannot answer (Redis down) still limits each node.
 */
export class RegistrationQuota {
  private readonly addresses: HourlyBuckets;
  private readonly networks: HourlyBuckets;

  constructor(
    private readonly limits: RegistrationLimits,
    clock: Clock,
    /** The cluster's shared counts; absent on a single server. */
    private readonly shared?: SharedTokenBuckets,
  ) {
    this.addresses = new HourlyBuckets(limits.perHour, limits.tracked, clock);
    this.networks = new HourlyBuckets(limits.perHourPerNetwork, limits.tracked, clock);
  }

  /**
   * Takes a registration on this node (take) and, on a cluster, from the shared counts: null when
   * both allow it; otherwise nothing is taken from either.
   */
  async spend(address: string, network: string): Promise<{ readonly refusal: RegistrationRefusal; readonly waitSeconds: number } | null> {
    const here = this.take(address, network);
    if (here !== null || !this.shared) return here;
    const refused = await this.shared.takeTokens([
      { key: `${SHARED_PREFIX}${address}`, capacity: this.limits.perHour, refillMs: HOUR_MS },
      { key: `${SHARED_PREFIX}${network}`, capacity: this.limits.perHourPerNetwork, refillMs: HOUR_MS },
    ]);
    if (refused === null) return null;
    this.addresses.giveBack(address);
    this.networks.giveBack(network);
    return { refusal: refused.index === 0 ? 'name-registrations-per-hour' : 'name-registrations-per-hour-per-network', waitSeconds: Math.ceil(refused.waitMs / 1000) };
  }

  /**
   * Takes a registration of `address` (in `network`): null when taken, else which quota is spent
   * and how many seconds until it allows one again (neither is taken then).
   */
  take(address: string, network: string): { readonly refusal: RegistrationRefusal; readonly waitSeconds: number } | null {
    if (!this.addresses.hasToken(address)) return { refusal: 'name-registrations-per-hour', waitSeconds: this.addresses.wait(address) };
    if (!this.networks.hasToken(network)) return { refusal: 'name-registrations-per-hour-per-network', waitSeconds: this.networks.wait(network) };
    this.addresses.take(address);
    this.networks.take(network);
    return null;
  }

  /** Addresses and networks remembered now (for tests). */
  get tracked(): { readonly addresses: number; readonly networks: number } {
    return { addresses: this.addresses.size, networks: this.networks.size };
  }
}

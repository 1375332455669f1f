/** A token bucket the nodes share: `capacity` tokens, refilled evenly over `refillMs` (full when new). */
export interface SharedBucket {
  /** Its name, unique among all users of takeTokens (each prefixes its own, e.g. `registrations:`). */
  readonly key: string;
  readonly capacity: number;
  readonly refillMs: number;
}

/** Why takeTokens took nothing: the first bucket of the request without a token, and when it has one. */
export interface TokensRefused {
  /** Its index in the request. */
  readonly index: number;
  readonly waitMs: number;
}

/**
 * The per-address counts every node shares, so that a client that reaches several nodes has one
 * budget (connections-per-address, game-new-per-minute), not one per node. A node's connection
 * slots go with it when it goes down, so a crash never locks an address out. An answer that
 * cannot be had (Redis down) grants: each node's own count still holds meanwhile.
 */
export interface AddressCounter {
  /** Takes a connection slot of `key` if all nodes together hold fewer than `limit`. */
  openConnection(key: string, limit: number): Promise<boolean>;
  /** Gives back a slot `openConnection` granted. */
  closeConnection(key: string): void;
  /**
   * Takes a GameNew token from `key`'s bucket, shared by the nodes (`perMinute` tokens, refilled
   * evenly over a minute): 0 when one was taken, else the milliseconds until one is back.
   */
  takeGameNew(key: string, perMinute: number): Promise<number>;
  /**
   * Takes one token from each of `buckets` if every one has a token, else none (an address's and
   * its network's quotas are spent together or not at all): null when taken.
   */
  takeTokens(buckets: readonly SharedBucket[]): Promise<TokensRefused | null>;
}

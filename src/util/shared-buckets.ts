/**
 * Token buckets the nodes of a cluster share (the seam gateways/address-counter.ts implements):
 * here, below every folder that spends them, so that a quota of any layer (names/ registrations)
 * can use them without depending on the front doors.
 */

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

export interface SharedTokenBuckets {
  /**
   * Takes one token from each of `buckets` if every one has a token, else none (an address's and
   * its network's quotas are spent together or not at all): null when taken.
   */
  takeTokens(buckets: readonly SharedBucket[]): Promise<TokensRefused | null>;
}

import type { SharedTokenBuckets } from '../util/shared-buckets.js';

/**
 * The per-address counts every node shares, so that a client that reaches several nodes has one
 * budget (connections-per-address, game-new-per-minute), not one per node. A node's connection
 * slots go with it when it goes down, so a crash never locks an address out. An answer that
 * cannot be had (Redis down) grants: each node's own count still holds meanwhile.
 */
export interface AddressCounter extends SharedTokenBuckets {
  /** Takes a connection slot of `key` if all nodes together hold fewer than `limit`. */
  openConnection(key: string, limit: number): Promise<boolean>;
  /** Gives back a slot `openConnection` granted. */
  closeConnection(key: string): void;
  /**
   * Takes a GameNew token from `key`'s bucket, shared by the nodes (`perMinute` tokens, refilled
   * evenly over a minute): 0 when one was taken, else the milliseconds until one is back.
   */
  takeGameNew(key: string, perMinute: number): Promise<number>;
}

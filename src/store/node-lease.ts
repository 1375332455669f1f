import type { HistoryStore } from './history-store.js';

/**
 * A node's lease as the history store knows it: the node's name and its epoch, the number the
 * node took when it joined the cluster (postgres-node-numbers.ts; never given twice). Every write
 * the node makes carries it, and the store refuses the write once the lease was taken over.
 */
export interface NodeLease {
  readonly node: string;
  readonly epoch: number;
}

/**
 * A store that fences writes by lease (the fencing token of Chubby and ZooKeeper): a node that
 * was paused past its lease, and whose matches a survivor has recorded as lost, must not write
 * over them when it wakes. Only a store shared by several machines needs it (PostgreSQL).
 */
export interface LeaseFencing {
  /**
   * From now on every write of this store carries `lease`; `takenOver` is called once, with the
   * name of the node that took the lease over, when the store first refuses a write for it.
   */
  holdLease(lease: NodeLease, takenOver: (by: string) => void): Promise<void>;
  /**
   * Takes a dead node's lease over before its matches are recorded as lost: from the moment this
   * resolves, no write of `victim` is accepted. Rejects when the store cannot be reached (the
   * clean-up is then tried again later).
   */
  takeOverLease(victim: string, by: string): Promise<void>;
}

/** A write refused because the writer's lease was taken over by another node. */
export class LeaseTakenOverError extends Error {
  readonly code = 'history/lease-taken-over';
  override readonly name = 'LeaseTakenOverError';

  constructor(
    readonly lease: NodeLease,
    readonly by: string,
  ) {
    super(`node ${lease.node} (epoch ${lease.epoch}) lost its lease to node ${by}: its writes are refused`);
  }
}

/** By its code, not its class: the refusal may have come across a process boundary (remote-store.ts). */
export function isLeaseTakenOver(error: unknown): boolean {
  return (error as { code?: unknown } | null)?.code === 'history/lease-taken-over';
}

export function hasLeaseFencing(store: HistoryStore): store is HistoryStore & LeaseFencing {
  const candidate = store as Partial<LeaseFencing>;
  return typeof candidate.holdLease === 'function' && typeof candidate.takeOverLease === 'function';
}

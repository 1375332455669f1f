import type { Clock } from '../util/clock.js';
import type { ServerLimits } from './server-limits.js';

/**
 * Something the server holds bytes for on one client's behalf: a WebSocket's unsent output and its
 * unfinished incoming message, a TCP door's socket output, an HTTP response or request body.
 */
export interface MemoryHolder {
  /** Bytes held for this client right now (unsent output, buffered input, ...). */
  heldBytes(): number;
  /** Cut the client off (close its connection at once). Called at most once. */
  cut(why: MemoryCutReason): void;
}

export type MemoryCutReason = 'client-memory-per-connection' | 'client-memory-per-address' | 'client-memory-server';

export const MEMORY_CUT_REASONS = ['client-memory-per-connection', 'client-memory-per-address', 'client-memory-server'] as const satisfies readonly MemoryCutReason[];

export interface MemoryAccount {
  /** Call after the holder's bytes may have grown: re-reads heldBytes() and checks every budget; false when the holder was cut. */
  charge(): boolean;
  /** The holder is gone (connection closed). Idempotent. */
  release(): void;
  /** Counts the holder against another address from now on (a client named by a trusted proxy). */
  moveTo(addressKey: string): void;
}

/** A holder that was cut, for the caller's log line and metrics. */
export interface MemoryCut {
  readonly addressKey: string;
  readonly why: MemoryCutReason;
  /** What the holder held when it was cut. */
  readonly heldBytes: number;
}

export interface ClientMemoryLimits {
  /** Bytes one holder (one connection) may hold. */
  readonly perConnection: number;
  /** Bytes all holders of one address may hold together. */
  readonly perAddress: number;
  /** Bytes all holders of all addresses may hold together. */
  readonly serverWide: number;
}

export interface ClientMemoryOptions {
  /** Told of every cut, after the holder's own `cut` (a log line, a metric). */
  readonly cut?: (cut: MemoryCut) => void;
}

/**
 * A holder as the budget counts it, and its account: one object per connection, its methods on the
 * prototype (an idle server holds tens of thousands of these: no closures of their own).
 */
class Entry implements MemoryAccount {
  /** heldBytes() as last read; what the totals count for this holder. */
  charged = 0;
  /** Cut or released: counted nowhere any more. */
  gone = false;

  constructor(
    private readonly memory: ClientMemory,
    public key: string,
    readonly holder: MemoryHolder,
  ) {}

  charge(): boolean {
    return this.memory.chargeEntry(this);
  }

  release(): void {
    this.memory.releaseEntry(this);
  }

  moveTo(key: string): void {
    this.memory.moveEntry(this, key);
  }
}

/**
 * The one memory budget for everything the server holds on clients' behalf. Each holder counts
 * against three budgets: its own (per connection), its address's, and the server's. A holder past
 * its own budget is cut; past the address's budget, that address's largest holders are cut until
 * it is under; past the server's, the largest holders of all are cut first, so that one greedy
 * client pays before the many small ones do.
 *
 * Totals are kept incrementally from each holder's last charged value, so a charge costs O(1)
 * unless a budget is passed. A holder's bytes that shrink (a socket drained) are seen at its next
 * charge or at the next `sweep`, which re-reads every holder: totals may overcount for up to one
 * sweep interval, never undercount for longer than the holder takes to charge.
 */
export class ClientMemory {
  private readonly byAddress = new Map<string, Set<Entry>>();
  private readonly addressBytes = new Map<string, number>();
  private totalBytes = 0;
  private readonly cutCounts: Record<MemoryCutReason, number> = { 'client-memory-per-connection': 0, 'client-memory-per-address': 0, 'client-memory-server': 0 };

  constructor(
    readonly limits: ClientMemoryLimits,
    private readonly options: ClientMemoryOptions = {},
  ) {}

  register(addressKey: string, holder: MemoryHolder): MemoryAccount {
    const entry = new Entry(this, addressKey, holder);
    this.addTo(entry);
    return entry;
  }

  /** Bytes held for all clients (as last charged or swept). */
  total(): number {
    return this.totalBytes;
  }

  /** Bytes held for one address (as last charged or swept). */
  heldBy(addressKey: string): number {
    return this.addressBytes.get(addressKey) ?? 0;
  }

  /** Holders registered and not yet released or cut. */
  holders(): number {
    let count = 0;
    for (const entries of this.byAddress.values()) count += entries.size;
    return count;
  }

  /** Holders cut since the start, by budget (for /health and /metrics). */
  cuts(): Readonly<Record<MemoryCutReason, number>> {
    return { ...this.cutCounts };
  }

  /**
   * Re-reads every holder, so that bytes that drained without a charge stop counting, then cuts
   * whoever the fresh totals put over a budget.
   */
  sweep(): void {
    for (const entries of this.byAddress.values()) {
      for (const entry of entries) this.reread(entry);
    }
    for (const entries of [...this.byAddress.values()]) {
      for (const entry of [...entries]) {
        if (!entry.gone && entry.charged > this.limits.perConnection) this.cut(entry, 'client-memory-per-connection');
      }
    }
    for (const key of [...this.byAddress.keys()]) this.enforceAddress(key);
    this.enforceServer();
  }

  /** Sweeps every `everyMs` on `clock` (weak timers: they keep no process alive); returns what stops it. */
  startSweeping(clock: Clock, everyMs = 1000): () => void {
    let cancel: (() => void) | null = null;
    const arm = (): void => {
      cancel = clock.setTimer(
        everyMs,
        () => {
          this.sweep();
          arm();
        },
        { weak: true },
      );
    };
    arm();
    return () => {
      cancel?.();
      cancel = null;
    };
  }

  /** MemoryAccount.moveTo of `entry` (its methods call these three). */
  moveEntry(entry: Entry, key: string): void {
    if (entry.gone || key === entry.key) return;
    this.removeFrom(entry);
    entry.key = key;
    this.addTo(entry);
    // Its bytes now count against the new address, which they may take past its budget.
    this.reread(entry);
    this.enforce(entry);
  }

  /** MemoryAccount.charge of `entry`. */
  chargeEntry(entry: Entry): boolean {
    if (entry.gone) return false;
    // Totals that did not grow pass no budget they were under (every growth is enforced here or
    // by `sweep`): a charge after every message a client sends and every frame sent to it costs
    // no map lookup unless the client holds more than before.
    if (!this.reread(entry)) return true;
    return this.enforce(entry);
  }

  /** Cuts `entry`, or the largest holders of its address or of the server, past a budget; false when `entry` was cut. */
  private enforce(entry: Entry): boolean {
    if (entry.gone) return false;
    if (entry.charged > this.limits.perConnection) {
      this.cut(entry, 'client-memory-per-connection');
      return false;
    }
    this.enforceAddress(entry.key);
    this.enforceServer();
    return !entry.gone;
  }

  /** MemoryAccount.release of `entry`. */
  releaseEntry(entry: Entry): void {
    if (entry.gone) return;
    entry.gone = true;
    this.removeFrom(entry);
  }

  /** Re-reads what `entry` holds into the totals; true when it grew. */
  private reread(entry: Entry): boolean {
    const bytes = Math.max(0, entry.holder.heldBytes());
    const delta = bytes - entry.charged;
    if (delta === 0) return false;
    entry.charged = bytes;
    this.totalBytes += delta;
    this.addressBytes.set(entry.key, (this.addressBytes.get(entry.key) ?? 0) + delta);
    return delta > 0;
  }

  private enforceAddress(key: string): void {
    while ((this.addressBytes.get(key) ?? 0) > this.limits.perAddress) {
      const largest = largestOf(this.byAddress.get(key) ?? []);
      if (largest === null) return;
      this.cut(largest, 'client-memory-per-address');
    }
  }

  private enforceServer(): void {
    if (this.totalBytes <= this.limits.serverWide) return;
    // One pass sorted by size, rather than a scan per cut: a server-wide overrun may take many.
    const all: Entry[] = [];
    for (const entries of this.byAddress.values()) all.push(...entries);
    all.sort((a, b) => b.charged - a.charged);
    for (const entry of all) {
      if (this.totalBytes <= this.limits.serverWide) return;
      if (!entry.gone) this.cut(entry, 'client-memory-server');
    }
  }

  private cut(entry: Entry, why: MemoryCutReason): void {
    const heldBytes = entry.charged;
    // Out of the totals before the holder hears of it: its bytes are about to be freed, and a cut
    // that closes synchronously and releases must find nothing left to do.
    this.releaseEntry(entry);
    this.cutCounts[why]++;
    entry.holder.cut(why);
    this.options.cut?.({ addressKey: entry.key, why, heldBytes });
  }

  private addTo(entry: Entry): void {
    let entries = this.byAddress.get(entry.key);
    if (!entries) this.byAddress.set(entry.key, (entries = new Set()));
    entries.add(entry);
    this.totalBytes += entry.charged;
    this.addressBytes.set(entry.key, (this.addressBytes.get(entry.key) ?? 0) + entry.charged);
  }

  private removeFrom(entry: Entry): void {
    const entries = this.byAddress.get(entry.key);
    entries?.delete(entry);
    this.totalBytes -= entry.charged;
    const left = (this.addressBytes.get(entry.key) ?? 0) - entry.charged;
    // An address with no holder is forgotten, so the maps stay as small as the open connections.
    if (!entries || entries.size === 0) {
      this.byAddress.delete(entry.key);
      this.addressBytes.delete(entry.key);
    } else {
      this.addressBytes.set(entry.key, left);
    }
  }
}

function largestOf(entries: Iterable<Entry>): Entry | null {
  let largest: Entry | null = null;
  for (const entry of entries) {
    if (!entry.gone && (largest === null || entry.charged > largest.charged)) largest = entry;
  }
  return largest;
}

/**
 * The limit a cut passed, as its refusal reason (`cocod_requests_refused_total{reason}` counts
 * refusals by the limit's name, and the per-connection budget is `outbound-max-bytes`).
 */
export function memoryCutRefusal(why: MemoryCutReason): 'outbound-max-bytes' | 'client-memory-per-address' | 'client-memory-server' {
  return why === 'client-memory-per-connection' ? 'outbound-max-bytes' : why;
}

/** The budgets the server's limits name: outbound-max-bytes is the per-connection one. */
export function clientMemoryLimits(limits: Pick<ServerLimits, 'outbound-max-bytes' | 'client-memory-per-address' | 'client-memory-server'>): ClientMemoryLimits {
  return { perConnection: limits['outbound-max-bytes'], perAddress: limits['client-memory-per-address'], serverWide: limits['client-memory-server'] };
}

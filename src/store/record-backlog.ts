import { storedSize, type NewMatchRecord } from './history-store.js';

/**
 * 64 MiB: an outage of minutes on a busy server (hundreds of matches of a few KiB to a few
 * hundred KiB each) fits, while a server that lost its database for good cannot be pushed into
 * swapping by it. `--limit history-backlog-max-bytes=N` changes it.
 */
export const DEFAULT_BACKLOG_MAX_BYTES = 64 * 1024 * 1024;

export interface BacklogEntry {
  readonly record: NewMatchRecord;
  /** storedSize of the record: what it counts against the budget. */
  readonly size: number;
}

/**
 * Records waiting for the database to come back, oldest first, within a byte budget (storedSize
 * counts a record's bytes). When a new record does not fit, the oldest waiting ones are dropped
 * to make room: a server that has been cut off for long keeps the latest matches, which are the
 * ones players still look for. A record larger than the whole budget is not kept at all.
 */
export class RecordBacklog {
  private entries: BacklogEntry[] = [];
  private total = 0;

  constructor(readonly maxBytes: number = DEFAULT_BACKLOG_MAX_BYTES) {
    if (!(maxBytes > 0)) throw new RangeError(`the history backlog's byte budget must be > 0, not ${maxBytes}`);
  }

  get count(): number {
    return this.entries.length;
  }

  get bytes(): number {
    return this.total;
  }

  /**
   * Adds a record (replacing a waiting one of the same id, as the store would); returns what
   * had to be dropped for it, oldest first, the record itself when it alone is over the budget.
   */
  push(record: NewMatchRecord): BacklogEntry[] {
    const entry: BacklogEntry = { record, size: storedSize(record) };
    if (entry.size > this.maxBytes) return [entry];
    const same = this.entries.findIndex((waiting) => waiting.record.id === record.id);
    if (same >= 0) this.total -= this.entries.splice(same, 1)[0]!.size;
    const dropped: BacklogEntry[] = [];
    while (this.total + entry.size > this.maxBytes) {
      const oldest = this.entries.shift()!;
      this.total -= oldest.size;
      dropped.push(oldest);
    }
    this.entries.push(entry);
    this.total += entry.size;
    return dropped;
  }

  /** The oldest `count` waiting entries, left in place until `remove` (a write may fail). */
  front(count: number): readonly BacklogEntry[] {
    return this.entries.slice(0, count);
  }

  /** Removes these entries (written, or refused for good); entries pushed meanwhile stay. */
  remove(done: readonly BacklogEntry[]): void {
    const gone = new Set(done);
    this.entries = this.entries.filter((entry) => {
      if (!gone.has(entry)) return true;
      this.total -= entry.size;
      return false;
    });
  }

  /** Empties the backlog, returning what it held. */
  clear(): BacklogEntry[] {
    const all = this.entries;
    this.entries = [];
    this.total = 0;
    return all;
  }
}

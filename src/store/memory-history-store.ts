import {
  DEFAULT_HISTORY_LIMIT,
  MAX_HISTORY_LIMIT,
  resolveRetention,
  selectPruned,
  storedSize,
  type HistoryQuery,
  type HistoryRetention,
  type HistoryStore,
  type HistoryStoreOptions,
  type MatchRecord,
  type MatchSummary,
  type NewMatchRecord,
} from './history-store.js';

interface Entry {
  readonly record: MatchRecord;
  readonly endedAt: number;
  readonly size: number;
}

/** Keeps the history in memory: for tests and servers started without a database file. */
export class MemoryHistoryStore implements HistoryStore {
  private readonly byId = new Map<string, Entry>();
  /** Oldest first by `endedAt`; equal times in the order recorded. Retention cuts from the front. */
  private readonly byEnd: Entry[] = [];
  private totalBytes = 0;
  private readonly retention: HistoryRetention;
  private readonly now: () => number;

  constructor(options: HistoryStoreOptions = {}) {
    this.retention = resolveRetention(options.retention);
    const clock = options.clock;
    this.now = clock ? () => clock.now() : () => Date.now();
  }

  /** Always 0: nothing here waits (SqliteHistoryStore's has meaning; this one lets metrics read either). */
  get queueDepth(): number {
    return 0;
  }

  async record(given: NewMatchRecord): Promise<void> {
    const { visJson } = given;
    const match: MatchRecord = typeof visJson === 'string' ? { ...given, visJson } : { ...given, visJson: Buffer.from(visJson.buffer, visJson.byteOffset, visJson.byteLength).toString('utf8') };
    const previous = this.byId.get(match.id);
    if (previous) this.remove(previous);
    const entry: Entry = { record: match, endedAt: match.endedAt, size: storedSize(given) };
    this.byEnd.splice(this.insertionPoint(entry.endedAt), 0, entry);
    this.byId.set(match.id, entry);
    this.totalBytes += entry.size;
    const pruned = selectPruned(this.byEnd, this.totalBytes, this.retention, this.now());
    // selectPruned returns the oldest entries, that is the front of byEnd.
    this.byEnd.splice(0, pruned.length);
    for (const old of pruned) {
      this.byId.delete(old.record.id);
      this.totalBytes -= old.size;
    }
  }

  async list(query: HistoryQuery = {}): Promise<MatchSummary[]> {
    const limit = Math.max(0, Math.min(query.limit ?? DEFAULT_HISTORY_LIMIT, MAX_HISTORY_LIMIT));
    const found: MatchSummary[] = [];
    for (let i = this.byEnd.length - 1; i >= 0 && found.length < limit; i--) {
      const { spectatorStream: _s, visJson: _v, artifacts: _a, ...summary } = this.byEnd[i]!.record;
      if ((query.game === undefined || summary.game === query.game)
        && (query.player === undefined || summary.players.includes(query.player))
        && (query.before === undefined || summary.endedAt < query.before)) found.push(summary);
    }
    return found;
  }

  async ids(): Promise<string[]> {
    return this.byEnd.map((entry) => entry.record.id);
  }

  async get(id: string): Promise<MatchRecord | null> {
    return this.byId.get(id)?.record ?? null;
  }

  async close(): Promise<void> {}

  private remove(entry: Entry): void {
    this.byEnd.splice(this.byEnd.indexOf(entry), 1);
    this.byId.delete(entry.record.id);
    this.totalBytes -= entry.size;
  }

  /** After every entry that ended at or before `endedAt`; matches end in order, so usually the end. */
  private insertionPoint(endedAt: number): number {
    let low = 0;
    let high = this.byEnd.length;
    while (low < high) {
      const mid = (low + high) >>> 1;
      if (this.byEnd[mid]!.endedAt <= endedAt) low = mid + 1;
      else high = mid;
    }
    return low;
  }
}

import { DEFAULT_HISTORY_LIMIT, MAX_HISTORY_LIMIT, type HistoryQuery, type HistoryStore, type MatchRecord, type MatchSummary } from './history-store.js';

/** Keeps the history in memory: for tests and servers started without a database file. */
export class MemoryHistoryStore implements HistoryStore {
  private readonly records = new Map<string, MatchRecord>();

  async record(match: MatchRecord): Promise<void> {
    this.records.set(match.id, match);
  }

  async list(query: HistoryQuery = {}): Promise<MatchSummary[]> {
    const limit = Math.min(query.limit ?? DEFAULT_HISTORY_LIMIT, MAX_HISTORY_LIMIT);
    return [...this.records.values()]
      .filter((r) => (query.game === undefined || r.game === query.game)
        && (query.player === undefined || r.players.includes(query.player))
        && (query.before === undefined || r.endedAt < query.before))
      .sort((a, b) => b.endedAt - a.endedAt)
      .slice(0, limit)
      .map(({ spectatorStream: _s, visJson: _v, artifacts: _a, ...summary }) => summary);
  }

  async ids(): Promise<string[]> {
    return [...this.records.values()].sort((a, b) => a.endedAt - b.endedAt).map((r) => r.id);
  }

  async get(id: string): Promise<MatchRecord | null> {
    return this.records.get(id) ?? null;
  }

  async close(): Promise<void> {}
}

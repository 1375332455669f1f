import { MemoryNameTable } from './memory-name-table.js';
import {
  DEFAULT_HISTORY_LIMIT,
  MAX_HISTORY_LIMIT,
  ratingsLimit,
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
  type PlayerRating,
  partRange,
  type ByteRange,
  type RecordOutline,
  type RecordPart,
  type RatingPoint,
  type RatingQuery,
  type StoredTournament,
  type TournamentEntry,
} from './history-store.js';
import { displayedRating, rateMatch, ratedStandings, type Skill } from '../ratings/rating.js';

interface Rated extends Skill {
  readonly games: number;
}

interface Entry {
  readonly record: MatchRecord;
  readonly endedAt: number;
  readonly size: number;
  /** The text parts as UTF-8, encoded when first read by part and kept, so that each range read is a view. */
  encoded?: EncodedParts;
}

interface EncodedParts {
  readonly vis: Buffer;
  readonly artifacts: ReadonlyMap<string, Buffer>;
}

/** Keeps the history in memory: for tests and servers started without a database file. */
export class MemoryHistoryStore implements HistoryStore {
  private readonly byId = new Map<string, Entry>();
  /** Oldest first by `endedAt`; equal times in the order recorded. Retention cuts from the front. */
  private readonly byEnd: Entry[] = [];
  private totalBytes = 0;
  /** Current ratings: game, then player. */
  private readonly skills = new Map<string, Map<string, Rated>>();
  /** Rating points by `${game}\n${player}`, oldest first by `endedAt`, equal times in the order recorded. */
  private readonly points = new Map<string, RatingPoint[]>();
  /** The rated matches whose points are kept, with the keys of `points` they added to. */
  private readonly rated = new Map<string, string[]>();
  private readonly retention: HistoryRetention;
  private readonly now: () => number;
  /** In the order first saved; results by index. */
  private readonly tournamentsById = new Map<string, { entry: TournamentEntry; results: string[] }>();
  /** Claimed names and their token digests (NameClaimTable). */
  private readonly claims = new MemoryNameTable();

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
    // The first record of a match wins: a later one of the same id is left out.
    if (this.byId.has(match.id)) return;
    if (!this.rated.has(match.id)) this.rate(match);
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
      this.forgetPoints(old.record.id);
    }
  }

  async ratings(game: string, query: RatingQuery = {}): Promise<PlayerRating[]> {
    const board = [...(this.skills.get(game) ?? new Map<string, Rated>())].map(([player, { mu, sigma, games }]) => ({ player, mu, sigma, rating: displayedRating({ mu, sigma }), games }));
    board.sort((a, b) => b.rating - a.rating || (a.player < b.player ? -1 : a.player > b.player ? 1 : 0));
    return board.slice(0, ratingsLimit(query));
  }

  async ratingHistory(game: string, player: string, query: RatingQuery = {}): Promise<RatingPoint[]> {
    const points = this.points.get(pointsKey(game, player)) ?? [];
    const limit = ratingsLimit(query);
    return limit === 0 ? [] : points.slice(-limit);
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

  async outline(id: string): Promise<RecordOutline | null> {
    const entry = this.byId.get(id);
    if (!entry) return null;
    const { spectatorStream, visJson: _v, artifacts: _a, ...summary } = entry.record;
    const encoded = encodedParts(entry);
    return { ...summary, streamBytes: spectatorStream.length, visBytes: encoded.vis.length, artifacts: [...encoded.artifacts].map(([name, bytes]) => ({ name, bytes: bytes.length })) };
  }

  async readPart(id: string, part: RecordPart, range?: ByteRange): Promise<Buffer | null> {
    const entry = this.byId.get(id);
    if (!entry) return null;
    if (part.kind === 'stream') return partRange(entry.record.spectatorStream, range);
    const encoded = encodedParts(entry);
    const bytes = part.kind === 'vis' ? encoded.vis : encoded.artifacts.get(part.name);
    return bytes ? partRange(bytes, range) : null;
  }

  async saveTournament(entry: TournamentEntry): Promise<void> {
    const kept = this.tournamentsById.get(entry.id);
    if (kept) kept.entry = { ...entry };
    else this.tournamentsById.set(entry.id, { entry: { ...entry }, results: [] });
  }

  async addTournamentResult(id: string, index: number, result: string): Promise<void> {
    const kept = this.tournamentsById.get(id);
    if (!kept) throw new Error(`no tournament "${id}" is saved`);
    kept.results[index] = result;
  }

  async tournaments(): Promise<StoredTournament[]> {
    const all = [...this.tournamentsById.values()].map(({ entry, results }) => ({ ...entry, results: results.filter((r) => r !== undefined) }));
    // Map order is the order first saved: reversed, the last saved of equal times comes first.
    return all.reverse().sort((a, b) => b.createdAt - a.createdAt);
  }

  async forgetTournament(id: string): Promise<void> {
    this.tournamentsById.delete(id);
  }

  claimName(name: string, digest: string): Promise<boolean> {
    return this.claims.claimName(name, digest);
  }

  nameDigest(name: string): Promise<string | null> {
    return this.claims.nameDigest(name);
  }

  replaceNameDigest(name: string, expected: string, next: string): Promise<boolean> {
    return this.claims.replaceNameDigest(name, expected, next);
  }

  releaseName(name: string): Promise<boolean> {
    return this.claims.releaseName(name);
  }

  async close(): Promise<void> {}

  /** Updates the ratings of a verified match's players (see PlayerRating). */
  private rate(match: MatchRecord): void {
    const ranked = ratedStandings(match);
    if (!ranked) return;
    const board = this.skills.get(match.game) ?? new Map<string, Rated>();
    this.skills.set(match.game, board);
    const after = rateMatch(ranked, (player) => board.get(player));
    const keys: string[] = [];
    ranked.forEach(({ player }, i) => {
      const { mu, sigma } = after[i]!;
      board.set(player, { mu, sigma, games: (board.get(player)?.games ?? 0) + 1 });
      const key = pointsKey(match.game, player);
      const points = this.points.get(key) ?? [];
      this.points.set(key, points);
      const point: RatingPoint = { matchId: match.id, endedAt: match.endedAt, mu, sigma, rating: displayedRating({ mu, sigma }) };
      let at = points.length;
      while (at > 0 && points[at - 1]!.endedAt > match.endedAt) at--;
      points.splice(at, 0, point);
      keys.push(key);
    });
    this.rated.set(match.id, keys);
  }

  /** A removed match's rating points go with it; the ratings it changed stay. */
  private forgetPoints(matchId: string): void {
    for (const key of this.rated.get(matchId) ?? []) {
      const kept = this.points.get(key)!.filter((point) => point.matchId !== matchId);
      if (kept.length) this.points.set(key, kept);
      else this.points.delete(key);
    }
    this.rated.delete(matchId);
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

function encodedParts(entry: Entry): EncodedParts {
  const { visJson, artifacts } = entry.record;
  // Object.keys order, as `get` gives them; only own names (not "__proto__" inherited and such).
  entry.encoded ??= { vis: Buffer.from(visJson, 'utf8'), artifacts: new Map(Object.keys(artifacts).map((name) => [name, Buffer.from(artifacts[name]!, 'utf8')])) };
  return entry.encoded;
}

function pointsKey(game: string, player: string): string {
  return `${game}\n${player}`;
}

import Database from 'better-sqlite3';
import {
  DEFAULT_HISTORY_LIMIT,
  MAX_HISTORY_LIMIT,
  ratingsLimit,
  resolveRetention,
  selectPruned,
  storedSize,
  type HistoryQuery,
  type HistoryRetention,
  type MatchRecord,
  type NewMatchRecord,
  type MatchSummary,
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
import { RATINGS_TABLES, SqliteRatings, backfillRatings } from './sqlite-ratings.js';
import { PartCache } from './part-cache.js';

/**
 * Record parts the store's thread keeps for range reads (PartCache), in bytes (64 MiB): larger
 * than any one artifact a match may attach (32 MiB), so that a part read a range at a time is read
 * from the file once, not once per range.
 */
export const PART_CACHE_BYTES = 64 * 1024 * 1024;

/** A migration: SQL to run, or a step that needs code too (rating the matches already kept). */
export type Migration = string | ((db: Database.Database) => void);

/**
 * Schema migrations, applied in order; `PRAGMA user_version` holds how many have run, so a file
 * written by an older server is upgraded in place. Exported for the upgrade tests, which build a
 * file at an older version.
 */
export const MIGRATIONS: readonly Migration[] = [
  `CREATE TABLE matches (
     id TEXT PRIMARY KEY,
     game TEXT NOT NULL,
     name TEXT NOT NULL,
     args TEXT NOT NULL,
     bots INTEGER NOT NULL,
     scores TEXT,
     reason TEXT NOT NULL,
     error TEXT,
     seed TEXT NOT NULL,
     verified INTEGER NOT NULL,
     started_at INTEGER NOT NULL,
     ended_at INTEGER NOT NULL,
     spectator_stream BLOB NOT NULL,
     vis TEXT NOT NULL
   );
   CREATE TABLE match_players (
     match_id TEXT NOT NULL REFERENCES matches(id) ON DELETE CASCADE,
     seat INTEGER NOT NULL,
     name TEXT NOT NULL,
     PRIMARY KEY (match_id, seat)
   );
   CREATE INDEX matches_by_end ON matches(ended_at);
   CREATE INDEX matches_by_game ON matches(game, ended_at);
   CREATE INDEX players_by_name ON match_players(name);`,
  `CREATE TABLE match_artifacts (
     match_id TEXT NOT NULL REFERENCES matches(id) ON DELETE CASCADE,
     name TEXT NOT NULL,
     content TEXT NOT NULL,
     PRIMARY KEY (match_id, name)
   );`,
  // Each match's storedSize, for retention's running total. A table of its own rather than a
  // column of matches: filling a new column would rewrite every row with its blobs in one
  // transaction (the whole file again, through the write-ahead log), and the files that need this
  // upgrade are the ones that grew without a limit. octet_length (SQLite 3.43+) reads a text's or
  // blob's length from the row header; the sum is storedSize's, term for term.
  `CREATE TABLE match_sizes (
     match_id TEXT PRIMARY KEY REFERENCES matches(id) ON DELETE CASCADE,
     size INTEGER NOT NULL
   ) WITHOUT ROWID;
   INSERT INTO match_sizes (match_id, size)
   SELECT m.id,
       octet_length(m.spectator_stream) + octet_length(m.id) + octet_length(m.game) + octet_length(m.name)
     + octet_length(m.args) + octet_length(m.reason) + octet_length(m.seed) + octet_length(m.vis)
     + coalesce(octet_length(m.scores), 0) + coalesce(octet_length(m.error), 0)
     + (SELECT coalesce(sum(octet_length(p.name)), 0) FROM match_players p WHERE p.match_id = m.id)
     + (SELECT coalesce(sum(octet_length(a.name) + octet_length(a.content)), 0) FROM match_artifacts a WHERE a.match_id = m.id)
   FROM matches m;`,
  (db) => {
    db.exec(RATINGS_TABLES);
    backfillRatings(db);
  },
  // Server tournaments (TournamentEntry): a row each, and their results added one at a time.
  `CREATE TABLE tournaments (
     id TEXT PRIMARY KEY,
     created_at INTEGER NOT NULL,
     body TEXT NOT NULL
   );
   CREATE TABLE tournament_results (
     tournament_id TEXT NOT NULL REFERENCES tournaments(id) ON DELETE CASCADE,
     idx INTEGER NOT NULL,
     result TEXT NOT NULL,
     PRIMARY KEY (tournament_id, idx)
   ) WITHOUT ROWID;`,
  // Claimed player names (src/names/): the SHA-256 of each name's token, never the token.
  `CREATE TABLE name_claims (
     name TEXT PRIMARY KEY,
     digest TEXT NOT NULL
   ) WITHOUT ROWID;`,
];

/**
 * After a checkpoint the write-ahead log is cut back to this size. Without it the log keeps the
 * size of the largest burst ever written (a thousand matches ending together, with artifacts of
 * up to 32 MiB each, can make it gigabytes) for as long as the server runs.
 */
export const WAL_SIZE_LIMIT_BYTES = 64 * 1024 * 1024;

/** Options of SqliteHistoryDb. */
export interface SqliteHistoryDbOptions {
  /** Limits not given take their HISTORY_RETENTION_DEFAULTS. */
  readonly retention?: Partial<HistoryRetention>;
  /** PART_CACHE_BYTES by default. */
  readonly partCacheBytes?: number;
}

interface MatchRow {
  id: string;
  game: string;
  name: string;
  args: string;
  bots: number;
  scores: string | null;
  reason: string;
  error: string | null;
  seed: string;
  verified: number;
  started_at: number;
  ended_at: number;
  players: string;
}

const SUMMARY_COLUMNS = `m.id, m.game, m.name, m.args, m.bots, m.scores, m.reason, m.error, m.seed, m.verified, m.started_at, m.ended_at,
  (SELECT json_group_array(name) FROM (SELECT name FROM match_players WHERE match_id = m.id ORDER BY seat)) AS players`;

/**
 * The history in an SQLite file, synchronously (better-sqlite3). The server uses it from a worker
 * thread through SqliteHistoryStore, so that writing records never stalls the matches.
 */
export class SqliteHistoryDb {
  private readonly db: Database.Database;
  private readonly insertMatch: Database.Statement;
  private readonly insertPlayer: Database.Statement;
  private readonly insertArtifact: Database.Statement;
  private readonly selectSize: Database.Statement;
  private readonly insertSize: Database.Statement;
  private readonly sumSizes: Database.Statement;
  private readonly oldestFirst: Database.Statement;
  private readonly deleteMatch: Database.Statement;
  private readonly ratings: SqliteRatings;
  private readonly recordAll: (records: readonly NewMatchRecord[], now: number) => void;
  private readonly pruneAll: (now: number) => number;
  private readonly retention: HistoryRetention;
  /** The sum of match_sizes, kept as records come and go so that retention never has to add it up. */
  private total = 0;
  private readonly partCache: PartCache;
  private readonly partStatements = new Map<string, Database.Statement>();

  constructor(file: string, options: SqliteHistoryDbOptions = {}) {
    this.retention = resolveRetention(options.retention);
    this.partCache = new PartCache(options.partCacheBytes ?? PART_CACHE_BYTES);
    this.db = new Database(file);
    this.db.pragma('journal_mode = WAL');
    // With WAL, NORMAL never corrupts the file; a power cut may lose the last commits, not a crash.
    this.db.pragma('synchronous = NORMAL');
    // Off by default in SQLite (better-sqlite3's build turns it on; this does not rely on that),
    // per connection: without it, removing a match would leave its players, artifacts and size
    // behind (their ON DELETE CASCADE would not run).
    this.db.pragma('foreign_keys = ON');
    this.db.pragma(`journal_size_limit = ${WAL_SIZE_LIMIT_BYTES}`);
    this.migrate();
    this.insertMatch = this.db.prepare(
      `INSERT INTO matches (id, game, name, args, bots, scores, reason, error, seed, verified, started_at, ended_at, spectator_stream, vis)
       VALUES (@id, @game, @name, @args, @bots, @scores, @reason, @error, @seed, @verified, @startedAt, @endedAt, @spectatorStream, @vis)`,
    );
    this.insertPlayer = this.db.prepare('INSERT INTO match_players (match_id, seat, name) VALUES (?, ?, ?)');
    this.insertArtifact = this.db.prepare('INSERT INTO match_artifacts (match_id, name, content) VALUES (?, ?, ?)');
    this.selectSize = this.db.prepare('SELECT size FROM match_sizes WHERE match_id = ?').pluck();
    this.insertSize = this.db.prepare('INSERT INTO match_sizes (match_id, size) VALUES (?, ?)');
    this.sumSizes = this.db.prepare('SELECT total(size) FROM match_sizes').pluck();
    // Walks matches_by_end, oldest first; reads each match's first page for its id (never the
    // overflow pages where its blobs are) and its size from match_sizes.
    this.oldestFirst = this.db.prepare(
      `SELECT m.id, m.ended_at AS endedAt, s.size FROM matches m INDEXED BY matches_by_end CROSS JOIN match_sizes s ON s.match_id = m.id ORDER BY m.ended_at`,
    );
    // Players, artifacts and the size go with it (ON DELETE CASCADE).
    this.deleteMatch = this.db.prepare('DELETE FROM matches WHERE id = ?');
    this.ratings = new SqliteRatings(this.db);
    this.recordAll = this.db.transaction((records: readonly NewMatchRecord[], now: number) => {
      for (const match of records) this.insert(match);
      // In the same transaction: one commit for the records and what they push out.
      this.removeExpired(now);
    });
    this.pruneAll = this.db.transaction((now: number) => this.removeExpired(now));
    this.total = this.sumSizes.get() as number;
  }

  /** The total storedSize of the records kept, which retention holds under `maxBytes`. */
  get storedBytes(): number {
    return this.total;
  }

  get schemaVersion(): number {
    return this.db.pragma('user_version', { simple: true }) as number;
  }

  private migrate(): void {
    const applied = this.schemaVersion;
    if (applied > MIGRATIONS.length) {
      throw new Error(`the history file has schema version ${applied}, newer than this server knows (${MIGRATIONS.length})`);
    }
    for (let version = applied; version < MIGRATIONS.length; version++) {
      this.db.transaction(() => {
        const migration = MIGRATIONS[version]!;
        if (typeof migration === 'string') this.db.exec(migration);
        else migration(this.db);
        this.db.pragma(`user_version = ${version + 1}`);
      })();
    }
  }

  /**
   * Writes the records in one transaction: all of them or, on an error, none; then applies the
   * retention in the same transaction, with `now` (unix ms) as the time for the age limit.
   */
  record(records: readonly NewMatchRecord[], now: number): void {
    this.reconcilingTotal(() => this.recordAll(records, now));
  }

  /** Applies the retention alone (when the file is opened, whose limits may have been lowered); returns how many matches it removed. */
  prune(now: number): number {
    return this.reconcilingTotal(() => this.pruneAll(now));
  }

  /** The running total follows each write; when a transaction rolls back, it is counted again. */
  private reconcilingTotal<T>(write: () => T): T {
    try {
      return write();
    } catch (error) {
      this.total = this.sumSizes.get() as number;
      throw error;
    }
  }

  private removeExpired(now: number): number {
    // The rows are read before any is deleted: better-sqlite3 runs nothing else while a statement iterates.
    const expired = selectPruned(this.oldestFirst.iterate() as IterableIterator<{ id: string; endedAt: number; size: number }>, this.total, this.retention, now);
    for (const { id, size } of expired) {
      this.deleteMatch.run(id);
      this.partCache.forgetMatch(id);
      this.ratings.forget(id);
      this.total -= size;
    }
    return expired.length;
  }

  /** Writes one match, unless one of that id is stored already: the first record of a match wins. */
  private insert(match: NewMatchRecord): void {
    if (this.selectSize.get(match.id) !== undefined) return;
    const size = storedSize(match);
    this.total += size;
    this.insertMatch.run({
      id: match.id,
      game: match.game,
      name: match.name,
      args: JSON.stringify(match.args),
      bots: match.bots,
      scores: match.scores ? JSON.stringify(match.scores) : null,
      reason: match.reason,
      error: match.error,
      seed: match.seed,
      verified: match.verified ? 1 : 0,
      startedAt: match.startedAt,
      endedAt: match.endedAt,
      spectatorStream: match.spectatorStream,
      vis: match.visJson,
    });
    match.players.forEach((name, seat) => this.insertPlayer.run(match.id, seat, name));
    for (const [name, content] of Object.entries(match.artifacts)) this.insertArtifact.run(match.id, name, content);
    this.insertSize.run(match.id, size);
    // In the record's transaction: the match and the ratings it changes are written together.
    this.ratings.rate(match);
  }

  ratingBoard(game: string, query: RatingQuery = {}): PlayerRating[] {
    return this.ratings.board(game, ratingsLimit(query));
  }

  ratingHistory(game: string, player: string, query: RatingQuery = {}): RatingPoint[] {
    return this.ratings.history(game, player, ratingsLimit(query));
  }

  list(query: HistoryQuery = {}): MatchSummary[] {
    const where: string[] = [];
    const params: Record<string, string | number> = {};
    if (query.game !== undefined) {
      where.push('m.game = @game');
      params['game'] = query.game;
    }
    if (query.player !== undefined) {
      where.push('EXISTS (SELECT 1 FROM match_players p WHERE p.match_id = m.id AND p.name = @player)');
      params['player'] = query.player;
    }
    if (query.before !== undefined) {
      where.push('m.ended_at < @before');
      params['before'] = query.before;
    }
    params['limit'] = Math.max(0, Math.min(query.limit ?? DEFAULT_HISTORY_LIMIT, MAX_HISTORY_LIMIT));
    const rows = this.db
      .prepare(`SELECT ${SUMMARY_COLUMNS} FROM matches m ${where.length ? `WHERE ${where.join(' AND ')}` : ''} ORDER BY m.ended_at DESC LIMIT @limit`)
      .all(params) as MatchRow[];
    return rows.map(toSummary);
  }

  ids(): string[] {
    return (this.db.prepare('SELECT id FROM matches ORDER BY ended_at').all() as { id: string }[]).map((row) => row.id);
  }

  get(id: string): MatchRecord | null {
    const row = this.db
      .prepare(`SELECT ${SUMMARY_COLUMNS}, m.spectator_stream, m.vis FROM matches m WHERE m.id = ?`)
      .get(id) as (MatchRow & { spectator_stream: Buffer; vis: string | Buffer }) | undefined;
    if (!row) return null;
    const artifacts = this.db.prepare('SELECT name, content FROM match_artifacts WHERE match_id = ? ORDER BY name').all(id) as { name: string; content: string }[];
    return {
      ...toSummary(row),
      spectatorStream: row.spectator_stream,
      // Kept as a blob when it came as bytes (NewMatchRecord), as text from older servers.
      visJson: typeof row.vis === 'string' ? row.vis : row.vis.toString('utf8'),
      artifacts: Object.fromEntries(artifacts.map((a) => [a.name, a.content])),
    };
  }

  outline(id: string): RecordOutline | null {
    // octet_length reads a value's length from its row header, not the value itself.
    const row = this.db
      .prepare(`SELECT ${SUMMARY_COLUMNS}, octet_length(m.spectator_stream) AS stream_bytes, octet_length(m.vis) AS vis_bytes FROM matches m WHERE m.id = ?`)
      .get(id) as (MatchRow & { stream_bytes: number; vis_bytes: number }) | undefined;
    if (!row) return null;
    const artifacts = this.db.prepare('SELECT name, octet_length(content) AS bytes FROM match_artifacts WHERE match_id = ? ORDER BY name').all(id) as { name: string; bytes: number }[];
    return { ...toSummary(row), streamBytes: row.stream_bytes, visBytes: row.vis_bytes, artifacts };
  }

  /**
   * A part's bytes (text as its UTF-8 bytes), or a range of them: read whole from the file once and
   * kept in the PartCache for the ranges that follow; a part larger than the cache is read a range
   * at a time (substr, which still loads the value whole each time).
   */
  readPart(id: string, part: RecordPart, range?: ByteRange): Buffer | null {
    const key = part.kind === 'artifact' ? `artifact:${part.name}` : part.kind;
    const kept = this.partCache.get(id, key);
    if (kept) return partRange(kept, range);
    const size = this.partSize(id, part);
    if (size === null) return null;
    if (range && size > this.partCache.maxBytes) {
      const slice = this.partQuery(part, 'substr(CAST(%s AS BLOB), ?, ?)').get(Math.max(0, range.offset) + 1, Math.max(0, range.length), id, ...partParams(part)) as Buffer | null | undefined;
      return slice ?? Buffer.alloc(0);
    }
    // CAST: a text value comes as its bytes, with no decoding and encoding again.
    const whole = (this.partQuery(part, 'CAST(%s AS BLOB)').get(id, ...partParams(part)) as Buffer | null | undefined) ?? Buffer.alloc(0);
    if (range) this.partCache.keep(id, key, whole);
    return partRange(whole, range);
  }

  private partSize(id: string, part: RecordPart): number | null {
    const size = this.partQuery(part, 'octet_length(%s)').get(id, ...partParams(part)) as number | null | undefined;
    return size === undefined ? null : (size ?? 0);
  }

  /** One value computed from a part's column (`%s` in `expression`, its own `?` first), of the match `?` (and the artifact `?`). */
  private partQuery(part: RecordPart, expression: string): Database.Statement {
    const column = part.kind === 'artifact' ? 'content' : part.kind === 'stream' ? 'spectator_stream' : 'vis';
    const from = part.kind === 'artifact' ? 'match_artifacts WHERE match_id = ? AND name = ?' : 'matches WHERE id = ?';
    // better-sqlite3 caches nothing itself: three shapes times three columns, prepared once each.
    const sql = `SELECT ${expression.replace('%s', column)} FROM ${from}`;
    let statement = this.partStatements.get(sql);
    if (!statement) {
      statement = this.db.prepare(sql).pluck();
      this.partStatements.set(sql, statement);
    }
    return statement;
  }

  saveTournament(entry: TournamentEntry): void {
    // An upsert, not INSERT OR REPLACE: a replaced row would take a new rowid (its place in the list) and lose its results.
    this.db
      .prepare('INSERT INTO tournaments (id, created_at, body) VALUES (@id, @createdAt, @body) ON CONFLICT (id) DO UPDATE SET created_at = excluded.created_at, body = excluded.body')
      .run(entry);
  }

  addTournamentResult(id: string, index: number, result: string): void {
    this.db.prepare('INSERT OR REPLACE INTO tournament_results (tournament_id, idx, result) VALUES (?, ?, ?)').run(id, index, result);
  }

  tournaments(): StoredTournament[] {
    const rows = this.db.prepare('SELECT id, created_at AS createdAt, body FROM tournaments ORDER BY created_at DESC, rowid DESC').all() as TournamentEntry[];
    const results = this.db.prepare('SELECT result FROM tournament_results WHERE tournament_id = ? ORDER BY idx').pluck();
    return rows.map((row) => ({ ...row, results: results.all(row.id) as string[] }));
  }

  forgetTournament(id: string): void {
    // Its results go with it (ON DELETE CASCADE).
    this.db.prepare('DELETE FROM tournaments WHERE id = ?').run(id);
  }

  claimName(name: string, digest: string): boolean {
    return this.db.prepare('INSERT INTO name_claims (name, digest) VALUES (?, ?) ON CONFLICT (name) DO NOTHING').run(name, digest).changes === 1;
  }

  nameDigest(name: string): string | null {
    return (this.db.prepare('SELECT digest FROM name_claims WHERE name = ?').pluck().get(name) as string | undefined) ?? null;
  }

  replaceNameDigest(name: string, expected: string, next: string): boolean {
    return this.db.prepare('UPDATE name_claims SET digest = ? WHERE name = ? AND digest = ?').run(next, name, expected).changes === 1;
  }

  /** Every claimed name with its digest (for migrate-history). */
  nameClaims(): { name: string; digest: string }[] {
    return this.db.prepare('SELECT name, digest FROM name_claims ORDER BY name').all() as { name: string; digest: string }[];
  }

  releaseName(name: string): boolean {
    return this.db.prepare('DELETE FROM name_claims WHERE name = ?').run(name).changes === 1;
  }

  close(): void {
    this.db.close();
  }
}

function partParams(part: RecordPart): string[] {
  return part.kind === 'artifact' ? [part.name] : [];
}

function toSummary(row: MatchRow): MatchSummary {
  return {
    id: row.id,
    game: row.game,
    name: row.name,
    args: JSON.parse(row.args) as Record<string, string>,
    players: JSON.parse(row.players) as string[],
    bots: row.bots,
    scores: row.scores === null ? null : (JSON.parse(row.scores) as number[]),
    reason: row.reason,
    error: row.error,
    seed: row.seed,
    verified: row.verified === 1,
    startedAt: row.started_at,
    endedAt: row.ended_at,
  };
}

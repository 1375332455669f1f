import pg from 'pg';
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
  type MatchSummary,
  type NewMatchRecord,
  type PlayerRating,
  type ByteRange,
  type RecordOutline,
  type RecordPart,
  type RatingPoint,
  type RatingQuery,
  type StoredTournament,
  type TournamentEntry,
} from './history-store.js';
import { forgetRatingPoints, rateInTransaction, ratingBoard, ratingPoints } from './postgres-ratings.js';
import { migratePostgres } from './postgres-schema.js';
import type { NodeLease } from './node-lease.js';
import { checkNodeLease, registerNodeLease, takeOverNodeLease } from './postgres-node-leases.js';

/**
 * Connections one server keeps to the database. Records are written one transaction at a time
 * (the history_total row lock serializes them anyway), so a few connections leave room for the
 * reads of the web page and `coco history` while a write runs.
 */
export const POSTGRES_POOL_SIZE = 4;

/**
 * How long to wait for a connection (TCP and start-up) before calling the database unreachable:
 * long enough for a database across a slow network, short enough that `cocod` says at start, and
 * a query says during an outage, that it cannot be reached, rather than seeming to hang.
 */
export const POSTGRES_CONNECT_TIMEOUT_MS = 10_000;

export interface PostgresHistoryDbOptions {
  /** Limits not given take their HISTORY_RETENTION_DEFAULTS. */
  readonly retention?: Partial<HistoryRetention>;
  /** Told about a connection the pool lost while idle (the server restarted...): not an error of any request. */
  readonly onIdleError?: (error: Error) => void;
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
  verified: boolean;
  started_at: string;
  ended_at: string;
  players: string[];
}

const SUMMARY_COLUMNS = `m.id, m.game, m.name, m.args, m.bots, m.scores, m.reason, m.error, m.seed, m.verified, m.started_at, m.ended_at,
  coalesce((SELECT array_agg(p.name ORDER BY p.seat) FROM match_players p WHERE p.match_id = m.id), '{}') AS players`;

/** How many of the oldest matches retention reads at first; it reads more only when all of those go. */
const PRUNE_FIRST_PAGE = 64;

/**
 * The history in a PostgreSQL database, one awaited call per operation, no retrying: the
 * HistoryStore in front of it (PostgresHistoryStore) keeps records through an outage, and
 * `cocod migrate-history` writes through it directly.
 */
export class PostgresHistoryDb {
  private constructor(
    private readonly pool: pg.Pool,
    private readonly retention: HistoryRetention,
    /** The schema version after migrating. */
    readonly schemaVersion: number,
  ) {}

  /** Connects, and migrates the schema; rejects (closing the pool) when it cannot. */
  static async open(url: string, options: PostgresHistoryDbOptions = {}): Promise<PostgresHistoryDb> {
    const retention = resolveRetention(options.retention);
    const pool = new pg.Pool({ connectionString: url, max: POSTGRES_POOL_SIZE, connectionTimeoutMillis: POSTGRES_CONNECT_TIMEOUT_MS });
    // Without a listener, an idle connection that the server closes would crash the process.
    pool.on('error', (error) => options.onIdleError?.(error));
    try {
      const client = await pool.connect();
      let version: number;
      try {
        version = await migratePostgres(client);
      } finally {
        client.release();
      }
      return new PostgresHistoryDb(pool, retention, version);
    } catch (error) {
      await pool.end().catch(() => {});
      throw error;
    }
  }

  /**
   * Writes the records in one transaction, all or none, with the ratings they change and the
   * retention applied (with `now`, unix ms, for the age limit). `applyRetention: false` writes
   * without removing anything (migrate-history copies a history whole). A record whose id is
   * stored already is left out: the first record of a match wins. With a `lease`, the write is
   * refused (LeaseTakenOverError, nothing written) when that lease was taken over.
   */
  async write(records: readonly NewMatchRecord[], now: number, applyRetention = true, lease: NodeLease | null = null): Promise<void> {
    await this.transaction(async (client) => {
      // Locks the total's row to the end of the transaction: one writer at a time, on all machines.
      const { rows } = await client.query<{ bytes: string }>('SELECT bytes FROM history_total FOR UPDATE');
      if (lease) await checkNodeLease(client, lease);
      let total = Number(rows[0]!.bytes);
      for (const match of records) total += await insert(client, match);
      if (applyRetention) total -= (await this.removeExpired(client, total, now)).bytes;
      await client.query('UPDATE history_total SET bytes = $1', [total]);
    });
  }

  /** Registers this node's lease, which its writes will carry (postgres-node-leases.ts). */
  registerLease(lease: NodeLease, now: number): Promise<void> {
    return registerNodeLease(this.pool, lease, now);
  }

  /** Fences a dead node's writes before its matches are recorded as lost. */
  takeOverLease(victim: string, by: string, now: number): Promise<void> {
    return takeOverNodeLease(this.pool, victim, by, now);
  }

  /** Applies the retention alone (when a server starts, its limits may have been lowered); returns how many matches it removed. */
  async prune(now: number): Promise<number> {
    let removed = 0;
    await this.transaction(async (client) => {
      const { rows } = await client.query<{ bytes: string }>('SELECT bytes FROM history_total FOR UPDATE');
      const total = Number(rows[0]!.bytes);
      const expired = await this.removeExpired(client, total, now);
      removed = expired.count;
      await client.query('UPDATE history_total SET bytes = $1', [total - expired.bytes]);
    });
    return removed;
  }

  /** The total storedSize of the records kept, which retention holds under `maxBytes`. */
  async storedBytes(): Promise<number> {
    const { rows } = await this.pool.query<{ bytes: string }>('SELECT bytes FROM history_total');
    return Number(rows[0]!.bytes);
  }

  /** Which of these ids are stored (migrate-history skips them). */
  async existing(ids: readonly string[]): Promise<Set<string>> {
    const { rows } = await this.pool.query<{ id: string }>('SELECT id FROM matches WHERE id = ANY($1::text[])', [ids]);
    return new Set(rows.map((row) => row.id));
  }

  async list(query: HistoryQuery = {}): Promise<MatchSummary[]> {
    const where: string[] = [];
    const params: unknown[] = [];
    if (query.game !== undefined) {
      params.push(query.game);
      where.push(`m.game = $${params.length}`);
    }
    if (query.player !== undefined) {
      params.push(query.player);
      where.push(`EXISTS (SELECT 1 FROM match_players p WHERE p.match_id = m.id AND p.name = $${params.length})`);
    }
    if (query.before !== undefined) {
      params.push(query.before);
      where.push(`m.ended_at < $${params.length}`);
    }
    params.push(Math.max(0, Math.min(query.limit ?? DEFAULT_HISTORY_LIMIT, MAX_HISTORY_LIMIT)));
    const { rows } = await this.pool.query<MatchRow>(
      `SELECT ${SUMMARY_COLUMNS} FROM matches m ${where.length ? `WHERE ${where.join(' AND ')}` : ''} ORDER BY m.ended_at DESC, m.seq DESC LIMIT $${params.length}`,
      params,
    );
    return rows.map(toSummary);
  }

  async ids(): Promise<string[]> {
    const { rows } = await this.pool.query<{ id: string }>('SELECT id FROM matches ORDER BY ended_at, seq');
    return rows.map((row) => row.id);
  }

  async get(id: string): Promise<MatchRecord | null> {
    const { rows } = await this.pool.query<MatchRow & { spectator_stream: Buffer; vis: Buffer }>(`SELECT ${SUMMARY_COLUMNS}, m.spectator_stream, m.vis FROM matches m WHERE m.id = $1`, [id]);
    const row = rows[0];
    if (!row) return null;
    const artifacts = await this.pool.query<{ name: string; content: Buffer }>('SELECT name, content FROM match_artifacts WHERE match_id = $1 ORDER BY name COLLATE "C"', [id]);
    return {
      ...toSummary(row),
      spectatorStream: row.spectator_stream,
      visJson: row.vis.toString('utf8'),
      artifacts: Object.fromEntries(artifacts.rows.map((a) => [a.name, a.content.toString('utf8')])),
    };
  }

  async outline(id: string): Promise<RecordOutline | null> {
    // octet_length of a bytea reads its stored length, not its bytes (nor decompresses them).
    const { rows } = await this.pool.query<MatchRow & { stream_bytes: number; vis_bytes: number }>(
      `SELECT ${SUMMARY_COLUMNS}, octet_length(m.spectator_stream) AS stream_bytes, octet_length(m.vis) AS vis_bytes FROM matches m WHERE m.id = $1`,
      [id],
    );
    const row = rows[0];
    if (!row) return null;
    const artifacts = await this.pool.query<{ name: string; bytes: number }>('SELECT name, octet_length(content) AS bytes FROM match_artifacts WHERE match_id = $1 ORDER BY name COLLATE "C"', [id]);
    return { ...toSummary(row), streamBytes: row.stream_bytes, visBytes: row.vis_bytes, artifacts: artifacts.rows };
  }

  /** A part's bytes, or a range of them: `substring` of a bytea fetches (and decompresses) only as far as the range. */
  async readPart(id: string, part: RecordPart, range?: ByteRange): Promise<Buffer | null> {
    const column = part.kind === 'artifact' ? 'content' : part.kind === 'stream' ? 'spectator_stream' : 'vis';
    const from = part.kind === 'artifact' ? 'match_artifacts WHERE match_id = $1 AND name = $2' : 'matches WHERE id = $1';
    const params: unknown[] = part.kind === 'artifact' ? [id, part.name] : [id];
    let value = column;
    if (range) {
      params.push(Math.max(0, range.offset) + 1, Math.max(0, range.length));
      value = `substring(${column} FROM $${params.length - 1}::int FOR $${params.length}::int)`;
    }
    const { rows } = await this.pool.query<{ bytes: Buffer }>(`SELECT ${value} AS bytes FROM ${from}`, params);
    return rows[0] ? rows[0].bytes : null;
  }

  ratingBoard(game: string, query: RatingQuery = {}): Promise<PlayerRating[]> {
    return ratingBoard(this.pool, game, ratingsLimit(query));
  }

  ratingHistory(game: string, player: string, query: RatingQuery = {}): Promise<RatingPoint[]> {
    return ratingPoints(this.pool, game, player, ratingsLimit(query));
  }

  async saveTournament(entry: TournamentEntry): Promise<void> {
    await this.pool.query('INSERT INTO tournaments (id, created_at, body) VALUES ($1, $2, $3) ON CONFLICT (id) DO UPDATE SET created_at = excluded.created_at, body = excluded.body', [entry.id, entry.createdAt, entry.body]);
  }

  async addTournamentResult(id: string, index: number, result: string): Promise<void> {
    await this.pool.query('INSERT INTO tournament_results (tournament_id, idx, result) VALUES ($1, $2, $3) ON CONFLICT (tournament_id, idx) DO UPDATE SET result = excluded.result', [id, index, result]);
  }

  async tournaments(): Promise<StoredTournament[]> {
    const { rows } = await this.pool.query<{ id: string; created_at: string; body: string; results: string[] }>(
      `SELECT t.id, t.created_at, t.body, coalesce((SELECT array_agg(r.result ORDER BY r.idx) FROM tournament_results r WHERE r.tournament_id = t.id), '{}') AS results
       FROM tournaments t ORDER BY t.created_at DESC, t.seq DESC`,
    );
    return rows.map((row) => ({ id: row.id, createdAt: Number(row.created_at), body: row.body, results: row.results }));
  }

  async forgetTournament(id: string): Promise<void> {
    // Its results go with it (ON DELETE CASCADE).
    await this.pool.query('DELETE FROM tournaments WHERE id = $1', [id]);
  }

  async claimName(name: string, digest: string): Promise<boolean> {
    const { rowCount } = await this.pool.query('INSERT INTO name_claims (name, digest) VALUES ($1, $2) ON CONFLICT (name) DO NOTHING', [name, digest]);
    return rowCount === 1;
  }

  async nameDigest(name: string): Promise<string | null> {
    const { rows } = await this.pool.query<{ digest: string }>('SELECT digest FROM name_claims WHERE name = $1', [name]);
    return rows[0]?.digest ?? null;
  }

  async replaceNameDigest(name: string, expected: string, next: string): Promise<boolean> {
    const { rowCount } = await this.pool.query('UPDATE name_claims SET digest = $1 WHERE name = $2 AND digest = $3', [next, name, expected]);
    return rowCount === 1;
  }

  async releaseName(name: string): Promise<boolean> {
    const { rowCount } = await this.pool.query('DELETE FROM name_claims WHERE name = $1', [name]);
    return rowCount === 1;
  }

  async close(): Promise<void> {
    await this.pool.end();
  }

  /**
   * Removes the matches retention selects (selectPruned, shared with the other stores) and
   * their rating points; returns how many, and their bytes. Reads the oldest matches a page at a time:
   * selectPruned stops at the first match kept, so only when a whole page goes is more read.
   */
  private async removeExpired(client: pg.PoolClient, total: number, now: number): Promise<{ count: number; bytes: number }> {
    const { maxBytes, maxAgeDays } = this.retention;
    if (maxAgeDays === 0 && (maxBytes === 0 || total <= maxBytes)) return { count: 0, bytes: 0 };
    let expired: { id: string; endedAt: number; size: number }[];
    for (let page = PRUNE_FIRST_PAGE; ; page *= 4) {
      const { rows } = await client.query<{ id: string; ended_at: string; size: string }>('SELECT id, ended_at, size FROM matches ORDER BY ended_at, seq LIMIT $1', [page]);
      const oldest = rows.map((row) => ({ id: row.id, endedAt: Number(row.ended_at), size: Number(row.size) }));
      expired = selectPruned(oldest, total, this.retention, now);
      // Stopped inside the page, or the page was every match: the answer is the whole table's.
      if (rows.length < page || expired.length < rows.length - 1) break;
    }
    if (expired.length === 0) return { count: 0, bytes: 0 };
    const ids = expired.map((entry) => entry.id);
    await client.query('DELETE FROM matches WHERE id = ANY($1::text[])', [ids]);
    await forgetRatingPoints(client, ids);
    return { count: expired.length, bytes: expired.reduce((sum, entry) => sum + entry.size, 0) };
  }

  private async transaction(body: (client: pg.PoolClient) => Promise<void>): Promise<void> {
    const client = await this.pool.connect();
    let broken: Error | undefined;
    try {
      await client.query('BEGIN');
      await body(client);
      await client.query('COMMIT');
    } catch (error) {
      // A failed ROLLBACK means the connection itself is gone: it is not given back to the pool.
      await client.query('ROLLBACK').catch((rollback: Error) => (broken = rollback));
      throw error;
    } finally {
      client.release(broken);
    }
  }
}

/**
 * Writes one match with the ratings it changes, unless a match of that id is stored already: the
 * first record wins, and a later one (a node that woke after a survivor recorded its matches as
 * lost, a backlog written twice) never overwrites it. Returns how much the stored total grows.
 */
async function insert(client: pg.PoolClient, match: NewMatchRecord): Promise<number> {
  const size = storedSize(match);
  const vis = typeof match.visJson === 'string' ? Buffer.from(match.visJson, 'utf8') : Buffer.from(match.visJson.buffer, match.visJson.byteOffset, match.visJson.byteLength);
  const inserted = await client.query(
    `INSERT INTO matches (id, game, name, args, bots, scores, reason, error, seed, verified, started_at, ended_at, spectator_stream, vis, size)
     VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13, $14, $15) ON CONFLICT (id) DO NOTHING`,
    [
      match.id,
      match.game,
      match.name,
      JSON.stringify(match.args),
      match.bots,
      match.scores ? JSON.stringify(match.scores) : null,
      match.reason,
      match.error,
      match.seed,
      match.verified,
      match.startedAt,
      match.endedAt,
      Buffer.from(match.spectatorStream.buffer, match.spectatorStream.byteOffset, match.spectatorStream.byteLength),
      vis,
      size,
    ],
  );
  if (inserted.rowCount === 0) return 0;
  if (match.players.length) {
    await client.query('INSERT INTO match_players (match_id, seat, name) SELECT $1, seat - 1, name FROM unnest($2::text[]) WITH ORDINALITY AS t(name, seat)', [match.id, match.players]);
  }
  for (const [name, content] of Object.entries(match.artifacts)) {
    await client.query('INSERT INTO match_artifacts (match_id, name, content) VALUES ($1, $2, $3)', [match.id, name, Buffer.from(content, 'utf8')]);
  }
  // In the record's transaction: the match and the ratings it changes are written together.
  await rateInTransaction(client, match);
  return size;
}

function toSummary(row: MatchRow): MatchSummary {
  return {
    id: row.id,
    game: row.game,
    name: row.name,
    args: JSON.parse(row.args) as Record<string, string>,
    players: row.players,
    bots: row.bots,
    scores: row.scores === null ? null : (JSON.parse(row.scores) as number[]),
    reason: row.reason,
    error: row.error,
    seed: row.seed,
    verified: row.verified,
    startedAt: Number(row.started_at),
    endedAt: Number(row.ended_at),
  };
}

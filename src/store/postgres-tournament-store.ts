/**
 * The tournaments of a cluster's nodes in PostgreSQL (the TournamentStore seam,
 * tournament-store.ts): the history's `tournaments` and `tournament_results`
 * tables, with the lease columns of the fourth migration. Every write is one statement or one
 * transaction whose condition is the lease's epoch, so the database itself refuses a node whose
 * lease was taken over, whichever node's write lands first.
 */
import pg from 'pg';
import type { TournamentEntry } from './history-store.js';
import { POSTGRES_CONNECT_TIMEOUT_MS } from './postgres-history-db.js';
import { migratePostgres } from './postgres-schema.js';
import type { SharedTournament, TournamentLease, TournamentStore, TournamentWrite } from './tournament-store.js';

/** Connections for the tournaments, beside the history's own: a write per change and a read per follower's poll. */
export const TOURNAMENT_POOL_SIZE = 2;

interface Row {
  id: string;
  created_at: string;
  body: string;
  results: string[];
  version: string;
  lease_node: string | null;
  lease_epoch: string;
  lease_until: string | null;
  stop_asked: boolean;
}

const SELECT = `SELECT t.id, t.created_at, t.body, t.version, t.lease_node, t.lease_epoch, t.lease_until, t.stop_asked,
  coalesce((SELECT array_agg(r.result ORDER BY r.idx) FROM tournament_results r WHERE r.tournament_id = t.id), '{}') AS results
  FROM tournaments t`;

export class PostgresTournamentStore implements TournamentStore {
  private constructor(private readonly pool: pg.Pool) {}

  /** Connects and brings the schema up to date (as the history store does; the two may start in either order). */
  static async open(url: string, onIdleError: (error: Error) => void = () => {}): Promise<PostgresTournamentStore> {
    const pool = new pg.Pool({ connectionString: url, max: TOURNAMENT_POOL_SIZE, connectionTimeoutMillis: POSTGRES_CONNECT_TIMEOUT_MS });
    pool.on('error', onIdleError);
    try {
      const client = await pool.connect();
      try {
        await migratePostgres(client);
      } finally {
        client.release();
      }
      return new PostgresTournamentStore(pool);
    } catch (error) {
      await pool.end().catch(() => {});
      throw error;
    }
  }

  async create(entry: TournamentEntry, node: string, until: number): Promise<TournamentLease> {
    // A plain INSERT: an id taken is a unique violation, as the contract asks.
    await this.pool.query('INSERT INTO tournaments (id, created_at, body, version, lease_node, lease_epoch, lease_until) VALUES ($1, $2, $3, 1, $4, 1, $5)', [entry.id, entry.createdAt, entry.body, node, until]);
    return { node, epoch: 1, until };
  }

  async get(id: string): Promise<SharedTournament | null> {
    const { rows } = await this.pool.query<Row>(`${SELECT} WHERE t.id = $1`, [id]);
    return rows[0] ? shared(rows[0]) : null;
  }

  async list(): Promise<SharedTournament[]> {
    const { rows } = await this.pool.query<Row>(`${SELECT} ORDER BY t.created_at DESC, t.seq DESC`);
    return rows.map(shared);
  }

  async write(id: string, epoch: number, change: TournamentWrite): Promise<boolean> {
    const client = await this.pool.connect();
    try {
      await client.query('BEGIN');
      // The row lock holds off a takeover until this write is in or refused.
      const { rowCount } = await client.query(
        `UPDATE tournaments SET version = version + CASE WHEN $6::boolean THEN 1 ELSE 0 END,
           body = coalesce($3, body),
           lease_until = CASE WHEN $4::boolean THEN $5::bigint ELSE lease_until END
         WHERE id = $1 AND lease_epoch = $2`,
        [id, epoch, change.body ?? null, change.until !== undefined, change.until ?? null, change.body !== undefined || change.results !== undefined],
      );
      if (rowCount !== 1) {
        await client.query('ROLLBACK');
        return false;
      }
      const { from, lines } = change.results ?? { from: 0, lines: [] };
      for (const [i, line] of lines.entries()) {
        await client.query('INSERT INTO tournament_results (tournament_id, idx, result) VALUES ($1, $2, $3) ON CONFLICT (tournament_id, idx) DO UPDATE SET result = excluded.result', [id, from + i, line]);
      }
      await client.query('COMMIT');
      return true;
    } catch (error) {
      await client.query('ROLLBACK').catch(() => {});
      throw error;
    } finally {
      client.release();
    }
  }

  async orphans(now: number): Promise<string[]> {
    const { rows } = await this.pool.query<{ id: string }>('SELECT id FROM tournaments WHERE lease_until IS NOT NULL AND lease_until < $1 ORDER BY created_at, seq', [now]);
    return rows.map((row) => row.id);
  }

  async takeOver(id: string, node: string, now: number, until: number): Promise<TournamentLease | null> {
    const { rows } = await this.pool.query<{ lease_epoch: string }>(
      `UPDATE tournaments SET lease_node = $2, lease_epoch = lease_epoch + 1, lease_until = $4, version = version + 1
       WHERE id = $1 AND lease_until IS NOT NULL AND lease_until < $3 RETURNING lease_epoch`,
      [id, node, now, until],
    );
    return rows[0] ? { node, epoch: Number(rows[0].lease_epoch), until } : null;
  }

  async askStop(id: string): Promise<boolean> {
    const { rowCount } = await this.pool.query('UPDATE tournaments SET stop_asked = true, version = version + 1 WHERE id = $1', [id]);
    return rowCount === 1;
  }

  async forget(id: string): Promise<void> {
    await this.pool.query('DELETE FROM tournaments WHERE id = $1', [id]);
  }

  async close(): Promise<void> {
    await this.pool.end();
  }
}

function shared(row: Row): SharedTournament {
  return {
    id: row.id,
    createdAt: Number(row.created_at),
    body: row.body,
    results: row.results,
    version: Number(row.version),
    lease: { node: row.lease_node ?? '', epoch: Number(row.lease_epoch), until: row.lease_until === null ? null : Number(row.lease_until) },
    stopAsked: row.stop_asked,
  };
}

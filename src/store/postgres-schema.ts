import type pg from 'pg';

/**
 * The PostgreSQL history's schema migrations, applied in order, each once: `history_schema`
 * holds one row per migration applied. Written for PostgreSQL 12 and later.
 *
 * Differences from the SQLite schema, and why:
 * - `vis` and artifact contents are BYTEA, not TEXT: PostgreSQL refuses a NUL character in TEXT
 *   and checks every TEXT value's encoding, while these are the largest values and arrive as
 *   bytes (NewMatchRecord) or as text a game produced; bytes are stored as they come.
 * - each match's storedSize is a column of `matches` (the SQLite file needed a table of its own
 *   only to upgrade old files cheaply), and `history_total` keeps their sum in one row. Every
 *   write updates that row first, so the row lock serializes writers from all machines: the
 *   running total, retention and the ratings' read-modify-write each see one writer at a time.
 * - `seq` orders matches that ended at the same millisecond in the order they were recorded
 *   (SQLite's rowid does that there); `rating_history.seq` does the same for rating points.
 */
export const POSTGRES_MIGRATIONS: readonly string[] = [
  `CREATE TABLE matches (
     id TEXT PRIMARY KEY,
     seq BIGSERIAL NOT NULL,
     game TEXT NOT NULL,
     name TEXT NOT NULL,
     args TEXT NOT NULL,
     bots INTEGER NOT NULL,
     scores TEXT,
     reason TEXT NOT NULL,
     error TEXT,
     seed TEXT NOT NULL,
     verified BOOLEAN NOT NULL,
     started_at BIGINT NOT NULL,
     ended_at BIGINT NOT NULL,
     spectator_stream BYTEA NOT NULL,
     vis BYTEA NOT NULL,
     size BIGINT NOT NULL
   );
   CREATE TABLE match_players (
     match_id TEXT NOT NULL REFERENCES matches(id) ON DELETE CASCADE,
     seat INTEGER NOT NULL,
     name TEXT NOT NULL,
     PRIMARY KEY (match_id, seat)
   );
   CREATE TABLE match_artifacts (
     match_id TEXT NOT NULL REFERENCES matches(id) ON DELETE CASCADE,
     name TEXT NOT NULL,
     content BYTEA NOT NULL,
     PRIMARY KEY (match_id, name)
   );
   CREATE INDEX matches_by_end ON matches (ended_at, seq);
   CREATE INDEX matches_by_game ON matches (game, ended_at);
   CREATE INDEX players_by_name ON match_players (name);
   CREATE TABLE history_total (
     only_row BOOLEAN PRIMARY KEY DEFAULT TRUE CHECK (only_row),
     bytes BIGINT NOT NULL
   );
   INSERT INTO history_total (bytes) VALUES (0);`,
  // The ratings (PlayerRating, RatingPoint). rating_history has no foreign key to matches (when
  // this was written, recording a match again replaced its row, which must not lose its points;
  // now the first record wins); retention deletes a removed match's points itself (as in SQLite).
  `CREATE TABLE ratings (
     game TEXT NOT NULL,
     player TEXT NOT NULL,
     mu DOUBLE PRECISION NOT NULL,
     sigma DOUBLE PRECISION NOT NULL,
     games INTEGER NOT NULL,
     PRIMARY KEY (game, player)
   );
   CREATE INDEX ratings_by_rating ON ratings (game, (mu - 3 * sigma) DESC, player COLLATE "C");
   CREATE TABLE rating_history (
     match_id TEXT NOT NULL,
     seq BIGSERIAL NOT NULL,
     game TEXT NOT NULL,
     player TEXT NOT NULL,
     ended_at BIGINT NOT NULL,
     mu DOUBLE PRECISION NOT NULL,
     sigma DOUBLE PRECISION NOT NULL,
     PRIMARY KEY (match_id, player)
   );
   CREATE INDEX rating_history_by_player ON rating_history (game, player, ended_at, seq);`,
  // Server tournaments (TournamentEntry): a row each, and their results added one at a time;
  // `seq` orders tournaments created at the same millisecond (SQLite's rowid does there).
  `CREATE TABLE tournaments (
     id TEXT PRIMARY KEY,
     seq BIGSERIAL NOT NULL,
     created_at BIGINT NOT NULL,
     body TEXT NOT NULL
   );
   CREATE TABLE tournament_results (
     tournament_id TEXT NOT NULL REFERENCES tournaments(id) ON DELETE CASCADE,
     idx INTEGER NOT NULL,
     result TEXT NOT NULL,
     PRIMARY KEY (tournament_id, idx)
   );`,
  // Claimed player names (src/names/): the SHA-256 of each name's token, never the token.
  `CREATE TABLE name_claims (
     name TEXT PRIMARY KEY,
     digest TEXT NOT NULL
   );`,
  // Tournaments shared by the nodes of a cluster (src/tournament/tournament-store.ts): the lease
  // of the node that runs one (its epoch fences every write), a version that every write counts,
  // and a stop asked through another node. A tournament the single-node archive kept has epoch 0
  // and no lease: nobody runs it.
  `ALTER TABLE tournaments
     ADD COLUMN version BIGINT NOT NULL DEFAULT 0,
     ADD COLUMN lease_node TEXT,
     ADD COLUMN lease_epoch BIGINT NOT NULL DEFAULT 0,
     ADD COLUMN lease_until BIGINT,
     ADD COLUMN stop_asked BOOLEAN NOT NULL DEFAULT false;
   CREATE INDEX tournaments_by_lease ON tournaments (lease_until) WHERE lease_until IS NOT NULL;`,
];

/**
 * The key of the session advisory lock held while migrating: nodes on several machines may start
 * together against an empty database, and only one of them may create the tables. Any fixed
 * 64-bit number unlikely to be used by another application sharing the database ("coco" + 1).
 */
export const MIGRATION_LOCK_KEY = 0x636f_636f_0001n;

/**
 * Brings the database's schema to the newest version, each missing migration in its own
 * transaction, under MIGRATION_LOCK_KEY; returns the version. Refuses a database whose schema is
 * newer than this server knows, touching nothing.
 */
export async function migratePostgres(client: pg.ClientBase, migrations: readonly string[] = POSTGRES_MIGRATIONS): Promise<number> {
  await client.query('SELECT pg_advisory_lock($1)', [MIGRATION_LOCK_KEY.toString()]);
  try {
    // Looked up first: CREATE TABLE IF NOT EXISTS needs the right to create tables even when the
    // table is there, and a server may run as a user that can only read and write them.
    const { rows: found } = await client.query<{ table: string | null }>(`SELECT to_regclass('history_schema')::text AS table`);
    if (found[0]?.table === null) {
      await client.query(`CREATE TABLE history_schema (
         version INTEGER PRIMARY KEY,
         applied_at TIMESTAMPTZ NOT NULL DEFAULT now()
       )`);
    }
    const { rows } = await client.query<{ version: number | null }>('SELECT max(version) AS version FROM history_schema');
    const applied = rows[0]?.version ?? 0;
    if (applied > migrations.length) {
      throw new Error(`the history database has schema version ${applied}, newer than this server knows (${migrations.length})`);
    }
    for (let version = applied; version < migrations.length; version++) {
      await client.query('BEGIN');
      try {
        await client.query(migrations[version]!);
        await client.query('INSERT INTO history_schema (version) VALUES ($1)', [version + 1]);
        await client.query('COMMIT');
      } catch (error) {
        await client.query('ROLLBACK');
        throw error;
      }
    }
    return migrations.length;
  } finally {
    // A session lock dies with its connection: when the connection is what failed, there is
    // nothing to release, and the first error is the one to report.
    await client.query('SELECT pg_advisory_unlock($1)', [MIGRATION_LOCK_KEY.toString()]).catch(() => {});
  }
}

import { existsSync } from 'node:fs';
import { PostgresHistoryDb } from './postgres-history-db.js';
import { SqliteHistoryDb } from './sqlite-history-db.js';
import type { MatchRecord } from './history-store.js';

/**
 * Matches copied per transaction: a batch is read from the file and written in one commit (one
 * round of queries, not one per match), small enough that a batch of large matches (artifacts
 * of MiBs) stays a modest transaction. `--batch N` changes it.
 */
export const DEFAULT_MIGRATE_BATCH = 200;

export interface MigrateProgress {
  /** Matches in the history file. */
  readonly total: number;
  /** Matches looked at so far. */
  readonly done: number;
  /** Of those, copied by this run. */
  readonly copied: number;
  /** Of those, already in PostgreSQL (copied by an earlier run, or recorded there). */
  readonly skipped: number;
}

export interface MigrateOptions {
  readonly batch?: number;
  /** Called after each batch. */
  readonly progress?: (progress: MigrateProgress) => void;
  /** The time written with each batch (unix ms); only for tests. */
  readonly now?: () => number;
}

/**
 * Copies an SQLite history file (`cocod --database FILE`) into a PostgreSQL database, oldest
 * match first, in batches: every match with its players, spectator stream, visualizer events and
 * artifacts. A match whose id PostgreSQL already holds is skipped, so a second run (or a run after
 * an interrupted one) copies nothing twice. Ratings are rebuilt as the matches arrive, in the
 * order they ended, by the same code and in the same transaction as a live record: the
 * leaderboard in PostgreSQL is the one of the history copied. Nothing is removed on the way
 * (retention applies when a server next records). Then the server tournaments the file keeps are
 * copied with their results, those whose id PostgreSQL holds skipped (they are not counted in the
 * progress, which is about matches).
 *
 * The file is opened as cocod opens it: one written by an older server is upgraded in place first.
 */
export async function migrateHistory(file: string, url: string, options: MigrateOptions = {}): Promise<MigrateProgress> {
  const batch = options.batch ?? DEFAULT_MIGRATE_BATCH;
  if (!Number.isInteger(batch) || batch < 1) throw new RangeError(`the batch size must be a whole number >= 1, not ${batch}`);
  // better-sqlite3 would create a missing file: an empty history copied is a mistake, not a success.
  if (!existsSync(file)) throw new Error(`no such history file: ${file}`);
  const now = options.now ?? Date.now;
  const source = new SqliteHistoryDb(file);
  try {
    const target = await PostgresHistoryDb.open(url);
    try {
      const ids = source.ids();
      let copied = 0;
      let skipped = 0;
      for (let at = 0; at < ids.length; at += batch) {
        const slice = ids.slice(at, at + batch);
        const present = await target.existing(slice);
        const records = slice.filter((id) => !present.has(id)).map((id) => source.get(id)).filter((record): record is MatchRecord => record !== null);
        if (records.length) await target.write(records, now(), false);
        copied += records.length;
        skipped += present.size;
        options.progress?.({ total: ids.length, done: Math.min(at + batch, ids.length), copied, skipped });
      }
      const present = new Set((await target.tournaments()).map((t) => t.id));
      // Oldest first, so that tournaments created at the same millisecond keep their order.
      for (const tournament of source.tournaments().reverse()) {
        if (present.has(tournament.id)) continue;
        await target.saveTournament(tournament);
        for (const [index, result] of tournament.results.entries()) await target.addTournamentResult(tournament.id, index, result);
      }
      // Claimed names go with the ratings they protect; a name PostgreSQL has claimed already keeps its token there.
      for (const { name, digest } of source.nameClaims()) await target.claimName(name, digest);
      return { total: ids.length, done: ids.length, copied, skipped };
    } finally {
      await target.close();
    }
  } finally {
    source.close();
  }
}

import type { HistoryStore, HistoryRetention } from './history-store.js';
import { MemoryHistoryStore } from './memory-history-store.js';
import { maskedUrl } from './postgres-connection.js';
import { SqliteHistoryStore } from './sqlite-history-store.js';
import type { Clock } from '../util/clock.js';
import type { Log } from '../util/log.js';

/** Where the server keeps its history, as its options say (`--database FILE` or `--postgres URL`). */
export interface HistoryLocation {
  /** An SQLite file, or ':memory:'; unused when `postgres` is given. */
  readonly database: string;
  readonly postgres?: string | undefined;
}

export interface OpenHistoryOptions {
  readonly retention: HistoryRetention;
  /** The PostgreSQL store's outage backlog budget (history-backlog-max-bytes). */
  readonly backlogMaxBytes: number;
  readonly clock: Clock;
  readonly log: Log;
}

/** Opens the store the options choose: PostgreSQL, an SQLite file, or memory. */
export async function openHistoryStore(where: HistoryLocation, options: OpenHistoryOptions): Promise<HistoryStore> {
  const { retention, clock, log } = options;
  if (where.postgres !== undefined) {
    // Loaded only here: a server without PostgreSQL does not carry the driver in its memory.
    const { PostgresHistoryStore } = await import('./postgres-history-store.js');
    const store = await PostgresHistoryStore.open(where.postgres, { retention, clock, log, backlogMaxBytes: options.backlogMaxBytes });
    log.info(`history in PostgreSQL at ${maskedUrl(where.postgres)} (schema version ${store.schemaVersion})`);
    return store;
  }
  if (where.database === ':memory:') return new MemoryHistoryStore({ retention, clock });
  return SqliteHistoryStore.open(where.database, { retention, clock });
}

/** The history's location as it may be logged: a PostgreSQL URL with its password masked. */
export function historyLabel(where: HistoryLocation): string {
  return where.postgres !== undefined ? maskedUrl(where.postgres) : where.database;
}

import type { HistoryLocation } from '../store/open-history-store.js';
import type { ArenaStore } from './arena-store.js';
import { MemoryArenaStore } from './memory-arena-store.js';

/** The arena store beside the history: in its PostgreSQL database, its SQLite file, or in memory when the history is. */
export async function openArenaStore(where: HistoryLocation): Promise<ArenaStore> {
  if (where.postgres !== undefined) {
    const { PostgresArenaStore } = await import('./postgres-arena-store.js');
    return PostgresArenaStore.open(where.postgres);
  }
  if (where.database === ':memory:') return new MemoryArenaStore();
  const { SqliteArenaStore } = await import('./sqlite-arena-store.js');
  return new SqliteArenaStore(where.database);
}

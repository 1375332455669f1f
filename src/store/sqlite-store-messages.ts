import type { HistoryQuery, MatchRecord } from './history-store.js';

/** What SqliteHistoryStore asks its worker thread (sqlite-store-worker.ts). */
export type StoreRequest =
  | { readonly id: number; readonly op: 'record'; readonly record: MatchRecord }
  | { readonly id: number; readonly op: 'list'; readonly query: HistoryQuery }
  | { readonly id: number; readonly op: 'ids' }
  | { readonly id: number; readonly op: 'get'; readonly matchId: string }
  | { readonly id: number; readonly op: 'close' };

/** The answer to the request with the same id; id 0 is the worker's report that the file is open. */
export type StoreReply = { readonly id: number; readonly ok: true; readonly value: unknown } | { readonly id: number; readonly ok: false; readonly error: string };

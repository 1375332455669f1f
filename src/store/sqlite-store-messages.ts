import type { ByteRange, RecordPart, HistoryQuery, HistoryRetention, NewMatchRecord, RatingQuery, TournamentEntry } from './history-store.js';

/**
 * A structured clone turns a Buffer into a plain Uint8Array; this views it as a Buffer again
 * (SQLite binds a BLOB from a Buffer, and MatchRecord promises one), without copying.
 */
export function asBuffer(bytes: Uint8Array): Buffer {
  return Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength);
}

/**
 * What the worker thread is started with. The time comes from the main thread's clock (here and
 * with each record) rather than the worker's own, so that tests controlling that clock control
 * retention's age limit too.
 */
export interface StoreWorkerData {
  readonly file: string;
  readonly retention: HistoryRetention;
  /** Unix ms when the file is opened, for the retention applied then. */
  readonly now: number;
}

/** What SqliteHistoryStore asks its worker thread (sqlite-store-worker.ts). */
export type StoreRequest =
  /** `now`: unix ms when the record was sent, for the age limit applied when it is written. */
  | { readonly id: number; readonly op: 'record'; readonly record: NewMatchRecord; readonly now: number }
  | { readonly id: number; readonly op: 'list'; readonly query: HistoryQuery }
  | { readonly id: number; readonly op: 'ids' }
  | { readonly id: number; readonly op: 'get'; readonly matchId: string }
  | { readonly id: number; readonly op: 'outline'; readonly matchId: string }
  | { readonly id: number; readonly op: 'readPart'; readonly matchId: string; readonly part: RecordPart; readonly range: ByteRange | undefined }
  | { readonly id: number; readonly op: 'ratings'; readonly game: string; readonly query: RatingQuery }
  | { readonly id: number; readonly op: 'ratingHistory'; readonly game: string; readonly player: string; readonly query: RatingQuery }
  | { readonly id: number; readonly op: 'saveTournament'; readonly tournament: TournamentEntry }
  | { readonly id: number; readonly op: 'addTournamentResult'; readonly tournamentId: string; readonly index: number; readonly result: string }
  | { readonly id: number; readonly op: 'tournaments' }
  | { readonly id: number; readonly op: 'forgetTournament'; readonly tournamentId: string }
  | { readonly id: number; readonly op: 'claimName'; readonly name: string; readonly digest: string }
  | { readonly id: number; readonly op: 'nameDigest'; readonly name: string }
  | { readonly id: number; readonly op: 'replaceNameDigest'; readonly name: string; readonly expected: string; readonly next: string }
  | { readonly id: number; readonly op: 'releaseName'; readonly name: string }
  | { readonly id: number; readonly op: 'close' };

/** The answer to the request with the same id; id 0 is the worker's report that the file is open. */
export type StoreReply = { readonly id: number; readonly ok: true; readonly value: unknown } | { readonly id: number; readonly ok: false; readonly error: string };

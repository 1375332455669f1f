/** Everything kept about a finished match. */
export interface MatchRecord {
  readonly id: string;
  readonly game: string;
  readonly name: string;
  readonly args: Readonly<Record<string, string>>;
  /** Seat names in seat order, bots included. */
  readonly players: readonly string[];
  readonly bots: number;
  /** One score per seat, or null when the game failed. */
  readonly scores: readonly number[] | null;
  readonly reason: string;
  /** What went wrong with the game itself, or null. */
  readonly error: string | null;
  readonly seed: string;
  readonly verified: boolean;
  /** Unix milliseconds. */
  readonly startedAt: number;
  readonly endedAt: number;
  /** The whole spectator stream. */
  readonly spectatorStream: Buffer;
  /** The visualizer events, as the text of one JSON array (kept and served as text). */
  readonly visJson: string;
  /** Texts the game attached (an external game's replay log...), by name. */
  readonly artifacts: Readonly<Record<string, string>>;
}

/**
 * The store cannot answer now (its database is unreachable) but may later: the front doors
 * answer it as "try again later" (HTTP 503, WebSocket close 1013) rather than as a server bug.
 * Its message names the store (a URL's password masked) and says why.
 */
export class HistoryUnavailableError extends Error {
  readonly code = 'history/unavailable';
  override readonly name = 'HistoryUnavailableError';
}

export type MatchSummary = Omit<MatchRecord, 'spectatorStream' | 'visJson' | 'artifacts'>;

/**
 * A record as it is written. Its visualizer events may come as the UTF-8 bytes of their JSON text:
 * a match's events are its largest part, and bytes are stored as they are, while a string is
 * encoded on the way (SQLite keeps UTF-8) at several nanoseconds a byte. They are read back as text.
 */
export type NewMatchRecord = Omit<MatchRecord, 'visJson'> & { readonly visJson: string | Uint8Array };

/**
 * One part of a record, read without the rest: an artifact by name, the spectator stream, or the
 * visualizer events (the UTF-8 bytes of their JSON text). The HTTP API serves each as it is stored,
 * and the replays read the events, in slices paced by the client.
 */
export type RecordPart = { readonly kind: 'artifact'; readonly name: string } | { readonly kind: 'stream' } | { readonly kind: 'vis' };

/** Bytes `offset` to `offset + length` of a part (fewer at its end, none past it). */
export interface ByteRange {
  readonly offset: number;
  readonly length: number;
}

/** A record's summary and the size of each of its parts, without their bytes. */
export interface RecordOutline extends MatchSummary {
  readonly streamBytes: number;
  readonly visBytes: number;
  /** The artifacts' names with their sizes (UTF-8 bytes), in the order `get` gives them. */
  readonly artifacts: readonly { readonly name: string; readonly bytes: number }[];
}

/** The bytes of a part, or of the range asked, as the store holds them (text parts as UTF-8). */
export function partRange(bytes: Buffer, range?: ByteRange): Buffer {
  if (!range) return bytes;
  const start = Math.min(Math.max(0, range.offset), bytes.length);
  return bytes.subarray(start, Math.min(bytes.length, start + Math.max(0, range.length)));
}

export interface HistoryQuery {
  readonly game?: string;
  /** Matches where a seat has exactly this name. */
  readonly player?: string;
  /** Only matches that ended before this time (unix ms), for paging. */
  readonly before?: number;
  readonly limit?: number;
}

/**
 * Where finished matches are kept. One small interface with an SQLite default and an in-memory
 * implementation; both pass the same contract tests. Both take a HistoryRetention when created
 * and apply it as part of `record`: a removed match is gone from `list`, `ids` and `get`, with
 * its players and artifacts.
 */
export interface HistoryStore {
  record(match: NewMatchRecord): Promise<void>;
  /** Newest first. */
  list(query?: HistoryQuery): Promise<MatchSummary[]>;
  /** Every stored id, oldest first (the reference's HistoryMatchList). */
  ids(): Promise<string[]>;
  get(id: string): Promise<MatchRecord | null>;
  /** The record's summary and the sizes of its parts, or null when no such match is kept. */
  outline(id: string): Promise<RecordOutline | null>;
  /**
   * One part's bytes (only `range` of them when given), or null when the match or the part does
   * not exist. A large part is read a range at a time: the store never hands it over whole unless asked.
   */
  readPart(id: string, part: RecordPart, range?: ByteRange): Promise<Buffer | null>;
  /** The game's leaderboard: best displayed rating first, then by name. */
  ratings(game: string, query?: RatingQuery): Promise<PlayerRating[]>;
  /** A player's rating after each of their rated matches still kept, oldest first (the newest `limit`). */
  ratingHistory(game: string, player: string, query?: RatingQuery): Promise<RatingPoint[]>;
  /**
   * Writes a server tournament's body: creates it, or replaces the body of the one with this id
   * (keeping its place in the list and its results).
   */
  saveTournament(tournament: TournamentEntry): Promise<void>;
  /** Keeps result number `index` (0 first) of a saved tournament, replacing one of that index. */
  addTournamentResult(id: string, index: number, result: string): Promise<void>;
  /** Every tournament kept, newest first (by `createdAt`; of equal times, the one first saved last), each with its results by index. */
  tournaments(): Promise<StoredTournament[]>;
  /** Removes a tournament and its results (its matches stay in the history). */
  forgetTournament(id: string): Promise<void>;
  /** Claimed player names (src/names/): the store keeps each name's token digest, never the token. */
  claimName(name: string, digest: string): Promise<boolean>;
  /** The digest of `name`'s token, or null when the name is not claimed. */
  nameDigest(name: string): Promise<string | null>;
  /** Replaces `name`'s digest if it is still `expected`; false when it is not (or the name is free). */
  replaceNameDigest(name: string, expected: string, next: string): Promise<boolean>;
  /** Frees `name`; false when it was not claimed. */
  releaseName(name: string): Promise<boolean>;
  close(): Promise<void>;
}

/**
 * The part of a history store that keeps claimed names: what src/names/ needs, so that its
 * in-memory default does not have to be a whole history store. `claimName` is atomic: of two
 * claims of one name, one gets true. Digests are lowercase hex text (the same over IPC and SQL).
 */
export type NameClaimTable = Pick<HistoryStore, 'claimName' | 'nameDigest' | 'replaceNameDigest' | 'releaseName'>;

/**
 * A server tournament as the store keeps it. The store knows only its id and creation time; the
 * texts are the tournament's own (src/tournament/tournament-record.ts writes and reads them), so
 * that the tournament's shape can change without a migration of every store. Its results are
 * added one at a time as its matches end, so a long tournament is never written again whole.
 * How many are kept is the tournaments' business (`tournaments-kept`): nothing here removes one.
 */
export interface TournamentEntry {
  readonly id: string;
  /** Unix ms. */
  readonly createdAt: number;
  /** Everything but its results, as JSON text. */
  readonly body: string;
}

export interface StoredTournament extends TournamentEntry {
  /** Its results, one JSON text each, by index. */
  readonly results: readonly string[];
}

/**
 * A player's current rating in one game (src/ratings/rating.ts). Recording a verified match with
 * scores updates its players' ratings as part of `record`, in the same transaction, once per match
 * id (recording a match again does not rate it again). The rating counts every rated match ever
 * recorded; the history of it (RatingPoint) goes with the matches retention removes.
 */
export interface PlayerRating {
  readonly player: string;
  readonly mu: number;
  readonly sigma: number;
  /** mu - 3 sigma: what the leaderboard shows and sorts by. */
  readonly rating: number;
  /** Rated matches played. */
  readonly games: number;
}

/** A player's rating right after one rated match. */
export interface RatingPoint {
  readonly matchId: string;
  /** When the match ended (unix ms). */
  readonly endedAt: number;
  readonly mu: number;
  readonly sigma: number;
  readonly rating: number;
}

export interface RatingQuery {
  readonly limit?: number;
}

export const DEFAULT_RATINGS_LIMIT = 100;
export const MAX_RATINGS_LIMIT = 1000;

/** A query's limit within [0, MAX_RATINGS_LIMIT], DEFAULT_RATINGS_LIMIT when not given. */
export function ratingsLimit(query: RatingQuery = {}): number {
  return Math.max(0, Math.min(query.limit ?? DEFAULT_RATINGS_LIMIT, MAX_RATINGS_LIMIT));
}

export const DEFAULT_HISTORY_LIMIT = 100;
export const MAX_HISTORY_LIMIT = 1000;

/**
 * How much history a store keeps. Retention removes the oldest records (by `endedAt`) until both
 * limits hold, as part of recording, so an open server's history stops growing without bound.
 * A limit of 0 is no limit.
 */
export interface HistoryRetention {
  /**
   * The most bytes the records may take together, as `storedSize` counts them. The SQLite file is
   * somewhat larger than this (pages are not full, indexes, the write-ahead log), not a multiple.
   */
  readonly maxBytes: number;
  /** Records that ended more than this many days ago are removed (fractions allowed). */
  readonly maxAgeDays: number;
}

/**
 * 1 GiB holds thousands of typical matches (a few KiB to a few MiB each) yet fits any disk a
 * server runs on; age is not limited, because how long a history is wanted is the operator's
 * choice, while its size is what an open server must bound.
 */
export const HISTORY_RETENTION_DEFAULTS: HistoryRetention = { maxBytes: 1024 * 1024 * 1024, maxAgeDays: 0 };

export const DAY_MS = 24 * 60 * 60 * 1000;

/** What both store implementations take when they are created. */
export interface HistoryStoreOptions {
  /** Limits not given take their HISTORY_RETENTION_DEFAULTS. */
  readonly retention?: Partial<HistoryRetention>;
  /** Where the age limit's "now" comes from (the server's Clock); the system clock by default. */
  readonly clock?: { now(): number };
}

/** The retention with defaults filled in; a negative or non-numeric limit is refused. */
export function resolveRetention(retention: Partial<HistoryRetention> = {}): HistoryRetention {
  const resolved = { ...HISTORY_RETENTION_DEFAULTS, ...retention };
  for (const [name, value] of Object.entries(resolved)) {
    // `>= 0` is false for NaN and non-numbers as well as negatives.
    if (!(typeof value === 'number' && value >= 0)) throw new RangeError(`history retention ${name} must be a number >= 0 (0 = no limit), not ${String(value)}`);
  }
  return resolved;
}

/**
 * What a record counts against `maxBytes`: the bytes of every text (as UTF-8) and blob it holds.
 * Counted once when the record is written, so that retention keeps a running total and never
 * has to measure stored blobs again. The SQLite store's migration 3 computes the same sum in SQL
 * for rows written before it: the two must change together.
 */
export function storedSize(match: NewMatchRecord): number {
  let size = match.spectatorStream.byteLength + (typeof match.visJson === 'string' ? Buffer.byteLength(match.visJson) : match.visJson.byteLength);
  for (const text of [match.id, match.game, match.name, JSON.stringify(match.args), match.reason, match.seed, ...match.players]) {
    size += Buffer.byteLength(text);
  }
  if (match.scores) size += Buffer.byteLength(JSON.stringify(match.scores));
  if (match.error !== null) size += Buffer.byteLength(match.error);
  for (const [name, content] of Object.entries(match.artifacts)) size += Buffer.byteLength(name) + Buffer.byteLength(content);
  return size;
}

/** A stored record as retention sees it. */
export interface RetainedEntry {
  readonly endedAt: number;
  readonly size: number;
}

/**
 * The records retention removes, given every record oldest first (by `endedAt`) and their total
 * size: the oldest ones, as long as a record ended before the age cutoff or the total is over
 * `maxBytes`. The newest record always stays, so a single record larger than `maxBytes` is kept
 * (until a newer one arrives) and recording never loses the history's last match. Both stores
 * use this, so they keep exactly the same records. It stops reading at the first record kept.
 */
export function selectPruned<T extends RetainedEntry>(oldestFirst: Iterable<T>, totalBytes: number, retention: HistoryRetention, now: number): T[] {
  const maxBytes = retention.maxBytes > 0 ? retention.maxBytes : Infinity;
  const cutoff = retention.maxAgeDays > 0 ? now - retention.maxAgeDays * DAY_MS : -Infinity;
  const pruned: T[] = [];
  let remaining = totalBytes;
  for (const entry of oldestFirst) {
    if (remaining <= maxBytes && entry.endedAt >= cutoff) return pruned;
    pruned.push(entry);
    remaining -= entry.size;
  }
  // Every record qualified: the last one read is the newest, which stays.
  pruned.pop();
  return pruned;
}

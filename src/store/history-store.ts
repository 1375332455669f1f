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

export type MatchSummary = Omit<MatchRecord, 'spectatorStream' | 'visJson' | 'artifacts'>;

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
 * implementation; both pass the same contract tests.
 */
export interface HistoryStore {
  record(match: MatchRecord): Promise<void>;
  /** Newest first. */
  list(query?: HistoryQuery): Promise<MatchSummary[]>;
  /** Every stored id, oldest first (the reference's HistoryMatchList). */
  ids(): Promise<string[]>;
  get(id: string): Promise<MatchRecord | null>;
  close(): Promise<void>;
}

export const DEFAULT_HISTORY_LIMIT = 100;
export const MAX_HISTORY_LIMIT = 1000;

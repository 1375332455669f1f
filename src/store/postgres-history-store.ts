import {
  HistoryUnavailableError,
  resolveRetention,
  type HistoryQuery,
  type HistoryStore,
  type HistoryStoreOptions,
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
import { PostgresHistoryDb } from './postgres-history-db.js';
import { errorText, isTransientPostgresError, maskedUrl } from './postgres-connection.js';
import { LeaseTakenOverError, type LeaseFencing, type NodeLease } from './node-lease.js';
import { DEFAULT_BACKLOG_MAX_BYTES, RecordBacklog, type BacklogEntry } from './record-backlog.js';
import { systemClock, type Clock } from '../util/clock.js';
import { silentLog, type Log } from '../util/log.js';

/** The first wait before writing the backlog again after the database could not be reached. */
export const BACKLOG_RETRY_FIRST_MS = 1000;
/**
 * The longest wait between two tries: the wait doubles after each failed try up to this, so a
 * long outage costs a connection attempt a minute, and the records arrive within a minute of the
 * database coming back.
 */
export const BACKLOG_RETRY_MAX_MS = 60_000;
/** Records written per transaction while the backlog drains: one commit per batch, not per match. */
export const BACKLOG_BATCH_RECORDS = 100;

export interface PostgresHistoryStoreOptions extends HistoryStoreOptions {
  /**
   * Gives retention its "now" and, when it is a whole Clock, times the retries of the backlog
   * (a clock that only tells the time leaves the timers to the system clock); the system clock by default.
   */
  readonly clock?: HistoryStoreOptions['clock'] | Clock;
  /** Where the outage, the dropped records and the recovery are reported. */
  readonly log?: Log;
  /** The backlog's byte budget (RecordBacklog), DEFAULT_BACKLOG_MAX_BYTES by default. */
  readonly backlogMaxBytes?: number;
}

/**
 * The history in PostgreSQL (postgres-history-db.ts), shared by servers on several machines.
 *
 * When the database cannot be reached, `record` does not fail: the record waits in memory (a
 * RecordBacklog, within its byte budget), and the backlog is written, oldest first, once the
 * database answers again; tries are spaced from BACKLOG_RETRY_FIRST_MS doubling to
 * BACKLOG_RETRY_MAX_MS on the clock given. So a match that ends during an outage ends normally
 * for its players. Reads first write the backlog, so they see every record sent before them;
 * during an outage they fail with a HistoryUnavailableError that says the database is unreachable.
 *
 * In a cluster the writes are fenced (LeaseFencing): once `holdLease` was called every write
 * carries the node's lease, and once a survivor took that lease over, nothing more is written:
 * the refusal is logged once, the backlog dropped, and the node told to stop.
 */
export class PostgresHistoryStore implements HistoryStore, LeaseFencing {
  private readonly backlog: RecordBacklog;
  private readonly masked: string;
  private retryDelay = BACKLOG_RETRY_FIRST_MS;
  private cancelRetry: (() => void) | null = null;
  private flushing: Promise<void> | null = null;
  private unreachableSince: number | null = null;
  private closed = false;
  private lease: NodeLease | null = null;
  private onTakenOver: ((by: string) => void) | null = null;
  /** Set once a write was refused for a lease taken over: nothing is written after it. */
  private takenOver: LeaseTakenOverError | null = null;

  private constructor(
    private readonly db: PostgresHistoryDb,
    url: string,
    private readonly clock: Clock,
    private readonly log: Log,
    backlogMaxBytes: number,
  ) {
    this.masked = maskedUrl(url);
    this.backlog = new RecordBacklog(backlogMaxBytes);
  }

  /**
   * Connects, migrates the schema and applies the retention to what the database holds; rejects
   * with one line naming the database (password masked) when it cannot be reached or migrated.
   */
  static async open(url: string, options: PostgresHistoryStoreOptions = {}): Promise<PostgresHistoryStore> {
    const retention = resolveRetention(options.retention);
    const given = options.clock;
    const clock: Clock = given === undefined ? systemClock : 'setTimer' in given ? given : { ...systemClock, now: () => given.now() };
    const log = options.log ?? silentLog;
    const backlogMaxBytes = options.backlogMaxBytes ?? DEFAULT_BACKLOG_MAX_BYTES;
    // Checked before connecting: a bad budget is a wrong option, not an unreachable database.
    new RecordBacklog(backlogMaxBytes);
    let db: PostgresHistoryDb;
    try {
      db = await PostgresHistoryDb.open(url, { retention, onIdleError: (error) => log.warn(`history database ${maskedUrl(url)}: an idle connection was lost (${errorText(error)})`) });
    } catch (error) {
      throw new Error(`history database ${maskedUrl(url)}: ${errorText(error)}`);
    }
    try {
      await db.prune(clock.now());
    } catch (error) {
      await db.close().catch(() => {});
      throw new Error(`history database ${maskedUrl(url)}: ${errorText(error)}`);
    }
    return new PostgresHistoryStore(db, url, clock, log, backlogMaxBytes);
  }

  /** Records waiting for the database (a reading for metrics; 0 while it answers). */
  get queueDepth(): number {
    return this.backlog.count;
  }

  /** The bytes (storedSize) of the records waiting, at most the backlog's budget. */
  get backlogBytes(): number {
    return this.backlog.bytes;
  }

  /** The schema version of the database. */
  get schemaVersion(): number {
    return this.db.schemaVersion;
  }

  async holdLease(lease: NodeLease, takenOver: (by: string) => void): Promise<void> {
    try {
      await this.db.registerLease(lease, this.clock.now());
    } catch (error) {
      throw new Error(`history database ${this.masked}: ${errorText(error)}`);
    }
    this.lease = lease;
    this.onTakenOver = takenOver;
  }

  async takeOverLease(victim: string, by: string): Promise<void> {
    await this.db.takeOverLease(victim, by, this.clock.now());
  }

  async record(match: NewMatchRecord): Promise<void> {
    if (this.closed) throw new Error('the history store is closed');
    if (this.takenOver) throw this.takenOver;
    // Behind a backlog, a record waits its turn: records are written in the order they came.
    if (this.backlog.count === 0) {
      try {
        await this.db.write([match], this.clock.now(), true, this.lease);
        return;
      } catch (error) {
        if (error instanceof LeaseTakenOverError) throw this.refused(error, [match.id]);
        if (!isTransientPostgresError(error)) throw error;
        this.unreachable(error);
      }
    }
    this.keep(match);
    this.scheduleRetry();
  }

  /**
   * Writes the backlog now, oldest first, in batches; resolves when it is empty, rejects with the
   * reason while the database cannot be reached (the next try stays scheduled). Reads call it;
   * tests call it to drain the backlog without waiting for the timer.
   */
  flush(): Promise<void> {
    this.flushing ??= this.drain().finally(() => (this.flushing = null));
    return this.flushing;
  }

  list(query?: HistoryQuery): Promise<MatchSummary[]> {
    return this.read(() => this.db.list(query));
  }

  ids(): Promise<string[]> {
    return this.read(() => this.db.ids());
  }

  get(id: string): Promise<MatchRecord | null> {
    return this.read(() => this.db.get(id));
  }

  outline(id: string): Promise<RecordOutline | null> {
    return this.read(() => this.db.outline(id));
  }

  readPart(id: string, part: RecordPart, range?: ByteRange): Promise<Buffer | null> {
    return this.read(() => this.db.readPart(id, part, range));
  }

  ratings(game: string, query?: RatingQuery): Promise<PlayerRating[]> {
    return this.read(() => this.db.ratingBoard(game, query));
  }

  ratingHistory(game: string, player: string, query?: RatingQuery): Promise<RatingPoint[]> {
    return this.read(() => this.db.ratingHistory(game, player, query));
  }

  // Tournaments are written at once, not kept in the backlog: an outage fails the write (told as
  // unavailable), which the tournament logs and goes on without (src/tournament/tournament-archive.ts).
  saveTournament(tournament: TournamentEntry): Promise<void> {
    return this.read(() => this.db.saveTournament(tournament));
  }

  addTournamentResult(id: string, index: number, result: string): Promise<void> {
    return this.read(() => this.db.addTournamentResult(id, index, result));
  }

  tournaments(): Promise<StoredTournament[]> {
    return this.read(() => this.db.tournaments());
  }

  forgetTournament(id: string): Promise<void> {
    return this.read(() => this.db.forgetTournament(id));
  }

  // Claims are answered at once, never kept in the backlog: a claim must not be promised before it is written.
  claimName(name: string, digest: string): Promise<boolean> {
    return this.read(() => this.db.claimName(name, digest));
  }

  nameDigest(name: string): Promise<string | null> {
    return this.read(() => this.db.nameDigest(name));
  }

  replaceNameDigest(name: string, expected: string, next: string): Promise<boolean> {
    return this.read(() => this.db.replaceNameDigest(name, expected, next));
  }

  releaseName(name: string): Promise<boolean> {
    return this.read(() => this.db.releaseName(name));
  }

  /** Tries the backlog once more; what still cannot be written is named in the log as lost. */
  async close(): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    this.cancelRetry?.();
    this.cancelRetry = null;
    if (this.backlog.count > 0) {
      await this.flush().catch(() => {});
      const lost = this.backlog.clear();
      if (lost.length) this.log.error(`history database ${this.masked} unreachable at shutdown: ${lost.length} matches not recorded: ${ids(lost)}`);
    }
    await this.db.close();
  }

  private async read<T>(query: () => Promise<T>): Promise<T> {
    try {
      if (this.backlog.count > 0) await this.flush();
      return await query();
    } catch (error) {
      if (!isTransientPostgresError(error)) throw error;
      throw new HistoryUnavailableError(`the history database ${this.masked} is unreachable: ${errorText(error)}${this.backlog.count ? ` (${this.backlog.count} matches wait to be recorded)` : ''}`);
    }
  }

  private async drain(): Promise<void> {
    let written = 0;
    while (this.backlog.count > 0) {
      const batch = this.backlog.front(BACKLOG_BATCH_RECORDS);
      try {
        await this.db.write(
          batch.map((entry) => entry.record),
          this.clock.now(),
          true,
          this.lease,
        );
        this.backlog.remove(batch);
        written += batch.length;
      } catch (error) {
        if (error instanceof LeaseTakenOverError) throw this.refused(error, this.backlog.clear().map((entry) => entry.record.id));
        if (isTransientPostgresError(error)) throw this.stillUnreachable(error);
        // A record the database refuses (not an outage) must not hold back the others: one at a
        // time, to find it (as the SQLite store's worker does).
        for (const entry of batch) {
          try {
            await this.db.write([entry.record], this.clock.now(), true, this.lease);
            written++;
          } catch (single) {
            if (single instanceof LeaseTakenOverError) throw this.refused(single, this.backlog.clear().map((left) => left.record.id));
            if (isTransientPostgresError(single)) throw this.stillUnreachable(single);
            this.log.error(`match ${entry.record.id} could not be recorded from the backlog, dropped: ${errorText(single)}`);
          }
          this.backlog.remove([entry]);
        }
      }
    }
    if (this.unreachableSince !== null) {
      this.log.info(`history database ${this.masked} reachable again after ${Math.round((this.clock.now() - this.unreachableSince) / 1000)} s: ${written} matches recorded from the backlog`);
      this.unreachableSince = null;
    }
    this.retryDelay = BACKLOG_RETRY_FIRST_MS;
    this.cancelRetry?.();
    this.cancelRetry = null;
  }

  /**
   * The lease was taken over: this node was declared dead and its running matches recorded by a
   * survivor. Said once, in one line (what was refused, and why), and the node is told to stop;
   * every later write is refused without a word.
   */
  private refused(error: LeaseTakenOverError, ids: readonly string[]): LeaseTakenOverError {
    if (this.takenOver) return this.takenOver;
    this.takenOver = error;
    this.cancelRetry?.();
    this.cancelRetry = null;
    this.log.error(
      `history database ${this.masked}: ${error.message} (it was declared dead, and its running matches recorded as lost); not recorded: ${ids.join(', ')}; this node records nothing more and stops`,
    );
    this.onTakenOver?.(error.by);
    return error;
  }

  /** A try failed: the next one waits twice as long (up to the maximum). */
  private stillUnreachable(error: unknown): unknown {
    this.unreachable(error);
    this.retryDelay = Math.min(this.retryDelay * 2, BACKLOG_RETRY_MAX_MS);
    this.scheduleRetry();
    return error;
  }

  private unreachable(error: unknown): void {
    if (this.unreachableSince !== null) return;
    this.unreachableSince = this.clock.now();
    this.log.warn(
      `history database ${this.masked} unreachable (${errorText(error)}): records wait in memory (up to ${this.backlog.maxBytes} bytes, history-backlog-max-bytes) and are written when it answers again`,
    );
  }

  private keep(match: NewMatchRecord): void {
    for (const dropped of this.backlog.push(match)) {
      this.log.error(
        dropped.record === match
          ? `match ${match.id} not recorded: its ${dropped.size} bytes are more than the whole backlog (history-backlog-max-bytes=${this.backlog.maxBytes}) while the history database is unreachable`
          : `match ${dropped.record.id} not recorded: dropped from the full backlog (history-backlog-max-bytes=${this.backlog.maxBytes}) to keep newer matches while the history database is unreachable`,
      );
    }
  }

  private scheduleRetry(): void {
    if (this.cancelRetry || this.closed || this.backlog.count === 0) return;
    // Weak: a pending retry alone does not keep a stopping process alive (close() tries once more).
    this.cancelRetry = this.clock.setTimer(
      this.retryDelay,
      () => {
        this.cancelRetry = null;
        // A failed try schedules the next one itself.
        this.flush().catch(() => {});
      },
      { weak: true },
    );
  }
}

function ids(entries: readonly BacklogEntry[]): string {
  const shown = entries.slice(0, 20).map((entry) => entry.record.id).join(', ');
  return entries.length > 20 ? `${shown}... (${entries.length - 20} more)` : shown;
}

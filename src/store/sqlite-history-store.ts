import { Worker } from 'node:worker_threads';
import {
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
import { ownBytes } from '../util/own-bytes.js';
import { asBuffer, type StoreReply, type StoreRequest, type StoreWorkerData } from './sqlite-store-messages.js';

type Pending = { resolve(value: unknown): void; reject(error: Error): void };
type RequestBody = StoreRequest extends infer R ? (R extends StoreRequest ? Omit<R, 'id'> : never) : never;

/**
 * The history in an SQLite file (sqlite-history-db.ts), kept by a worker thread: SQLite calls are
 * synchronous, and a thousand matches ending together would otherwise stall every running match
 * while their records are written. The retention (HistoryStoreOptions) is applied by the worker as
 * part of each batch of records, with the time read from the clock here when each was sent.
 */
export class SqliteHistoryStore implements HistoryStore {
  private readonly pending = new Map<number, Pending>();
  private nextId = 1;
  private failure: Error | null = null;

  private constructor(
    private readonly worker: Worker,
    /** The schema version of the open file. */
    readonly schemaVersion: number,
    private readonly now: () => number,
  ) {
    worker.on('message', (reply: StoreReply) => this.settle(reply));
    worker.on('error', (error) => this.fail(error));
    worker.on('exit', (code) => this.fail(new Error(`the history store's thread exited (code ${code})`)));
    // The thread keeps the process alive only while it has work.
    worker.unref();
  }

  /**
   * Opens (creating or upgrading) the file and applies the retention to what it holds (its limits
   * may have been lowered since); rejects with SQLite's reason when it cannot, and with a
   * RangeError for a negative limit.
   */
  static async open(file: string, options: HistoryStoreOptions = {}): Promise<SqliteHistoryStore> {
    const retention = resolveRetention(options.retention);
    const clock = options.clock;
    const now = clock ? () => clock.now() : () => Date.now();
    const workerData: StoreWorkerData = { file, retention, now: now() };
    const worker = new Worker(new URL('./sqlite-store-worker.js', import.meta.url), { workerData });
    const version = await new Promise<number>((resolve, reject) => {
      worker.once('message', (reply: StoreReply) => (reply.ok ? resolve(reply.value as number) : reject(new Error(`history file ${file}: ${reply.error}`))));
      worker.once('error', reject);
    });
    return new SqliteHistoryStore(worker, version, now);
  }

  /**
   * Requests sent to the worker thread and not answered yet: records waiting for their batch's
   * commit and the reads queued behind them. A cheap reading for metrics (a map's size); a depth
   * that keeps growing means the disk cannot keep up with the matches ending. Not part of
   * HistoryStore (MemoryHistoryStore's is always 0).
   */
  get queueDepth(): number {
    return this.pending.size;
  }

  async record(match: NewMatchRecord): Promise<void> {
    // Posting a window on a larger block (a pooled Buffer, a record that came over IPC) would copy
    // the whole block to the thread: each is copied to a block of its own, which is then moved.
    const moved: ArrayBuffer[] = [];
    const own = (bytes: Uint8Array): Buffer => {
      const copy = ownBytes(bytes);
      if (copy.buffer !== bytes.buffer) moved.push(copy.buffer as ArrayBuffer);
      return copy;
    };
    const record = { ...match, spectatorStream: own(match.spectatorStream), visJson: typeof match.visJson === 'string' ? match.visJson : own(match.visJson) };
    await this.request({ op: 'record', record, now: this.now() }, moved);
  }

  async list(query: HistoryQuery = {}): Promise<MatchSummary[]> {
    return (await this.request({ op: 'list', query })) as MatchSummary[];
  }

  async ids(): Promise<string[]> {
    return (await this.request({ op: 'ids' })) as string[];
  }

  async get(id: string): Promise<MatchRecord | null> {
    const record = (await this.request({ op: 'get', matchId: id })) as MatchRecord | null;
    if (!record) return null;
    return { ...record, spectatorStream: asBuffer(record.spectatorStream) };
  }

  async outline(id: string): Promise<RecordOutline | null> {
    return (await this.request({ op: 'outline', matchId: id })) as RecordOutline | null;
  }

  async readPart(id: string, part: RecordPart, range?: ByteRange): Promise<Buffer | null> {
    const bytes = (await this.request({ op: 'readPart', matchId: id, part, range })) as Uint8Array | null;
    return bytes && asBuffer(bytes);
  }

  async ratings(game: string, query: RatingQuery = {}): Promise<PlayerRating[]> {
    return (await this.request({ op: 'ratings', game, query })) as PlayerRating[];
  }

  async ratingHistory(game: string, player: string, query: RatingQuery = {}): Promise<RatingPoint[]> {
    return (await this.request({ op: 'ratingHistory', game, player, query })) as RatingPoint[];
  }

  async saveTournament(tournament: TournamentEntry): Promise<void> {
    await this.request({ op: 'saveTournament', tournament: { id: tournament.id, createdAt: tournament.createdAt, body: tournament.body } });
  }

  async addTournamentResult(id: string, index: number, result: string): Promise<void> {
    await this.request({ op: 'addTournamentResult', tournamentId: id, index, result });
  }

  async tournaments(): Promise<StoredTournament[]> {
    return (await this.request({ op: 'tournaments' })) as StoredTournament[];
  }

  async forgetTournament(id: string): Promise<void> {
    await this.request({ op: 'forgetTournament', tournamentId: id });
  }

  async claimName(name: string, digest: string): Promise<boolean> {
    return (await this.request({ op: 'claimName', name, digest })) as boolean;
  }

  async nameDigest(name: string): Promise<string | null> {
    return (await this.request({ op: 'nameDigest', name })) as string | null;
  }

  async replaceNameDigest(name: string, expected: string, next: string): Promise<boolean> {
    return (await this.request({ op: 'replaceNameDigest', name, expected, next })) as boolean;
  }

  async releaseName(name: string): Promise<boolean> {
    return (await this.request({ op: 'releaseName', name })) as boolean;
  }

  async close(): Promise<void> {
    if (this.failure) return;
    await this.request({ op: 'close' });
    await this.worker.terminate();
  }

  private request(body: RequestBody, transfer: readonly ArrayBuffer[] = []): Promise<unknown> {
    if (this.failure) return Promise.reject(this.failure);
    const id = this.nextId++;
    if (this.pending.size === 0) this.worker.ref();
    return new Promise((resolve, reject) => {
      this.pending.set(id, { resolve, reject });
      this.worker.postMessage({ ...body, id } as StoreRequest, transfer);
    });
  }

  private settle(reply: StoreReply): void {
    const waiting = this.pending.get(reply.id);
    if (!waiting) return;
    this.pending.delete(reply.id);
    if (this.pending.size === 0) this.worker.unref();
    if (reply.ok) waiting.resolve(reply.value);
    else waiting.reject(new Error(reply.error));
  }

  private fail(error: Error): void {
    this.failure ??= error;
    for (const waiting of this.pending.values()) waiting.reject(this.failure);
    this.pending.clear();
  }
}

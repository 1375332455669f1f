import type { GameDefinition } from '../match/game.js';
import { deriveRecordVis } from '../match/record-vis.js';
import { parseVisReplayNote } from '../match/vis-replay.js';
import type { Log } from '../util/log.js';
import {
  partRange,
  type ByteRange,
  type HistoryQuery,
  type HistoryStore,
  type MatchRecord,
  type MatchSummary,
  type NewMatchRecord,
  type PlayerRating,
  type RatingPoint,
  type RatingQuery,
  type RecordOutline,
  type RecordPart,
  type StoredTournament,
  type TournamentEntry,
} from './history-store.js';

export const DERIVED_VIS_LIMITS = {
  /**
   * Bytes of derived visualizer events kept for the records read last: a replay reads its events
   * a slice at a time, and each slice must not replay the game again. A longer text is derived
   * for each read.
   */
  maxCachedBytes: 16 << 20,
} as const;

/**
 * The history as its readers see it, whatever store keeps it: the visualizer events of a match
 * whose game draws from its seats' input (GameDefinition.visFromInput) are kept as a note
 * (match/vis-replay.ts), and derived here, by playing the game again on the record's input, when
 * a reader asks for them (the record, its outline's size, the part). Everything else passes through.
 */
export class DerivedVisStore implements HistoryStore {
  /** Derived events by match id, oldest read first. */
  private readonly cache = new Map<string, Buffer>();
  private cachedBytes = 0;
  private readonly deriving = new Map<string, Promise<Buffer>>();

  constructor(
    private readonly inner: HistoryStore,
    /** The game a record names, if this server knows it. */
    private readonly gameNamed: (name: string) => GameDefinition<any> | undefined,
    private readonly log?: Log,
    private readonly limits: typeof DERIVED_VIS_LIMITS = DERIVED_VIS_LIMITS,
  ) {}

  record(match: NewMatchRecord): Promise<void> {
    return this.inner.record(match);
  }

  list(query?: HistoryQuery): Promise<MatchSummary[]> {
    return this.inner.list(query);
  }

  ids(): Promise<string[]> {
    return this.inner.ids();
  }

  claimName(name: string, digest: string): Promise<boolean> {
    return this.inner.claimName(name, digest);
  }

  nameDigest(name: string): Promise<string | null> {
    return this.inner.nameDigest(name);
  }

  replaceNameDigest(name: string, expected: string, next: string): Promise<boolean> {
    return this.inner.replaceNameDigest(name, expected, next);
  }

  releaseName(name: string): Promise<boolean> {
    return this.inner.releaseName(name);
  }

  async get(id: string): Promise<MatchRecord | null> {
    const record = await this.inner.get(id);
    if (record === null || parseVisReplayNote(record.visJson) === null) return record;
    return { ...record, visJson: (await this.events(id, record)).toString('utf8') };
  }

  async outline(id: string): Promise<RecordOutline | null> {
    const outline = await this.inner.outline(id);
    if (outline === null || !(await this.holdsNote(id))) return outline;
    return { ...outline, visBytes: (await this.events(id)).length };
  }

  async readPart(id: string, part: RecordPart, range?: ByteRange): Promise<Buffer | null> {
    // Asked of the store each time, so that a match the retention removed is gone here too.
    if (part.kind !== 'vis' || !(await this.holdsNote(id))) return this.inner.readPart(id, part, range);
    return partRange(await this.events(id), range);
  }

  ratings(game: string, query?: RatingQuery): Promise<PlayerRating[]> {
    return this.inner.ratings(game, query);
  }

  ratingHistory(game: string, player: string, query?: RatingQuery): Promise<RatingPoint[]> {
    return this.inner.ratingHistory(game, player, query);
  }

  saveTournament(tournament: TournamentEntry): Promise<void> {
    return this.inner.saveTournament(tournament);
  }

  addTournamentResult(id: string, index: number, result: string): Promise<void> {
    return this.inner.addTournamentResult(id, index, result);
  }

  tournaments(): Promise<StoredTournament[]> {
    return this.inner.tournaments();
  }

  forgetTournament(id: string): Promise<void> {
    return this.inner.forgetTournament(id);
  }

  close(): Promise<void> {
    return this.inner.close();
  }

  /** Whether the record's visualizer part is a note (it starts with `{`; the events start with `[`): one byte read. */
  private async holdsNote(id: string): Promise<boolean> {
    const first = await this.inner.readPart(id, { kind: 'vis' }, { offset: 0, length: 1 });
    return first !== null && first[0] === 0x7b;
  }

  /** The derived events of match `id` (its record passed when already read); none (`[]`) when there is no such match. */
  private async events(id: string, record?: MatchRecord): Promise<Buffer> {
    const cached = this.cache.get(id);
    if (cached !== undefined) {
      // Read again: it is kept the longest.
      this.cache.delete(id);
      this.cache.set(id, cached);
      return cached;
    }
    let pending = this.deriving.get(id);
    if (pending === undefined) {
      pending = this.derive(id, record).finally(() => this.deriving.delete(id));
      this.deriving.set(id, pending);
    }
    return pending;
  }

  private async derive(id: string, given?: MatchRecord): Promise<Buffer> {
    const record = given ?? (await this.inner.get(id));
    const note = record ? parseVisReplayNote(record.visJson) : null;
    if (record === null || note === null) return Buffer.from('[]');
    const game = this.gameNamed(record.game);
    let events: Buffer;
    try {
      if (game === undefined) throw new Error(`this server has no game "${record.game}"`);
      events = await deriveRecordVis(game, record, note);
    } catch (error) {
      // The match's other parts are still worth serving: its replay shows no drawing.
      this.log?.error(`the visualizer events of match ${id} could not be derived: ${error instanceof Error ? error.message : String(error)}`);
      events = Buffer.from('[]');
    }
    this.keep(id, events);
    return events;
  }

  private keep(id: string, events: Buffer): void {
    if (events.length > this.limits.maxCachedBytes) return;
    this.cache.set(id, events);
    this.cachedBytes += events.length;
    for (const [oldest, bytes] of this.cache) {
      if (this.cachedBytes <= this.limits.maxCachedBytes) break;
      this.cache.delete(oldest);
      this.cachedBytes -= bytes.length;
    }
  }
}

import type { GameDefinition } from '../match/game.js';
import { deriveRecordDrawing, type DerivedDrawing } from '../match/record-vis.js';
import { CLOCK_RECORD } from '../match/seat-clocks.js';
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
   * Bytes of derived visualizer events (and placed clocks) kept for the records read last: a
   * replay reads its events a slice at a time, and each slice must not replay the game again. A
   * longer text is derived for each read.
   */
  maxCachedBytes: 16 << 20,
  /**
   * Lines a derivation reads from the record's seats before it lets the event loop turn: the
   * longest it holds the main thread at a time (a long clobber series takes some 25 us a line, a
   * roshambo round 4 us).
   */
  readsPerTurn: 500,
} as const;

/**
 * The history as its readers see it, whatever store keeps it: the visualizer events of a match
 * whose game draws from its seats' input (GameDefinition.visFromInput) are kept as a note
 * (match/vis-replay.ts), and derived here, by playing the game again on the record's input, when
 * a reader asks for them (the record, its outline's size, the part). The same replay places the
 * record's clock turns among those events (its clock.json, kept unplaced: match/seat-clocks.ts),
 * and readers get the placed clock. Everything else passes through.
 */
export class DerivedVisStore implements HistoryStore {
  /** Derived drawings by match id, oldest read first. */
  private readonly cache = new Map<string, DerivedDrawing>();
  private cachedBytes = 0;
  private readonly deriving = new Map<string, Promise<DerivedDrawing>>();

  constructor(
    private readonly inner: HistoryStore,
    /** The game a record names, if this server knows it. */
    private readonly gameNamed: (name: string) => GameDefinition<any> | undefined,
    private readonly log?: Log,
    private readonly limits: { readonly [Limit in keyof typeof DERIVED_VIS_LIMITS]: number } = DERIVED_VIS_LIMITS,
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
    const { events, clock } = await this.drawing(id, record);
    const artifacts = clock === null || !(CLOCK_RECORD.artifact in record.artifacts) ? record.artifacts : { ...record.artifacts, [CLOCK_RECORD.artifact]: clock.toString('utf8') };
    return { ...record, visJson: events.toString('utf8'), artifacts };
  }

  async outline(id: string): Promise<RecordOutline | null> {
    const outline = await this.inner.outline(id);
    if (outline === null || !(await this.holdsNote(id))) return outline;
    const { events, clock } = await this.drawing(id);
    const artifacts = clock === null ? outline.artifacts : outline.artifacts.map((artifact) => (artifact.name === CLOCK_RECORD.artifact ? { name: artifact.name, bytes: clock.length } : artifact));
    return { ...outline, visBytes: events.length, artifacts };
  }

  async readPart(id: string, part: RecordPart, range?: ByteRange): Promise<Buffer | null> {
    const derived = part.kind === 'vis' || (part.kind === 'artifact' && part.name === CLOCK_RECORD.artifact);
    // Asked of the store each time, so that a match the retention removed is gone here too.
    if (!derived || !(await this.holdsNote(id))) return this.inner.readPart(id, part, range);
    const { events, clock } = await this.drawing(id);
    if (part.kind === 'vis') return partRange(events, range);
    return clock === null ? this.inner.readPart(id, part, range) : partRange(clock, range);
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

  /** The derived drawing of match `id` (its record passed when already read); no events (`[]`) when there is no such match. */
  private async drawing(id: string, record?: MatchRecord): Promise<DerivedDrawing> {
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

  private async derive(id: string, given?: MatchRecord): Promise<DerivedDrawing> {
    const record = given ?? (await this.inner.get(id));
    const note = record ? parseVisReplayNote(record.visJson) : null;
    if (record === null || note === null) return { events: Buffer.from('[]'), clock: null, refused: 0 };
    const game = this.gameNamed(record.game);
    let drawing: DerivedDrawing;
    try {
      if (game === undefined) throw new Error(`this server has no game "${record.game}"`);
      drawing = await deriveRecordDrawing(game, record, note, { readsPerTurn: this.limits.readsPerTurn });
      if (drawing.refused > 0) this.log?.warn(`match ${id}: ${drawing.refused} visualizer events were refused (past the feed's limits) and are left out of its drawing`);
    } catch (error) {
      // The match's other parts are still worth serving: its replay shows no drawing (and its clock, unplaced, none).
      this.log?.error(`the visualizer events of match ${id} could not be derived: ${error instanceof Error ? error.message : String(error)}`);
      drawing = { events: Buffer.from('[]'), clock: null, refused: 0 };
    }
    this.keep(id, drawing);
    return drawing;
  }

  private keep(id: string, drawing: DerivedDrawing): void {
    const bytes = drawingBytes(drawing);
    if (bytes > this.limits.maxCachedBytes) return;
    this.cache.set(id, drawing);
    this.cachedBytes += bytes;
    for (const [oldest, kept] of this.cache) {
      if (this.cachedBytes <= this.limits.maxCachedBytes) break;
      this.cache.delete(oldest);
      this.cachedBytes -= drawingBytes(kept);
    }
  }
}

function drawingBytes(drawing: DerivedDrawing): number {
  return drawing.events.length + (drawing.clock?.length ?? 0);
}

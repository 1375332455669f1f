import type { GameDefinition, MatchContext, MatchSettings } from './game.js';
import { Random } from './random.js';
import type { DecisionLog } from './decision-log.js';
import { PRESUMED_END_REASON, ReadPacer, ReplaySeat } from './replay-seat.js';
import type { SeatCloseReason } from './seat.js';
import { TurnPlaces } from './seat-clocks.js';
import type { VisFeed } from './vis-feed.js';

/** Who sits where in the replayed match, in seat order (as the match's lineup). */
export interface ReplayLineup {
  readonly name: string;
  readonly isBot: boolean;
}

/**
 * A built-in game played again on the lines its seats' game read, to draw what the match looked
 * like (GameDefinition.visFromInput): the game's visualizer events go to `vis`, everything else it
 * does goes nowhere. Its random source is the match's, forked for the bots as the match forks it,
 * so the game deals, draws and decides as it did. Time stands still: `sleep` returns at once and
 * no timer fires, for a seat's timeout shows in its input as its end. Who the game says is to
 * move, and when it takes their lines, places the match's clock turns among the events (`places`).
 *
 * The lines are pushed as the played match's game read them (a live viewer's replay follows the
 * match) or all at once (a replay from the record); `endAll` ends every seat's input, and `done`
 * settles once the game has returned.
 */
export class VisReplay {
  readonly seats: readonly ReplaySeat[];
  /** Where each seat's turns fall among the events drawn: the game says who is to move here as it did when played. */
  readonly places: TurnPlaces;
  readonly done: Promise<void>;
  /** What went wrong with the replayed game (a bug: the game did what it had not done when played), or null. */
  failure: string | null = null;
  /** Whether the replay was stopped before the game's end (`stop`): what it drew until then is all it draws. */
  stopped = false;

  constructor(options: {
    readonly game: GameDefinition<any>;
    readonly settings: MatchSettings<unknown>;
    readonly lineup: readonly ReplayLineup[];
    readonly seed: string;
    readonly vis: VisFeed;
    /**
     * Why the played match was stopped early (its `stopReason`), or null: the replayed game is told
     * it once a seat's input has ended for the stop ('shutdown'), which is when the game could
     * have learnt it in the match.
     */
    readonly stopped?: () => string | null;
    /** What the played game noted it decided (MatchContext.note), for the replayed game to recall. */
    readonly decisions?: DecisionLog;
    /** Lines the game reads (from all its seats) before it goes on in a later turn of the event loop; by default it never waits. */
    readonly readsPerTurn?: number;
  }) {
    const { game, settings, lineup, vis } = options;
    this.places = new TurnPlaces(lineup.length, () => vis.count);
    const pacer = options.readsPerTurn === undefined ? null : new ReadPacer(options.readsPerTurn);
    this.seats = lineup.map(({ name, isBot }, index) => new ReplaySeat(index, name, isBot, () => this.places.moved(index), pacer));
    const random = Random.fromSeed(options.seed);
    // The match forks one source per bot seat, in seat order, before the game starts (match.ts).
    for (const spec of lineup) if (spec.isBot) random.fork();
    const context: MatchContext = {
      seats: this.seats,
      spectators: { write: () => {} },
      random,
      timeout: settings.timeout,
      sleep: () => Promise.resolve(),
      after: () => () => {},
      vis: (event) => vis.emit(event),
      elapsed: () => 0,
      attach: () => {},
      stopReason: () => (options.stopped && this.seats.some((seat) => seat.closeReason === 'shutdown') ? options.stopped() : null),
      drawing: true,
      toMove: (seat) => this.places.toMove(seat),
      recall: () => (options.decisions && !this.stopped ? options.decisions.recall() : Promise.resolve(null)),
    };
    this.done = game.play(context, settings.config).then(
      () => this.readRest(),
      (error: unknown) => {
        // A game stopped early may well fail on what it is no longer given: that is no bug.
        if (!this.stopped) this.failure = error instanceof Error ? (error.stack ?? error.message) : String(error);
      },
    );
  }

  /**
   * Nothing the game draws from now on is wanted (the drawing is full): its seats close and it is
   * given no more decisions, so it ends at its next read instead of playing the rest of the match.
   */
  stop(): void {
    if (this.stopped) return;
    this.stopped = true;
    for (const seat of this.seats) seat.close('shutdown');
  }

  /**
   * What the game did not take of its seats' input once it is over (a game that reads every seat
   * as lines come: a line that came after its last decision), read as the played seats read it,
   * so that a turn it answers ends where the played match's did: at the end.
   */
  private async readRest(): Promise<void> {
    for (const seat of this.seats) while ((await seat.readLine()) !== null);
  }

  /** The played match is over: every seat's input ends here. */
  endAll(): void {
    for (const seat of this.seats) seat.end();
  }
}

/**
 * What a record keeps instead of the visualizer events of a game that draws from its seats' input
 * (GameDefinition.visFromInput): the few facts the record does not hold otherwise. The events are
 * derived from it, the record's seed, arguments and seats, and the lines of its transcripts, when
 * someone asks for them (match/record-vis.ts).
 */
export interface VisReplayNote {
  /** The match timeout in seconds (the settings the game is configured with again), null if not finite. */
  readonly timeout: number | null;
  /**
   * How many lines the game read from each seat, in seat order: its input then ended (or the match
   * did). For a game that reads text as it arrives (`text` framing), how many UTF-16 code units.
   */
  readonly taken: readonly number[];
  /**
   * Why each seat was closed when the game read the end of its input (a timeout, a bad line, the
   * game removing it), in seat order; null where the game did not read it, or where the player
   * went away (PRESUMED_END_REASON). Absent when all are null: a game that tells why a player
   * left draws it from here.
   */
  readonly ends?: readonly (SeatCloseReason | null)[];
  /** Why the match was stopped early (a server shutdown...), if it was: a game may draw it. */
  readonly stopped?: string;
  /** What the game noted it decided (MatchContext.note), in order; absent when it noted nothing. */
  readonly decisions?: readonly number[];
}

/** The note's `ends`, or undefined when it says nothing a replay does not presume. */
export function notedEnds(ends: readonly (SeatCloseReason | null)[]): (SeatCloseReason | null)[] | undefined {
  const noted = ends.map((reason) => (reason === PRESUMED_END_REASON ? null : reason));
  return noted.some((reason) => reason !== null) ? noted : undefined;
}

/** The note's key: a record's events are a JSON array, so an object with this key is never mistaken for them. */
const NOTE_KEY = 'replayFromInput';

/** The note as the record keeps it in place of the events' JSON text. */
export function visReplayNoteJson(note: VisReplayNote): string {
  const { timeout, taken, ends, stopped, decisions } = note;
  return JSON.stringify({ [NOTE_KEY]: { timeout, taken, ...(ends && { ends }), ...(stopped !== undefined && { stopped }), ...(decisions && decisions.length > 0 && { decisions }) } });
}

/** The note in a record's visualizer part, or null when the part holds the events themselves. */
export function parseVisReplayNote(json: string): VisReplayNote | null {
  if (!json.startsWith('{')) return null;
  let value: unknown;
  try {
    value = JSON.parse(json);
  } catch {
    return null;
  }
  const note = (value as Record<string, unknown> | null)?.[NOTE_KEY] as Record<string, unknown> | undefined;
  if (typeof note !== 'object' || note === null) return null;
  const { timeout, taken, ends, stopped, decisions } = note;
  if (timeout !== null && typeof timeout !== 'number') return null;
  const counts = (value: unknown): value is number[] => Array.isArray(value) && value.every((count) => Number.isSafeInteger(count) && count >= 0);
  if (!counts(taken)) return null;
  if (ends !== undefined && (!Array.isArray(ends) || !ends.every((reason) => reason === null || typeof reason === 'string'))) return null;
  if (stopped !== undefined && typeof stopped !== 'string') return null;
  if (decisions !== undefined && !counts(decisions)) return null;
  return {
    timeout,
    taken,
    ...(ends !== undefined && { ends: ends as (SeatCloseReason | null)[] }),
    ...(stopped !== undefined && { stopped }),
    ...(decisions !== undefined && { decisions }),
  };
}

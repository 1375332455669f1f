import { connectBot } from './bot-connection.js';
import type { Compute } from './compute.js';
import type { GameDefinition, MatchContext, MatchResult, MatchSettings } from './game.js';
import { MatchClock } from './match-clock.js';
import { Random } from './random.js';
import { Seat, type SeatCloseReason } from './seat.js';
import { CLOCK_RECORD, SeatClocks } from './seat-clocks.js';
import { SeatTranscript, firstCodeUnits } from './seat-transcript.js';
import type { SpectatorFeed } from './spectator-feed.js';
import { VisFeed } from './vis-feed.js';
import type { LiveSeats } from '../protocol/coco/messages.js';
import type { VisError } from '../protocol/vis-limits.js';
import { DecisionLog } from './decision-log.js';
import { VisReplay, notedEnds, visReplayNoteJson, type VisReplayNote } from './vis-replay.js';
import { systemClock, type Clock } from '../util/clock.js';
import type { Log } from '../util/log.js';

export interface MatchOptions<C> {
  readonly game: GameDefinition<C>;
  readonly settings: MatchSettings<C>;
  /** Who sits where, in seat order. */
  readonly lineup: readonly SeatSpec[];
  readonly seed: string;
  readonly spectators: SpectatorFeed;
  readonly compute: Compute;
  readonly log?: Log;
  /** Told about each visualizer event the validator refused (logged by default). */
  readonly onVisReject?: (error: VisError) => void;
  /** Where the match's time comes from (timeouts, pace, transcripts); the system clock by default. */
  readonly clock?: Clock;
  /** Told each time the game reads a line a player sent. */
  readonly onMove?: () => void;
}

/** A seat to fill: a joined player (its transport is attached before `run`) or a server bot. */
export interface SeatSpec {
  readonly name: string;
  readonly isBot: boolean;
  /** A bot seat's named bot (GameDefinition.botChoices), or null/absent for the game's usual one. */
  readonly bot?: string | null;
}

/** Joined players in order, then the server bots `ServerBot$0`, `ServerBot$1`, ... */
export function lineupOf(playerNames: readonly string[], bots: number): SeatSpec[] {
  return [
    ...playerNames.map((name) => ({ name, isBot: false })),
    ...Array.from({ length: bots }, (_, i) => ({ name: botName(i), isBot: true })),
  ];
}

export interface SeatSummary {
  readonly name: string;
  readonly isBot: boolean;
  readonly closeReason: SeatCloseReason | null;
}

export const MATCH_LIMITS = {
  /** Total size of the texts a game attaches to its record. */
  maxArtifactBytes: 32 << 20,
} as const;

export interface MatchOutcome {
  /** Scores and reason, or null when the game itself failed or the match was stopped. */
  readonly result: MatchResult | null;
  /** Why the runtime stopped the match before the game ended it (`abort`), or null. */
  readonly stopped: string | null;
  /** What went wrong with the game (not with a player), or null. */
  readonly error: string | null;
  readonly seed: string;
  /** Unix milliseconds. */
  readonly startedAt: number;
  readonly endedAt: number;
  readonly seats: readonly SeatSummary[];
  /** Texts the game attached to its record, by name. */
  readonly artifacts: Readonly<Record<string, string>>;
}

/** The artifact holding what passed between the game and seat `index` (seat-transcript.ts). */
export function transcriptName(index: number): string {
  return `transcript-${index}.txt`;
}

export function botName(index: number): string {
  return `ServerBot$${index}`;
}

/**
 * The joined players among a match's seat names, as the reference's MatchData lists them (its bots
 * only counted): not the server bots, whether named `ServerBot$N` or, in a match of bots only (a
 * server tournament's), by their entrants' names.
 */
export function joinedPlayers(seatNames: readonly string[], bots: number): string[] {
  return bots >= seatNames.length ? [] : seatNames.filter((name) => !isBotName(name));
}

/** Whether a seat name is a server bot's: `$` is reserved for them (names.ts), so no human matches. */
export function isBotName(name: string): boolean {
  return /^ServerBot\$\d+$/.test(name);
}

/**
 * The one runtime between a game and its players: seats, bots, spectators, timers, result. It
 * never knows which front door a player came through nor what the game's rules are.
 */
export class Match<C> {
  readonly seats: readonly Seat[];
  readonly vis: VisFeed;
  private readonly clock: MatchClock;
  private readonly time: Clock;
  private readonly options: MatchOptions<C>;
  private readonly random: Random;
  private startMark = 0;
  private readonly artifacts = new Map<string, string>();
  private readonly transcripts: SeatTranscript[];
  /** Each seat's turns: when it was asked to move and when it answered (the record's clock.json). */
  private readonly seatClocks: SeatClocks;
  private stopReason: string | null = null;
  /** Whether the game's visualizer events are derived from its seats' input (GameDefinition.visFromInput) rather than built as it plays. */
  private readonly derivesVis: boolean;
  /** Whether the game reads text as it arrives (`text` framing): a replay is then given the text the game read, in pieces. */
  private readonly readsText: boolean;
  /** The replay drawing the match, once its events were wanted while it is played (a viewer came, a transcript filled up). */
  private replay: VisReplay | null = null;
  /** What the game noted it decided (MatchContext.note: a game derived from its input that reads its seats by arrival). */
  private readonly decisions = new DecisionLog();

  constructor(options: MatchOptions<C>) {
    this.options = options;
    this.time = options.clock ?? systemClock;
    this.clock = new MatchClock(this.time);
    const { settings, lineup, game } = options;
    const bots = lineup.filter((spec) => spec.isBot).length;
    if (lineup.length !== settings.players || bots !== settings.bots) {
      throw new Error(`a lineup of ${lineup.length} seats with ${bots} bots does not fit ${settings.players} seats with ${settings.bots} bots`);
    }
    this.derivesVis = game.visFromInput === true;
    this.readsText = game.framing === 'text';
    // A full transcript stops keeping the lines the events would be derived from: they are drawn from then on.
    const onFull = this.derivesVis ? () => this.drawNow() : null;
    this.transcripts = lineup.map(({ name }, index) => new SeatTranscript(`seat ${index}, ${name}`, () => this.elapsed(), onFull));
    this.seatClocks = new SeatClocks(lineup.length, () => this.elapsed(), { onChange: () => this.vis.seatsChanged(), placement: this.derivesVis ? 'replay' : 'events', visEvents: () => this.vis.count });
    const onMove = options.onMove;
    this.seats = lineup.map(
      ({ name, isBot }, index) =>
        new Seat({
          transcript: this.transcripts[index]!,
          index,
          name,
          isBot,
          timeoutSeconds: settings.timeout,
          maxLineBytes: game.maxLineBytes,
          clock: this.clock,
          ...(game.framing && { framing: game.framing }),
          ...(game.answersBadLines && { outputAfterBadLine: true }),
          onRead: () => {
            this.seatClocks.moved(index);
            onMove?.();
          },
          onClose: () => this.vis.seatsChanged(),
        }),
    );
    this.random = Random.fromSeed(options.seed);
    this.vis = new VisFeed(() => this.elapsed(), {
      onReject: options.onVisReject ?? ((error) => options.log?.warn(`visualizer event refused: ${error.code}: ${error.message}`)),
      ...(this.derivesVis && { beforeSubscribe: () => this.drawNow() }),
      seatsNow: () => this.liveSeats(),
    });
  }

  /**
   * Runs the match to its end. Attach every human seat's transport first. `persist` (the lobby's
   * record) runs before the players' transports are told that the match is over, so a player who
   * saw the end can count on the record.
   */
  async run(persist?: (outcome: MatchOutcome) => Promise<void>): Promise<MatchOutcome> {
    const { game, settings, spectators, compute } = this.options;
    const startedAt = this.time.now();
    this.startMark = this.time.monotonic();
    const botRuns = this.seats
      .filter((seat) => seat.isBot)
      .map((seat) =>
        game
          .playBot(connectBot(seat), settings.config, { seat: seat.index, random: this.random.fork(), compute, timeout: settings.timeout, choice: this.options.lineup[seat.index]!.bot ?? null })
          .catch((error: unknown) => this.options.log?.error(`bot ${seat.name} failed: ${describe(error)}`))
          // A bot that stopped playing has nothing more to say: the game sees it leave.
          .finally(() => seat.receiveEnd()),
      );
    const context: MatchContext = {
      seats: this.seats,
      spectators: { write: (data) => spectators.write(data) },
      random: this.random,
      timeout: settings.timeout,
      sleep: (seconds) => this.clock.sleep(seconds),
      after: (seconds, callback) => this.clock.after(seconds * 1000, callback),
      vis: (event) => this.vis.emit(event),
      elapsed: () => this.elapsed(),
      attach: (name, text) => this.attach(name, text),
      stopReason: () => this.stopReason,
      drawing: !this.derivesVis,
      toMove: (seat, limitSeconds) => this.seatClocks.toMove(seat, limitSeconds),
      note: (decision) => this.decisions.note(decision),
    };
    let result: MatchResult | null = null;
    let error: string | null = null;
    try {
      result = checkResult(await game.play(context, settings.config), this.seats.length);
    } catch (failure) {
      error = describe(failure);
      this.options.log?.error(`game ${game.name} failed: ${error}`);
    }
    if (this.stopReason !== null) result = null;
    // Its end is the game's: what follows (recording, the bots leaving) is no seat's time.
    let clock = this.seatClocks.json();
    const seats = this.seats.map((seat) => ({ name: seat.name, isBot: seat.isBot, closeReason: seat.closeReason }));
    // Players are told the match is over once it is persisted (below); bots at once.
    for (const seat of this.seats) {
      seat.close('match-over', false);
      if (seat.isBot) seat.release();
    }
    this.clock.dispose();
    spectators.end();
    this.decisions.end();
    if (this.replay) {
      this.replay.endAll();
      await this.replay.done;
      if (this.replay.failure !== null) this.options.log?.error(`drawing game ${game.name} again failed: ${this.replay.failure}`);
      // The record keeps the events this replay drew (recordVis): it places the turns among them.
      if (clock !== null) clock = this.replay.places.place(clock) ?? clock;
    }
    this.vis.end();
    await Promise.all(botRuns);
    this.transcripts.forEach((transcript, index) => this.attach(transcriptName(index), transcript.text()));
    if (clock !== null) this.attach(CLOCK_RECORD.artifact, clock);
    const outcome: MatchOutcome = { result, stopped: this.stopReason, error, seed: this.options.seed, startedAt, endedAt: this.time.now(), seats, artifacts: Object.fromEntries(this.artifacts) };
    try {
      await persist?.(outcome);
    } finally {
      for (const seat of this.seats) seat.release();
    }
    return outcome;
  }

  /**
   * The visualizer events as the record keeps them: the text of one JSON array, or, for a game
   * whose events follow from its seats' input and that nobody watched, the note they are derived
   * from when asked (match/record-vis.ts). Call it once the match has run.
   */
  recordVis(): Buffer {
    if (!this.derivesVis || this.replay) return this.vis.jsonBytes();
    return Buffer.from(visReplayNoteJson(this.replayNote()));
  }

  /**
   * What the game read of each seat, as a record's note keeps it (match/vis-replay.ts): how many
   * lines, and why the seat was closed if the game read the end of its input. Call it once the
   * match has run.
   */
  replayNote(): VisReplayNote {
    const { timeout } = this.options.settings;
    const ends = notedEnds(this.seats.map((seat) => (seat.endTaken ? seat.closeReason : null)));
    return {
      timeout: Number.isFinite(timeout) ? timeout : null,
      taken: this.seats.map((seat) => (this.readsText ? seat.textTaken : seat.linesTaken)),
      ...(ends && { ends }),
      ...(this.stopReason !== null && { stopped: this.stopReason }),
      ...(this.decisions.all.length > 0 && { decisions: this.decisions.all }),
    };
  }

  /**
   * Resolves once `vis` holds the match's events so far: at once for a game that draws as it
   * plays; for one whose events are derived, once the replay started here has caught up with the
   * match (it waits on nothing but the lines it is given, so a turn of the event loop is enough).
   * A viewer's history is taken after it, and so is whole.
   */
  drawn(): Promise<void> {
    if (!this.derivesVis) return Promise.resolve();
    this.drawNow();
    return new Promise((resolve) => setImmediate(resolve));
  }

  /**
   * From now on the match is drawn: a replay of the game is given the lines the game has read so
   * far, and follows it from there (each line it reads, each end), its events going to `vis`.
   */
  private drawNow(): void {
    if (this.replay) return;
    const { game, settings, lineup, seed } = this.options;
    const replay = new VisReplay({ game, settings, lineup, seed, vis: this.vis, stopped: () => this.stopReason, decisions: this.decisions });
    this.replay = replay;
    this.seats.forEach((seat, index) => {
      const follower = replay.seats[index]!;
      const transcript = this.transcripts[index]!;
      const read = this.readsText ? firstCodeUnits(transcript.playerPieces(), seat.textTaken) : transcript.playerLines(seat.linesTaken);
      for (const line of read) follower.push(line);
      if (seat.endTaken) follower.end(seat.closeReason);
      seat.follower = follower;
    });
  }

  /** The seats as a live viewer sees them now (VisSeats): names, latest turns, close reasons. */
  private liveSeats(): LiveSeats {
    return {
      now: Math.round(this.elapsed() * 1000) / 1000,
      seats: this.seats.map((seat, index) => ({ name: seat.name, turn: this.seatClocks.latest(index), closed: seat.closeReason })),
    };
  }

  private attach(name: string, text: string): void {
    this.artifacts.delete(name);
    let used = 0;
    for (const kept of this.artifacts.values()) used += Buffer.byteLength(kept);
    const room = Math.max(0, MATCH_LIMITS.maxArtifactBytes - used);
    this.artifacts.set(name, Buffer.byteLength(text) <= room ? text : Buffer.from(text).subarray(0, room).toString());
  }

  /**
   * Ends the match early (server shutdown): every seat is closed, so the game sees its players
   * leave; the outcome has no result and `reason` as why it stopped.
   */
  abort(reason: string): void {
    this.stopReason ??= reason;
    for (const seat of this.seats) seat.close('shutdown', false);
    // Deadlines stay: an external game server that ignores its players leaving is still stopped.
    this.clock.hurry();
  }


  elapsed(): number {
    return (this.time.monotonic() - this.startMark) / 1000;
  }
}

function checkResult(result: MatchResult, seats: number): MatchResult {
  if (result.scores.length !== seats || !result.scores.every(Number.isFinite)) {
    throw new Error(`game returned ${result.scores.length} scores for ${seats} seats: ${result.scores.join(' ')}`);
  }
  return result;
}

function describe(error: unknown): string {
  return error instanceof Error ? (error.stack ?? error.message) : String(error);
}

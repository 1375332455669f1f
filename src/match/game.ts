import type { Result } from '../util/result.js';
import type { ArgRange } from '../protocol/games-json.js';
import type { VisEventInput } from '../protocol/vis-event.js';
import type { PlayerSeat, SeatFraming } from './seat.js';
import type { Random } from './random.js';
import type { Compute } from './compute.js';

/**
 * A game-specific argument. `description` and `regex` are what GameList (v2) sends on the coco
 * wire, and nothing else is; the rest is for people (the web form, `coco list`, the docs) and goes
 * out over HTTP only. Built-in games make these with the builders of games/arg-spec.ts.
 */
export type { ArgRange };

export interface ArgSpec {
  readonly description: string;
  /** A regex for a valid value (informative, for clients; the game validates itself). */
  readonly regex: string;
  /** A short hint for a form or a usage line: what the value means and its range ("seconds to wait between moves, 0 to 30"). */
  readonly hint: string;
  /** What a valid value is, completing "NAME must be ...": "a number from 0 to 30". */
  readonly expects: string;
  /** A value the game accepts (a form's placeholder, the "for example" of an error). */
  readonly example: string;
  /** The value used when the argument is not given, or null when there is none or it depends on the match. */
  readonly default: string | null;
  /** Without a fixed default, what happens when the argument is not given ("the match timeout"), or null. */
  readonly defaultNote: string | null;
  /** Bounds of a numeric argument, for checking a value before sending it; null for other arguments. */
  readonly range: ArgRange | null;
}

/** Match creation parameters as a client sent them (GameNew); null means "the game's default". */
export interface NewMatchParams {
  readonly players: number | null;
  readonly bots: number;
  readonly timeout: number | null;
  readonly args: Readonly<Record<string, string>>;
}

/** Validated creation parameters: defaults applied, `config` typed for the game. */
export interface MatchSettings<C> {
  readonly players: number;
  readonly bots: number;
  /** Player inactivity timeout in seconds. */
  readonly timeout: number;
  /** The game arguments as the client gave them (shown in the lobby). */
  readonly args: Readonly<Record<string, string>>;
  readonly config: C;
}

export interface MatchResult {
  /** One score per seat, in seat order. */
  readonly scores: readonly number[];
  /** Why the match ended, in words. */
  readonly reason: string;
}

/** What the runtime gives a game while it plays one match. */
export interface MatchContext {
  /** Seats in order: joined players, then server bots. */
  readonly seats: readonly PlayerSeat[];
  /** The spectator stream (text, or text already encoded as UTF-8, which is kept as it is: never change it). */
  readonly spectators: { write(data: string | Uint8Array): void };
  /** The match's seeded random source. */
  readonly random: Random;
  /** The player inactivity timeout, in seconds. */
  readonly timeout: number;
  /** Waits; returns at once when the match is being torn down. */
  sleep(seconds: number): Promise<void>;
  /** Calls `callback` after `seconds` unless the match ended first; returns a cancel function. */
  after(seconds: number, callback: () => void): () => void;
  /** Emits a visualizer event into the record and to live web spectators. */
  vis(event: VisEventInput): void;
  /**
   * Whether this run of the game draws (calls `vis`). False for the live run of a game whose
   * events the runtime derives from the seats' input (`GameDefinition.visFromInput`) while nobody
   * watches: the game then builds no event at all, and the runtime replays it when the events are
   * wanted (match/vis-replay.ts).
   */
  readonly drawing: boolean;
  /** Seconds since the match started. */
  elapsed(): number;
  /**
   * Keeps a text file with the match record (e.g. an external game's replay log), replacing one of
   * the same name. Bounded by MATCH_LIMITS.maxArtifactBytes in total; past it, the text is cut.
   */
  attach(name: string, text: string): void;
  /**
   * Why the runtime is ending the match early (`server shutdown`, a stopped tournament), or null
   * while it is not: its seats then close with reason 'shutdown', and the game should say the match
   * was interrupted rather than blame a player.
   */
  stopReason(): string | null;
  /**
   * Seat `seat` is to move within `limitSeconds` (the match's timeout for most games): its clock
   * runs until the game takes its next line (match/seat-clocks.ts, the record's `clock.json`).
   * Call it before reading the answer. Optional (a game calls it as `ctx.toMove?.(...)`): a
   * replay of a game whose pictures are derived from its input has no clock, but is told too, to
   * place the match's turns among the pictures it draws (TurnPlaces in match/seat-clocks.ts).
   */
  toMove?(seat: number, limitSeconds: number): void;
  /**
   * A game drawn from its input (`GameDefinition.visFromInput`) whose play turns on what its
   * record does not hold otherwise (which seat's line came first, whether a line or a timer did)
   * notes each such decision here, as a small non-negative integer, when played; the record keeps
   * them (match/decision-log.ts). Present in a played match; a replay has `recall` instead.
   */
  note?(decision: number): void;
  /**
   * In a replay of such a game, instead of `note`: the decisions the played match noted, in order,
   * each once the match made it; null past the last. A game reads its seats in the order they
   * give rather than by arrival or timer.
   */
  recall?(): Promise<number | null>;
}

/** The line stream a server bot plays through: the same bytes a user program would see. */
export interface BotIO {
  readLine(): Promise<string | null>;
  write(text: string): void;
  /** No more output: the game sees the end of this player's input, as when a program disconnects. */
  end(): void;
}

export interface BotEnv {
  /** The bot's seat index. */
  readonly seat: number;
  readonly random: Random;
  /** Where heavy search runs, off the server's event loop. */
  readonly compute: Compute;
  /**
   * The match timeout in seconds: the longest a player may take to answer. A bot's thinking time
   * is capped below it (match/bot-time.ts) and counted from when its move was asked for.
   */
  readonly timeout: number;
  /**
   * Which of the game's named bots (GameDefinition.botChoices) this seat asked for, or null for
   * the game's usual choice (a tournament seats a named bot program; GameNew never names one).
   */
  readonly choice: string | null;
}

/**
 * A game: its rules engine stays in its own module; this is its player protocol and its metadata.
 * One new game is one folder under games/ and one line in the registry.
 */
export interface GameDefinition<C = unknown> {
  readonly name: string;
  /** Markdown: introduction, Implementation details, Game parameters. */
  readonly description: string;
  readonly args: Readonly<Record<string, ArgSpec>>;
  /** Longest line a player may send, in bytes. */
  readonly maxLineBytes: number;
  /** How seats deliver player input to the game: lines (the default) or text as it arrives. */
  readonly framing?: SeatFraming;
  /**
   * Whether the game tells a player whose line was bad (too long, invalid UTF-8) what came of it:
   * the seat then stops reading at the bad line but keeps sending the game's output until the game
   * closes the seat or the match ends (the reference's chess and dama answer invalid UTF-8 as a
   * timeout). By default the player's connection is closed at once.
   */
  readonly answersBadLines?: boolean;
  /**
   * Whether the game's visualizer events follow from the match's seed, its settings and the lines
   * each seat sent (in order, each seat's input ending where the game saw it end, closed for the
   * reason the seat had then), and from nothing else: not the time, the game's own timers (a timer
   * that closes a seat is seen through that seat's close reason), the order in which lines of
   * different seats came, nor whether a seat is `closed` before the game reads its end (a replayed
   * seat is closed only once its end is read), unless the game notes those decisions (`note`,
   * `recall`); `stopReason` only once a seat's end was read for the stop ('shutdown'); and every
   * event carries its own `t`. Such a game's events are not built
   * while it is played: the runtime replays the game on the recorded input when a live viewer
   * watches, and the record keeps a note to replay it from instead of the events
   * (match/vis-replay.ts). Other games (and every external game) draw as they play.
   */
  readonly visFromInput?: boolean;
  /** Validates a GameNew request for this game; the error text goes back to the client as is. */
  configure(params: NewMatchParams): Result<MatchSettings<C>>;
  /** Runs one match to its end. Player misbehaviour is an outcome, never an exception. */
  play(ctx: MatchContext, config: C): Promise<MatchResult>;
  /**
   * The names of the server bots a seat may ask for by name (an external game's bot programs);
   * absent when the game has its one bot, empty when it has none.
   */
  readonly botChoices?: readonly string[];
  /** Plays one seat as a server bot. */
  playBot(io: BotIO, config: C, env: BotEnv): Promise<void>;
}

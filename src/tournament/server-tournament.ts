/**
 * A tournament the server runs between its own bots: each pairing of the schedule (pairings.ts,
 * played through schedule.ts as `coco tournament` plays it) becomes an ordinary match of server
 * bots only, created through a MatchHost in the pairing's seat order, at most `concurrency` at
 * once; each result is read from the match's record and tallied into the standings (standings.ts).
 */
import { botName } from '../match/match.js';
import type { Clock } from '../util/clock.js';
import type { Result } from '../util/result.js';
import type { Format, Pairing } from './pairings.js';
import { outcomeOf, type ResultLine } from './results-file.js';
import { runSchedule, scheduleSize } from './schedule.js';
import { standings, type Standings } from './standings.js';

/** One player of a server tournament: a server bot under a name of the tournament's. */
export interface BotEntrant {
  readonly name: string;
  /** One of the game's named bots (GameDefinition.botChoices), or null for its usual bot. */
  readonly bot: string | null;
}

/** What a server tournament is asked to play, validated (tournament-request.ts). */
export interface TournamentSpec {
  readonly game: string;
  readonly format: Format;
  readonly rounds: number;
  readonly concurrency: number;
  readonly entrants: readonly BotEntrant[];
  readonly args: Readonly<Record<string, string>>;
  /** Seconds of player inactivity, or null for the game's default. */
  readonly timeout: number | null;
  /** Swiss: breaks ties between equal scores. */
  readonly seed: string;
  /**
   * Seats of each match; null or absent in a request means the game's default, which the
   * directory (server-tournaments.ts) puts here before the tournament starts; 2 when absent.
   */
  readonly players?: number | null;
}

/** Seats of each match of `spec`. */
export function seatsPerMatch(spec: TournamentSpec): number {
  return spec.players ?? 2;
}

/**
 * What a tournament shows: its snapshot, the standings that follow from its results, and the
 * matches it is playing (none for one restored from the history, tournament-record.ts).
 */
export function tournamentView(snapshot: TournamentSnapshot, running: readonly RunningPairing[]): TournamentView {
  const { spec } = snapshot;
  const names = spec.entrants.map((entrant) => entrant.name);
  return {
    id: snapshot.id,
    game: spec.game,
    format: spec.format,
    rounds: spec.rounds,
    concurrency: spec.concurrency,
    entrants: spec.entrants,
    args: spec.args,
    timeout: spec.timeout,
    players: seatsPerMatch(spec),
    state: snapshot.state,
    error: snapshot.error,
    createdAt: snapshot.createdAt,
    endedAt: snapshot.endedAt,
    total: scheduleSize(spec.format, names.length, spec.rounds, seatsPerMatch(spec)),
    running,
    results: snapshot.results,
    standings: standings(names, snapshot.results),
  };
}

/** A match of server bots only, as the tournament asks for one. */
export interface BotMatchRequest {
  readonly game: string;
  readonly name: string;
  readonly args: Readonly<Record<string, string>>;
  readonly timeout: number | null;
  /** Each seat's bot, seat 0 first. */
  readonly lineup: readonly (string | null)[];
  /** Each seat's entrant name, seat 0 first: the match and its record name the seats so. */
  readonly names?: readonly string[];
}

/** What the tournament reads of a finished match. */
export interface EndedMatch {
  readonly scores: readonly number[] | null;
  readonly reason: string;
  readonly error: string | null;
  /** Each seat's close reason from its transcript (`timeout`, `removed`, `disconnected`), or null. */
  readonly closures: readonly (string | null)[];
}

/** Where a server tournament's matches run: the lobby and the history (lobby-match-host.ts), or a test's stand-in. */
export interface MatchHost {
  /** Creates a match of server bots that starts at once; its id, or why it was refused. */
  start(request: BotMatchRequest): Result<string>;
  /** Resolves once the match has ended and been recorded; null when the history has no record of it. */
  ended(id: string): Promise<EndedMatch | null>;
  /** Ends a match now (the tournament was stopped), `reason` going into its record; `ended` still resolves. */
  abort(id: string, reason: string): void;
}

/** `interrupted`: the server stopped while it ran (a restart shows it so, from its record). */
export const TOURNAMENT_STATES = ['running', 'finished', 'stopped', 'failed', 'interrupted'] as const;
export type TournamentState = (typeof TOURNAMENT_STATES)[number];

/** A match of the tournament that is being played. */
export interface RunningPairing {
  readonly pairing: number;
  readonly match: string;
  /** Entrant names by seat. */
  readonly players: readonly string[];
}

/** The tournament as the HTTP API shows it. */
export interface TournamentView {
  readonly id: string;
  readonly game: string;
  readonly format: Format;
  readonly rounds: number;
  readonly concurrency: number;
  readonly entrants: readonly BotEntrant[];
  readonly args: Readonly<Record<string, string>>;
  readonly timeout: number | null;
  /** Seats of each match. */
  readonly players: number;
  readonly state: TournamentState;
  /** Why it failed or was stopped, or null. */
  readonly error: string | null;
  /** Unix ms. */
  readonly createdAt: number;
  readonly endedAt: number | null;
  /** Matches in the schedule (swiss: the most it may play). */
  readonly total: number;
  readonly running: readonly RunningPairing[];
  /** Finished matches, in the order they finished. */
  readonly results: readonly ResultLine[];
  readonly standings: Standings;
}

/** A tournament as it stands, without what follows from it (standings) or lives only while it runs (running matches). */
export interface TournamentSnapshot {
  readonly id: string;
  readonly spec: TournamentSpec;
  readonly state: TournamentState;
  readonly error: string | null;
  readonly createdAt: number;
  readonly endedAt: number | null;
  readonly results: readonly ResultLine[];
}

/** One server tournament, running from its construction to the end of its schedule or a stop. */
export class ServerTournament {
  private readonly results: ResultLine[] = [];
  private readonly running = new Map<number, RunningPairing>();
  private state: TournamentState = 'running';
  private error: string | null = null;
  private endedAt: number | null = null;
  private readonly createdAt: number;
  private readonly names: readonly string[];
  /** The most matches it had running at once. */
  peakRunning = 0;
  /** Resolves when the last match it started has been tallied. */
  readonly done: Promise<void>;

  constructor(
    readonly id: string,
    readonly spec: TournamentSpec,
    private readonly host: MatchHost,
    private readonly clock: Clock,
    /** Told after every change (a match started or finished, the end), for live followers. */
    private readonly changed: () => void = () => {},
    /**
     * A tournament taken over from a node that died (shared-tournaments.ts): its creation time and
     * the results it had; their pairings are not played again, those it was playing are.
     */
    resume?: { readonly createdAt: number; readonly results: readonly ResultLine[] },
  ) {
    this.createdAt = resume?.createdAt ?? clock.now();
    this.results.push(...(resume?.results ?? []));
    this.names = spec.entrants.map((e) => e.name);
    this.done = this.run();
  }

  get current(): TournamentState {
    return this.state;
  }

  /**
   * Starts no more matches and ends those running now, each recorded with `reason` (they count as
   * unfinished, `*`): a stop asked for is a stop now, not after the longest running match.
   */
  stop(reason: string): void {
    if (!this.halt('stopped', reason)) return;
    for (const { match } of this.running.values()) this.host.abort(match, reason);
  }

  /** The server is stopping: starts no more matches; the server's shutdown ends those running. */
  interrupt(reason: string): void {
    this.halt('interrupted', reason);
  }

  private halt(state: TournamentState, reason: string): boolean {
    if (this.state !== 'running') return false;
    this.state = state;
    this.error = reason;
    this.changed();
    return true;
  }

  /** What the history keeps of it (tournament-record.ts): the standings follow from the results. */
  snapshot(): TournamentSnapshot {
    return { id: this.id, spec: this.spec, state: this.state, error: this.error, createdAt: this.createdAt, endedAt: this.endedAt, results: this.results };
  }

  view(): TournamentView {
    return tournamentView({ ...this.snapshot(), results: [...this.results] }, [...this.running.values()].sort((a, b) => a.pairing - b.pairing));
  }

  private async run(): Promise<void> {
    const { spec } = this;
    try {
      await runSchedule(
        { format: spec.format, rounds: spec.rounds, names: this.names, seatsPerMatch: seatsPerMatch(spec), seed: spec.seed, concurrency: spec.concurrency },
        { results: this.results, done: new Set(this.results.map((r) => r.pairing)), more: () => this.state === 'running', play: (pairing) => this.play(pairing) },
      );
    } catch (error) {
      this.fail(error instanceof Error ? error.message : String(error));
    }
    if (this.state === 'running') this.state = 'finished';
    this.endedAt = this.clock.now();
    this.changed();
  }

  private fail(reason: string): void {
    if (this.state !== 'running') return;
    this.state = 'failed';
    this.error = reason;
  }

  /** One pairing: its match, in the pairing's seat order, and its result once recorded. */
  private async play(pairing: Pairing): Promise<void> {
    const { spec } = this;
    const seats = pairing.seats.map((i) => spec.entrants[i]!);
    const players = seats.map((e) => e.name);
    const created = this.host.start({
      game: spec.game,
      // A match name is at most 24 characters: the tournament id and the pairing tag the match.
      name: `tour ${this.id} #${pairing.index}`,
      args: spec.args,
      timeout: spec.timeout,
      lineup: seats.map((e) => e.bot),
      names: players,
    });
    if (!created.ok) {
      // The lobby refused (full, or the game changed): the rest of the schedule would be refused too.
      this.fail(`match ${pairing.index} could not be created: ${created.error}`);
      this.changed();
      return;
    }
    const match = created.value;
    this.running.set(pairing.index, { pairing: pairing.index, match, players });
    this.peakRunning = Math.max(this.peakRunning, this.running.size);
    this.changed();
    let ended: EndedMatch | null;
    try {
      ended = await this.host.ended(match);
    } catch {
      // The record could not be read (the store failed): the match counts as one without a result.
      ended = null;
    } finally {
      this.running.delete(pairing.index);
    }
    this.results.push(resultLine(pairing.index, players, match, ended));
    this.changed();
  }
}

/** The results-file line of one finished match (the same shape `coco tournament` writes). */
export function resultLine(pairing: number, players: readonly string[], match: string, ended: EndedMatch | null): ResultLine {
  if (ended === null) return { pairing, players, scores: null, outcome: '*', match, reason: 'the server has no record of the match', crashed: [], timedOut: [], illegal: [] };
  const closedFor = (...reasons: string[]): string[] => players.filter((_, seat) => reasons.includes(ended.closures[seat] ?? ''));
  return {
    pairing,
    players,
    scores: ended.scores,
    outcome: outcomeOf(ended.scores),
    match,
    // The game speaks of the seats by their names, ServerBot$0, ServerBot$1...: here they are the entrants.
    reason: players.reduce((text, name, seat) => text.split(botName(seat)).join(name), [ended.reason, ended.error].filter((text): text is string => !!text).join(': ')),
    // A bot program that exits or breaks its stream leaves its seat: that is its crash.
    crashed: closedFor('disconnected', 'line/too-long', 'line/invalid-utf8', 'flood'),
    timedOut: closedFor('timeout'),
    illegal: closedFor('removed'),
  };
}

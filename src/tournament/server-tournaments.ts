/**
 * The server's tournaments: creation against the named limits (server-limits.ts), the list, a
 * stop, and the end of them all at shutdown. A tournament runs in this process's memory; with an
 * archive, it is kept in the history store as it changes and read back when the server starts
 * again (those that were running come back `interrupted`). Its matches are in the history like any other.
 */
import { randomBytes } from 'node:crypto';
import type { GameDefinition } from '../match/game.js';
import type { Clock } from '../util/clock.js';
import { err, ok, type Result } from '../util/result.js';
import { scheduleSize } from './schedule.js';
import { ServerTournament, type MatchHost, type TournamentSnapshot, type TournamentSpec, type TournamentState } from './server-tournament.js';
import type { TournamentArchive } from './tournament-archive.js';
import { ArchivedTournament } from './tournament-record.js';
import type { TournamentRefusal } from './tournament-request.js';

/** A tournament of the directory: one it runs, or one restored from the history (over). */
export type DirectoryTournament = Pick<ServerTournament, 'id' | 'current' | 'done' | 'view' | 'snapshot' | 'stop' | 'interrupt'>;

/** The reason a stopped tournament's running matches are recorded with. */
export const STOP_REASON = 'the tournament was stopped';

export interface TournamentLimits {
  /** Tournaments running at once. */
  readonly running: number;
  /** Finished tournaments kept (the oldest finished is forgotten first). */
  readonly kept: number;
  readonly entrants: number;
  /** Matches in one tournament's schedule. */
  readonly matches: number;
  readonly concurrency: number;
}

export interface TournamentDirectoryOptions {
  readonly host: MatchHost;
  /** The server's games: a tournament's game, arguments and bots are checked against them. */
  readonly games: () => readonly GameDefinition<any>[];
  readonly limits: TournamentLimits;
  readonly clock: Clock;
  /** New tournament ids; random by default. */
  readonly ids?: () => string;
  /** Told after any change of any tournament (live followers). */
  readonly changed?: (id: string) => void;
  /** Where tournaments are kept across restarts; in memory only without it. */
  readonly archive?: TournamentArchive;
}

/** One line of the list. */
export interface TournamentSummary {
  readonly id: string;
  readonly game: string;
  readonly format: string;
  readonly state: TournamentState;
  readonly entrants: number;
  readonly total: number;
  readonly finished: number;
  readonly running: number;
  readonly createdAt: number;
}

export class TournamentDirectory {
  /** In creation order. */
  private readonly tournaments = new Map<string, DirectoryTournament>();
  private readonly ids: () => string;

  constructor(private readonly options: TournamentDirectoryOptions) {
    this.ids = options.ids ?? (() => randomBytes(5).toString('hex'));
  }

  /** Checks `spec` and starts it; the refusal names the limit or the field at fault. */
  create(spec: TournamentSpec): Result<ServerTournament, TournamentRefusal> {
    const { limits } = this.options;
    const running = this.runningCount();
    if (running >= limits.running) return err({ code: 'tournament/too-many-running', error: `${running} tournaments are running, the most this server runs at once (limit tournaments-running)` });
    if (spec.entrants.length > limits.entrants) return err({ code: 'tournament/too-many-entrants', error: `${spec.entrants.length} entrants: at most ${limits.entrants} (limit tournament-entrants)` });
    if (spec.concurrency > limits.concurrency) return err({ code: 'tournament/too-much-concurrency', error: `concurrency ${spec.concurrency}: at most ${limits.concurrency} (limit tournament-concurrency)` });
    const game = this.options.games().find((g) => g.name === spec.game);
    if (!game) return err({ code: 'tournament/no-game', error: `no game "${spec.game.slice(0, 64)}"` });
    const unknownBot = spec.entrants.find((e) => (e.bot === null ? game.botChoices?.length === 0 : !(game.botChoices ?? []).includes(e.bot)));
    if (unknownBot) {
      const choices = game.botChoices === undefined ? `its one bot (bot: null)` : game.botChoices.length === 0 ? 'none' : [...game.botChoices, 'null'].join(', ');
      return err({ code: 'tournament/no-bot', error: `entrant "${unknownBot.name}": ${game.name} has no such server bot (bots: ${choices})` });
    }
    // The match parameters are the game's to judge, once, before any match is made. A request
    // that leaves the seats to the game takes its default, which configure applies.
    const byDefault = game.configure({ players: spec.players ?? null, bots: 0, timeout: spec.timeout, args: spec.args });
    if (!byDefault.ok) return err({ code: 'tournament/bad-args', error: byDefault.error });
    const seats = byDefault.value.players;
    const configured = game.configure({ players: seats, bots: seats, timeout: spec.timeout, args: spec.args });
    if (!configured.ok) return err({ code: 'tournament/bad-args', error: configured.error });
    if (spec.entrants.length < seats) return err({ code: 'tournament/bad-field', error: `a game of ${seats} players needs at least ${seats} entrants, not ${spec.entrants.length}` });
    // Checked before the size is multiplied out, so a huge round count cannot overflow it.
    const perRound = scheduleSize(spec.format, spec.entrants.length, 1, seats);
    if (spec.rounds > limits.matches || perRound * spec.rounds > limits.matches) {
      const tables = seats === 2 ? '' : ` at tables of ${seats}`;
      return err({ code: 'tournament/too-many-matches', error: `${spec.format} of ${spec.entrants.length} entrants${tables} over ${spec.rounds} rounds is ${perRound * spec.rounds} matches: at most ${limits.matches} (limit tournament-matches)` });
    }
    let id = this.ids();
    while (this.tournaments.has(id)) id = this.ids();
    const tournament = new ServerTournament(id, { ...spec, players: seats }, this.options.host, this.options.clock, () => this.changed(id));
    this.tournaments.set(id, tournament);
    this.options.archive?.save(tournament.snapshot());
    // Kept to the limit when one ends (only an ended one is ever forgotten).
    void tournament.done.then(() => this.forgetOld());
    return ok(tournament);
  }

  /**
   * Runs a tournament another node started and can no longer run (shared-tournaments.ts), from
   * its results so far: checked when it was created, it is not checked against the limits again.
   */
  adopt(snapshot: TournamentSnapshot): ServerTournament {
    const { id } = snapshot;
    this.tournaments.delete(id);
    const tournament = new ServerTournament(id, snapshot.spec, this.options.host, this.options.clock, () => this.changed(id), { createdAt: snapshot.createdAt, results: snapshot.results });
    this.tournaments.set(id, tournament);
    void tournament.done.then(() => this.forgetOld());
    return tournament;
  }

  /** Tournaments running here now. */
  runningCount(): number {
    return [...this.tournaments.values()].filter((t) => t.current === 'running').length;
  }

  /**
   * Reads the tournaments the archive keeps (at start, before any is created). Those that were
   * running are saved again as `interrupted`; past `tournaments-kept`, the oldest are forgotten.
   */
  async restore(): Promise<void> {
    const { archive } = this.options;
    if (!archive) return;
    for (const snapshot of (await archive.load()).reverse()) {
      if (this.tournaments.has(snapshot.id)) continue;
      this.tournaments.set(snapshot.id, new ArchivedTournament(snapshot));
      archive.save(snapshot);
    }
    this.forgetOld();
  }

  get(id: string): DirectoryTournament | null {
    return this.tournaments.get(id) ?? null;
  }

  /** Stops a running tournament now (ServerTournament.stop); refused for an unknown id or one that is over. */
  stop(id: string): Result<DirectoryTournament, TournamentRefusal> {
    const tournament = this.tournaments.get(id);
    if (!tournament) return err({ code: 'tournament/not-found', error: `no tournament "${id}"` });
    if (tournament.current !== 'running') return err({ code: 'tournament/not-running', error: `tournament ${id} is ${tournament.current} already: only a running one can be stopped` });
    tournament.stop(STOP_REASON);
    return ok(tournament);
  }

  /** Newest first. */
  list(): TournamentSummary[] {
    return [...this.tournaments.values()].reverse().map((t) => {
      const view = t.view();
      return { id: t.id, game: view.game, format: view.format, state: view.state, entrants: view.entrants.length, total: view.total, finished: view.results.length, running: view.running.length, createdAt: view.createdAt };
    });
  }

  /**
   * The server is stopping: every running tournament is interrupted (it starts no more matches;
   * the lobby's shutdown ends those running). Resolves once their running matches are tallied and
   * the archive has written them.
   */
  async shutdown(reason: string): Promise<void> {
    for (const t of this.tournaments.values()) t.interrupt(reason);
    await Promise.all([...this.tournaments.values()].map((t) => t.done));
    await this.options.archive?.flushed();
  }

  private changed(id: string): void {
    // Told during the tournament's construction too, before it is in the map: create() saves it then.
    const tournament = this.tournaments.get(id);
    if (tournament) this.options.archive?.save(tournament.snapshot());
    this.options.changed?.(id);
  }

  /** Keeps at most `kept` tournaments that are over, in memory and in the archive; running ones are never forgotten. */
  private forgetOld(): void {
    const over = [...this.tournaments.values()].filter((t) => t.current !== 'running');
    for (const t of over.slice(0, Math.max(0, over.length - this.options.limits.kept))) {
      this.tournaments.delete(t.id);
      this.options.archive?.forget(t.id);
    }
  }
}

/**
 * What the tournaments' HTTP API (src/gateways/tournaments-api.ts) asks of the server's
 * tournaments, whoever keeps them: one server's own (LocalTournaments, below), or the nodes of a
 * cluster sharing them through a TournamentStore (shared-tournaments.ts). Async, since a cluster's
 * answer may come from a database.
 */
import type { Clock } from '../util/clock.js';
import { err, ok, type Result } from '../util/result.js';
import type { TournamentView, TournamentSpec } from './server-tournament.js';
import type { TournamentDirectory, TournamentSummary } from './server-tournaments.js';
import type { TournamentRefusal } from './tournament-request.js';

/** A tournament as shown, with its change count (a follower's long poll waits for the next). */
export interface FollowedTournament {
  readonly view: TournamentView;
  readonly version: number;
}

export interface TournamentService {
  /** Checks `spec` and starts it: from the answer on, any node finds it. */
  create(spec: TournamentSpec): Promise<Result<FollowedTournament, TournamentRefusal>>;
  find(id: string): Promise<FollowedTournament | null>;
  /** Stops a running tournament (ServerTournament.stop), wherever it runs. */
  stop(id: string): Promise<Result<FollowedTournament, TournamentRefusal>>;
  /** Newest first. */
  list(): Promise<TournamentSummary[]>;
  /**
   * Resolves at the first change of `id` past version `after`, at once when nothing will change any
   * more (it is over and none of its matches runs, or it is unknown), after `waitMs`, or when `gone`
   * is aborted (the client left).
   */
  nextChange(id: string, after: number, waitMs: number, gone: AbortSignal): Promise<void>;
}

/** Over and settled: no match of it runs any more, so nothing of it will change. */
export function settled(view: TournamentView): boolean {
  return view.state !== 'running' && view.running.length === 0;
}

/** Waits for `wake` to be called, `waitMs` to pass or `gone` to abort, whichever comes first. */
export function waitForWake(clock: Clock, waitMs: number, gone: AbortSignal, register: (wake: () => void) => () => void): Promise<void> {
  if (gone.aborted) return Promise.resolve();
  return new Promise((resolve) => {
    const done = (): void => {
      cancel();
      unregister();
      gone.removeEventListener('abort', done);
      resolve();
    };
    const cancel = clock.setTimer(waitMs, done, { weak: true });
    const unregister = register(done);
    gone.addEventListener('abort', done, { once: true });
  });
}

/**
 * The tournaments of one server, in its memory (TournamentDirectory): a change count per
 * tournament, counted here from the directory's `changed`, and the long polls waiting for it.
 */
export class LocalTournaments implements TournamentService {
  private readonly versions = new Map<string, number>();
  private readonly polls = new Map<string, Set<() => void>>();

  /** `keep`: how many change counts may be kept before those of forgotten tournaments are dropped. */
  constructor(
    private readonly directory: Pick<TournamentDirectory, 'create' | 'get' | 'stop' | 'list'>,
    private readonly clock: Clock,
    private readonly keep: number,
  ) {}

  /** Tell this after each change of tournament `id` (TournamentDirectory's `changed`). */
  changed(id: string): void {
    this.versions.set(id, (this.versions.get(id) ?? 0) + 1);
    // Forgotten tournaments' counts go too, now and then (the directory keeps a bounded number).
    if (this.versions.size > this.keep) {
      for (const known of this.versions.keys()) if (known !== id && !this.directory.get(known)) this.versions.delete(known);
    }
    const waiting = this.polls.get(id);
    this.polls.delete(id);
    for (const wake of waiting ?? []) wake();
  }

  async create(spec: TournamentSpec): Promise<Result<FollowedTournament, TournamentRefusal>> {
    const created = this.directory.create(spec);
    return created.ok ? ok(this.followed(created.value.view())) : created;
  }

  async find(id: string): Promise<FollowedTournament | null> {
    const tournament = this.directory.get(id);
    return tournament && this.followed(tournament.view());
  }

  async stop(id: string): Promise<Result<FollowedTournament, TournamentRefusal>> {
    const stopped = this.directory.stop(id);
    return stopped.ok ? ok(this.followed(stopped.value.view())) : err(stopped.error);
  }

  async list(): Promise<TournamentSummary[]> {
    return this.directory.list();
  }

  nextChange(id: string, after: number, waitMs: number, gone: AbortSignal): Promise<void> {
    const tournament = this.directory.get(id);
    if (!tournament || settled(tournament.view()) || (this.versions.get(id) ?? 0) > after) return Promise.resolve();
    return waitForWake(this.clock, waitMs, gone, (wake) => {
      const waiting = this.polls.get(id) ?? new Set();
      this.polls.set(id, waiting);
      waiting.add(wake);
      return () => waiting.delete(wake);
    });
  }

  private followed(view: TournamentView): FollowedTournament {
    return { view, version: this.versions.get(view.id) ?? 0 };
  }
}

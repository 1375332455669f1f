/**
 * The server tournaments of a cluster's nodes (`cocod --redis --postgres`, `cocod --nodes N`):
 * each runs on the node it was created on, as on a single server (TournamentDirectory), and its
 * state lives in a TournamentStore that every node reads, so any node answers for any tournament.
 *
 * The running node holds a lease on each of its tournaments, renewed every refresh; every write
 * carries the lease's epoch, and the store refuses a write of an epoch that was taken over. When a
 * lease runs out (the node died, or was paused past it), the next node to look takes the
 * tournament over and plays the rest of its schedule: the pairings whose results are in the store
 * are not played again; those the lost node was playing are. A node that stops (SIGTERM) hands its
 * running tournaments over at once, so a rolling restart loses none.
 */
import type { SharedTournament, TournamentLease, TournamentStore, TournamentWrite } from '../store/tournament-store.js';
import type { Clock } from '../util/clock.js';
import type { Log } from '../util/log.js';
import { err, ok, type Result } from '../util/result.js';
import { tournamentView, type TournamentSpec } from './server-tournament.js';
import { TournamentDirectory, type TournamentDirectoryOptions, type TournamentSummary } from './server-tournaments.js';
import { readShared, resultText, sharedEntry } from './tournament-record.js';
import type { TournamentRefusal } from './tournament-request.js';
import { settled, waitForWake, type FollowedTournament, type TournamentService } from './tournament-service.js';

/**
 * How often a long poll on a node that does not run the tournament reads the store again: the
 * running node's changes reach its followers on other nodes this late at most.
 */
export const SHARED_POLL_MS = 500;

/** Why a node that lost its lease stops its copy of the tournament (another node plays on). */
export const TAKEN_OVER_REASON = 'another node took the tournament over';

export interface SharedTournamentsOptions extends Omit<TournamentDirectoryOptions, 'changed' | 'archive'> {
  readonly store: TournamentStore;
  /** This node's name, unique in the cluster: the lease holder. */
  readonly node: string;
  readonly leaseMs: number;
  /** How often leases are renewed and orphans looked for (less than leaseMs). */
  readonly refreshMs: number;
  readonly log: Log;
}

/** What this node knows of a tournament it runs. */
interface Held {
  readonly epoch: number;
  /** This node's writes of it, one after another in the order asked. */
  queue: Promise<void>;
  /** The body and the number of results the store holds, as far as this node wrote them. */
  body: string;
  results: number;
}

export class SharedTournaments implements TournamentService {
  private readonly directory: TournamentDirectory;
  private readonly held = new Map<string, Held>();
  /** Long polls on this node, woken when one of its own writes lands. */
  private readonly polls = new Map<string, Set<() => void>>();
  private cancelTick: (() => void) | null = null;
  private ticking: Promise<void> = Promise.resolve();
  private stopping = false;

  constructor(private readonly options: SharedTournamentsOptions) {
    const { store: _store, node: _node, leaseMs: _lease, refreshMs: _refresh, log: _log, ...directory } = options;
    this.directory = new TournamentDirectory({ ...directory, changed: (id) => this.changed(id) });
  }

  /** Starts renewing leases and looking for orphaned tournaments, now and every refresh. */
  start(): void {
    this.ticking = this.tick();
  }

  async create(spec: TournamentSpec): Promise<Result<FollowedTournament, TournamentRefusal>> {
    const created = this.directory.create(spec);
    if (!created.ok) return created;
    const tournament = created.value;
    const { store, node, clock } = this.options;
    const entry = sharedEntry(tournament.snapshot(), tournament.view().running);
    let lease: TournamentLease;
    try {
      lease = await store.create(entry, node, clock.now() + this.options.leaseMs);
    } catch (error) {
      // Nobody else could follow it, nor take it over: it does not run at all.
      tournament.stop(`the tournament could not be kept: ${messageOf(error)}`);
      return err({ code: 'tournament/unavailable', error: `the tournament could not be kept where every node finds it: ${messageOf(error)}` });
    }
    this.hold(tournament.id, lease.epoch, entry.body, 0, tournament.done);
    // What changed while the store was creating it (its first matches started) is written now.
    this.save(tournament.id);
    await this.held.get(tournament.id)?.queue;
    return ok({ view: tournament.view(), version: (await store.get(tournament.id))?.version ?? 1 });
  }

  async find(id: string): Promise<FollowedTournament | null> {
    const stored = await this.options.store.get(id);
    return stored && this.followed(stored);
  }

  async stop(id: string): Promise<Result<FollowedTournament, TournamentRefusal>> {
    const { store, clock } = this.options;
    if (this.held.has(id)) {
      const stopped = this.directory.stop(id);
      if (!stopped.ok) return err(stopped.error);
      await this.held.get(id)?.queue;
    } else {
      const found = await this.find(id);
      if (!found) return err({ code: 'tournament/not-found', error: `no tournament "${id}"` });
      if (found.view.state !== 'running') return err({ code: 'tournament/not-running', error: `tournament ${id} is ${found.view.state} already: only a running one can be stopped` });
      await store.askStop(id);
      // Its node stops it at its next renewal; one that is gone, once another has taken it over.
      const deadline = clock.now() + this.options.leaseMs + 2 * this.options.refreshMs;
      let seen = await this.find(id);
      while (seen && seen.view.state === 'running' && clock.now() < deadline) {
        await this.nextChange(id, seen.version, deadline - clock.now(), new AbortController().signal);
        seen = await this.find(id);
      }
    }
    const now = await this.find(id);
    return now ? ok(now) : err({ code: 'tournament/not-found', error: `no tournament "${id}"` });
  }

  async list(): Promise<TournamentSummary[]> {
    const summaries: TournamentSummary[] = [];
    for (const stored of await this.options.store.list()) {
      const followed = this.followed(stored);
      if (!followed) continue;
      const { view } = followed;
      summaries.push({ id: view.id, game: view.game, format: view.format, state: view.state, entrants: view.entrants.length, total: view.total, finished: view.results.length, running: view.running.length, createdAt: view.createdAt });
    }
    return summaries;
  }

  async nextChange(id: string, after: number, waitMs: number, gone: AbortSignal): Promise<void> {
    const { clock } = this.options;
    const deadline = clock.now() + waitMs;
    for (;;) {
      const stored = await this.find(id);
      if (!stored || stored.version > after || settled(stored.view) || gone.aborted) return;
      const left = deadline - clock.now();
      if (left <= 0) return;
      // Woken by this node's own write of it at once; another node's, seen at the next read.
      await waitForWake(clock, Math.min(left, SHARED_POLL_MS), gone, (wake) => {
        const waiting = this.polls.get(id) ?? new Set();
        this.polls.set(id, waiting);
        waiting.add(wake);
        return () => waiting.delete(wake);
      });
    }
  }

  /**
   * The node is stopping: its tournaments are handed over (their leases end now, so another node
   * takes them over at its next look, or this cluster's next node to start), and they stop here
   * without writing: the matches the shutdown ends are played again by the next node.
   */
  async shutdown(reason: string): Promise<void> {
    this.stopping = true;
    this.cancelTick?.();
    await this.ticking;
    const handing = [...this.held.entries()];
    this.held.clear();
    await Promise.all(
      handing.map(async ([id, held]) => {
        await held.queue;
        await this.options.store.write(id, held.epoch, { until: 0 }).then(
          () => this.options.log.info(`tournament ${id} handed over to the other nodes`),
          (error: unknown) => this.options.log.error(`tournament ${id} could not be handed over (another node takes it over when its lease runs out): ${messageOf(error)}`),
        );
      }),
    );
    await this.directory.shutdown(reason);
  }

  private hold(id: string, epoch: number, body: string, results: number, done: Promise<void>): void {
    this.held.set(id, { epoch, queue: Promise.resolve(), body, results });
    void done.then(() => {
      // Over: the last write ends its lease, and nobody takes it over any more.
      this.save(id, { until: null });
      const held = this.held.get(id);
      void held?.queue.then(() => {
        if (this.held.get(id) === held) this.held.delete(id);
        return this.forgetOld();
      });
    });
  }

  private changed(id: string): void {
    // During creation the store has not got it yet: create() writes what changed meanwhile.
    if (this.held.has(id)) this.save(id);
  }

  /** Writes what changed of tournament `id` since this node's last write, with `extra`, fenced by its lease. */
  private save(id: string, extra: TournamentWrite = {}): void {
    const held = this.held.get(id);
    const tournament = this.directory.get(id);
    if (!held || !tournament || this.stopping) return;
    const snapshot = tournament.snapshot();
    const { body } = sharedEntry(snapshot, tournament.view().running);
    const from = held.results;
    const lines = snapshot.results.slice(from).map(resultText);
    const bodyChanged = body !== held.body;
    if (!bodyChanged && lines.length === 0 && extra.until === undefined) return;
    held.body = body;
    held.results = snapshot.results.length;
    const change: TournamentWrite = { ...extra, ...(bodyChanged && { body }), ...(lines.length > 0 && { results: { from, lines } }) };
    held.queue = held.queue
      .then(async () => {
        if (!(await this.options.store.write(id, held.epoch, change))) this.lost(id, held);
      })
      .catch((error: unknown) => {
        // Not knowing what the store holds now, the next write writes it whole.
        held.body = '';
        held.results = 0;
        this.options.log.error(`tournament ${id} could not be written to the tournament store: ${messageOf(error)}`);
      })
      .finally(() => this.wake(id));
  }

  /** Another node took the tournament over: this node's copy stops, writing nothing more. */
  private lost(id: string, held: Held): void {
    if (this.held.get(id) !== held) return;
    this.held.delete(id);
    this.options.log.error(`tournament ${id}: ${TAKEN_OVER_REASON} (this node's lease ran out); its matches here are ended`);
    this.directory.get(id)?.stop(TAKEN_OVER_REASON);
  }

  private wake(id: string): void {
    const waiting = this.polls.get(id);
    this.polls.delete(id);
    for (const wake of waiting ?? []) wake();
  }

  private async tick(): Promise<void> {
    if (this.stopping) return;
    try {
      await this.renew();
      await this.adoptOrphans();
    } catch (error) {
      this.options.log.error(`the tournament store cannot be reached: ${messageOf(error)}`);
    }
    if (this.stopping) return;
    this.cancelTick = this.options.clock.setTimer(this.options.refreshMs, () => (this.ticking = this.tick()), { weak: true });
  }

  /** Renews this node's leases, and stops those a node asked to stop. */
  private async renew(): Promise<void> {
    const { store, clock, leaseMs } = this.options;
    for (const id of [...this.held.keys()]) {
      this.save(id, { until: clock.now() + leaseMs });
      const stored = await store.get(id);
      if (stored?.stopAsked && this.directory.get(id)?.current === 'running') this.directory.stop(id);
    }
    await Promise.all([...this.held.values()].map((held) => held.queue));
  }

  /** Takes over the tournaments whose node is gone, as many as this node may run. */
  private async adoptOrphans(): Promise<void> {
    const { store, node, clock, leaseMs, limits, log } = this.options;
    for (const id of await store.orphans(clock.now())) {
      if (this.stopping || this.directory.runningCount() >= limits.running) return;
      const lost = (await store.get(id))?.lease.node ?? 'unknown';
      const lease = await store.takeOver(id, node, clock.now(), clock.now() + leaseMs);
      if (!lease) continue;
      const stored = await store.get(id);
      if (!stored) continue;
      const read = readShared(stored);
      if (!read.ok) {
        log.error(`tournament ${id} cannot be taken over, left as it is: ${read.error}`);
        await store.write(id, lease.epoch, { until: null });
        continue;
      }
      const { snapshot } = read.value;
      if (snapshot.state !== 'running') {
        // It ended, but its node died before its lease did: nothing to play.
        await store.write(id, lease.epoch, { until: null });
        continue;
      }
      const tournament = this.directory.adopt(snapshot);
      this.hold(id, lease.epoch, stored.body, snapshot.results.length, tournament.done);
      this.save(id);
      log.info(`tournament ${id} taken over from node ${lost} (epoch ${lease.epoch}): ${snapshot.results.length} matches recorded, the rest played here`);
      if (stored.stopAsked) this.directory.stop(id);
    }
  }

  /** Keeps at most `tournaments-kept` tournaments that are over in the store, forgetting the oldest. */
  private async forgetOld(): Promise<void> {
    const { store, limits, log } = this.options;
    try {
      const over = (await store.list()).filter((t) => t.lease.until === null);
      for (const t of over.slice(limits.kept)) await store.forget(t.id);
    } catch (error) {
      log.error(`old tournaments could not be forgotten: ${messageOf(error)}`);
    }
  }

  private followed(stored: SharedTournament): FollowedTournament | null {
    const read = readShared(stored);
    if (!read.ok) {
      this.options.log.error(`tournament ${stored.id} in the tournament store cannot be read, left out: ${read.error}`);
      return null;
    }
    return { view: tournamentView(read.value.snapshot, read.value.running), version: stored.version };
  }
}

function messageOf(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}

/**
 * Where the nodes of a cluster keep their server tournaments (src/tournament/shared-tournaments.ts): one small
 * async seam, with an in-memory implementation (this file: one process, or the primary of
 * `cocod --nodes N` serving its nodes over IPC) and a PostgreSQL one (postgres-tournament-store.ts,
 * nodes on several machines). Both pass one contract suite (tournament-store.test.ts).
 *
 * The node that runs a tournament holds a lease on it: the lease's epoch fences every write, so a
 * node whose lease another node took over (it was paused, or cut off) writes nothing more. Times
 * are the callers' (Unix ms from their clock): the nodes' clocks must agree to well within a lease.
 * The texts are the tournament's own (src/tournament/tournament-record.ts), as in the history store.
 */
import type { TournamentEntry } from './history-store.js';

/** Who runs a tournament, and until when unless renewed. */
export interface TournamentLease {
  readonly node: string;
  /** 1 at creation, one more at each takeover: a write carries the epoch it was leased under. */
  readonly epoch: number;
  /** Unix ms; null once the tournament is over (nobody needs to run it). */
  readonly until: number | null;
}

/** A tournament as the shared store holds it. */
export interface SharedTournament extends TournamentEntry {
  /** Its results, one JSON text each, by index. */
  readonly results: readonly string[];
  /** One more at every write of its body or results (not at a lease's renewal): what a long poll on any node waits to see pass. */
  readonly version: number;
  readonly lease: TournamentLease;
  /** A node other than its runner was asked to stop it: the runner stops it at its next renewal. */
  readonly stopAsked: boolean;
}

/** What a fenced write changes; what is absent stays as it is. */
export interface TournamentWrite {
  readonly body?: string;
  /** Results from index `from` on (replacing any of those indices). */
  readonly results?: { readonly from: number; readonly lines: readonly string[] };
  /** The lease's new end; null: the tournament is over. */
  readonly until?: number | null;
}

export interface TournamentStore {
  /** Creates a tournament leased to `node` until `until` (epoch 1); throws when the id is taken. */
  create(entry: TournamentEntry, node: string, until: number): Promise<TournamentLease>;
  get(id: string): Promise<SharedTournament | null>;
  /** Every tournament, newest first (by createdAt; of equal times, the one created last). */
  list(): Promise<SharedTournament[]>;
  /**
   * Writes `change` (counting a version when it writes the body or results) only if the tournament's lease is still `epoch`:
   * false, writing nothing, once another node took it over (or it is gone).
   */
  write(id: string, epoch: number, change: TournamentWrite): Promise<boolean>;
  /** Ids of the tournaments whose lease ran out before `now` (their node is gone): oldest first. */
  orphans(now: number): Promise<string[]>;
  /**
   * Takes over a tournament whose lease ran out before `now`, leasing it to `node` until `until`
   * under the next epoch; null when its lease is live (or over, or it is gone): one node wins.
   */
  takeOver(id: string, node: string, now: number, until: number): Promise<TournamentLease | null>;
  /** Asks the tournament's runner to stop it (SharedTournament.stopAsked); false when it is gone. */
  askStop(id: string): Promise<boolean>;
  /** Removes a tournament and its results. */
  forget(id: string): Promise<void>;
  close(): Promise<void>;
}

interface Kept {
  readonly entry: TournamentEntry;
  readonly seq: number;
  results: string[];
  version: number;
  lease: TournamentLease;
  stopAsked: boolean;
}

/** The embedded default: the tournaments of one process (or of the nodes the process serves). */
export class MemoryTournamentStore implements TournamentStore {
  private readonly kept = new Map<string, Kept>();
  private seq = 0;

  async create(entry: TournamentEntry, node: string, until: number): Promise<TournamentLease> {
    if (this.kept.has(entry.id)) throw new Error(`tournament "${entry.id}" exists already`);
    const lease = { node, epoch: 1, until };
    this.kept.set(entry.id, { entry: { ...entry }, seq: this.seq++, results: [], version: 1, lease, stopAsked: false });
    return lease;
  }

  async get(id: string): Promise<SharedTournament | null> {
    const kept = this.kept.get(id);
    return kept ? shared(kept) : null;
  }

  async list(): Promise<SharedTournament[]> {
    return [...this.kept.values()].sort((a, b) => b.entry.createdAt - a.entry.createdAt || b.seq - a.seq).map(shared);
  }

  async write(id: string, epoch: number, change: TournamentWrite): Promise<boolean> {
    const kept = this.kept.get(id);
    if (!kept || kept.lease.epoch !== epoch) return false;
    if (change.body !== undefined) (kept as { entry: TournamentEntry }).entry = { ...kept.entry, body: change.body };
    if (change.results) for (const [i, line] of change.results.lines.entries()) kept.results[change.results.from + i] = line;
    if (change.until !== undefined) kept.lease = { ...kept.lease, until: change.until };
    if (change.body !== undefined || change.results) kept.version++;
    return true;
  }

  async orphans(now: number): Promise<string[]> {
    return [...this.kept.values()].filter((k) => runOut(k.lease, now)).sort((a, b) => a.entry.createdAt - b.entry.createdAt || a.seq - b.seq).map((k) => k.entry.id);
  }

  async takeOver(id: string, node: string, now: number, until: number): Promise<TournamentLease | null> {
    const kept = this.kept.get(id);
    if (!kept || !runOut(kept.lease, now)) return null;
    kept.lease = { node, epoch: kept.lease.epoch + 1, until };
    kept.version++;
    return kept.lease;
  }

  async askStop(id: string): Promise<boolean> {
    const kept = this.kept.get(id);
    if (!kept) return false;
    kept.stopAsked = true;
    kept.version++;
    return true;
  }

  async forget(id: string): Promise<void> {
    this.kept.delete(id);
  }

  async close(): Promise<void> {}
}

function runOut(lease: TournamentLease, now: number): boolean {
  return lease.until !== null && lease.until < now;
}

function shared(kept: Kept): SharedTournament {
  return { ...kept.entry, results: kept.results.filter((r) => r !== undefined), version: kept.version, lease: kept.lease, stopAsked: kept.stopAsked };
}

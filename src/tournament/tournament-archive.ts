/**
 * Keeps the server's tournaments in the history store as they change, so that a restart still
 * lists and shows them (tournament-record.ts). Writes go one after another, in the order asked
 * (a later state never lands before an earlier one); each writes only what changed since the last:
 * the body when it changed, and the results added since. A write the store refuses (a database
 * outage) is logged and the tournament goes on: its next change writes it whole again.
 */
import type { HistoryStore } from '../store/history-store.js';
import type { Log } from '../util/log.js';
import type { TournamentSnapshot } from './server-tournament.js';
import { restoreTournament, resultText, tournamentEntry } from './tournament-record.js';

export class TournamentArchive {
  /** What the store holds of each tournament, as far as this archive wrote or read it. */
  private readonly saved = new Map<string, { readonly body: string; readonly results: number }>();
  private queue: Promise<void> = Promise.resolve();

  constructor(
    private readonly store: HistoryStore,
    private readonly log: Log,
  ) {}

  /** The tournaments the store keeps, newest first; one that cannot be read is logged and left out. */
  async load(): Promise<TournamentSnapshot[]> {
    const restored: TournamentSnapshot[] = [];
    for (const stored of await this.store.tournaments()) {
      const snapshot = restoreTournament(stored);
      if (!snapshot.ok) {
        this.log.error(`tournament ${stored.id} in the history cannot be read, left out: ${snapshot.error}`);
        continue;
      }
      this.saved.set(stored.id, { body: stored.body, results: stored.results.length });
      restored.push(snapshot.value);
    }
    return restored;
  }

  /** Writes what changed of the tournament since its last save. */
  save(snapshot: TournamentSnapshot): void {
    const { id } = snapshot;
    const entry = tournamentEntry(snapshot);
    const known = this.saved.get(id);
    const from = known?.results ?? 0;
    const added = snapshot.results.slice(from);
    if (known?.body === entry.body && added.length === 0) return;
    this.saved.set(id, { body: entry.body, results: snapshot.results.length });
    this.enqueue(id, async () => {
      if (known?.body !== entry.body) await this.store.saveTournament(entry);
      for (const [i, result] of added.entries()) await this.store.addTournamentResult(id, from + i, resultText(result));
    });
  }

  /** Removes it from the store (the directory keeps `tournaments-kept` of those over). */
  forget(id: string): void {
    this.saved.delete(id);
    this.enqueue(id, () => this.store.forgetTournament(id));
  }

  /** Resolves once every write asked for so far is done (or logged as failed). */
  flushed(): Promise<void> {
    return this.queue;
  }

  private enqueue(id: string, write: () => Promise<void>): void {
    this.queue = this.queue.then(write).catch((error: unknown) => {
      // Not knowing what the store holds now, the next save writes the tournament whole.
      this.saved.delete(id);
      this.log.error(`tournament ${id} could not be kept in the history: ${error instanceof Error ? error.message : String(error)}`);
    });
  }
}

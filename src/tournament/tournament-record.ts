/**
 * A server tournament as the history store keeps it (TournamentEntry): its spec, state, error and
 * times as one JSON body, each result as its results-file line. Read back, it is checked like any
 * input from outside (the spec by the creation request's own parser), and one that was running
 * when its server stopped comes back `interrupted`: nothing runs it any more.
 */
import type { StoredTournament, TournamentEntry } from '../store/history-store.js';
import { err, ok, type Result } from '../util/result.js';
import { parseLine, type ResultLine } from './results-file.js';
import { tournamentView, TOURNAMENT_STATES, type RunningPairing, type TournamentSnapshot, type TournamentState, type TournamentView } from './server-tournament.js';
import { parseTournamentRequest } from './tournament-request.js';

/** The body's shape; a change of meaning takes a new number, and the reader keeps reading the old ones. */
const BODY_VERSION = 1;

/** Why a tournament that was running when its server stopped is `interrupted`, when the record says nothing more. */
export const INTERRUPTED_REASON = 'the server stopped while it ran';

export function tournamentEntry(snapshot: TournamentSnapshot): TournamentEntry {
  const { id, createdAt, spec, state, error, endedAt } = snapshot;
  return { id, createdAt, body: JSON.stringify({ version: BODY_VERSION, spec, state, error, endedAt }) };
}

export function resultText(result: ResultLine): string {
  return JSON.stringify(result);
}

const isObject = (value: unknown): value is Record<string, unknown> => typeof value === 'object' && value !== null && !Array.isArray(value);

/**
 * The entry a cluster's store keeps (shared-tournaments.ts): the same body with the matches being
 * played, which the other nodes show (a reader of the archive's body ignores the field).
 */
export function sharedEntry(snapshot: TournamentSnapshot, running: readonly RunningPairing[]): TournamentEntry {
  const entry = tournamentEntry(snapshot);
  return { ...entry, body: JSON.stringify({ ...(JSON.parse(entry.body) as object), running }) };
}

/** A shared tournament as it stands (one running stays running), with the matches its node plays. */
export function readShared(stored: StoredTournament): Result<{ readonly snapshot: TournamentSnapshot; readonly running: RunningPairing[] }> {
  const snapshot = readTournament(stored, false);
  if (!snapshot.ok) return snapshot;
  let running: unknown;
  try {
    running = (JSON.parse(stored.body) as { running?: unknown }).running ?? [];
  } catch {
    running = null;
  }
  const isRunning = (r: unknown): r is RunningPairing =>
    isObject(r) && Number.isSafeInteger(r['pairing']) && typeof r['match'] === 'string' && Array.isArray(r['players']) && r['players'].every((p) => typeof p === 'string');
  if (!Array.isArray(running) || !running.every(isRunning)) return err('its running matches are not a list of them');
  return ok({ snapshot: snapshot.value, running });
}

/** The tournament in a stored entry, or why it cannot be read. */
export function restoreTournament(stored: StoredTournament): Result<TournamentSnapshot> {
  return readTournament(stored, true);
}

/** `stopped`: the server that ran it is gone (a restart), so one that was running is `interrupted`. */
function readTournament(stored: StoredTournament, stopped: boolean): Result<TournamentSnapshot> {
  let body: unknown;
  try {
    body = JSON.parse(stored.body);
  } catch {
    return err('its body is not JSON');
  }
  if (!isObject(body) || body['version'] !== BODY_VERSION) return err('its body is not a tournament this server knows');
  // The spec passed this parser when it was created: the same parser checks it again.
  const spec = parseTournamentRequest(JSON.stringify({ ...(isObject(body['spec']) ? body['spec'] : {}), password: '' }));
  if (!spec.ok) return err(`its spec: ${spec.error.error}`);
  const stateText = body['state'];
  if (!(TOURNAMENT_STATES as readonly unknown[]).includes(stateText)) return err(`its state ${JSON.stringify(stateText)} is not one of ${TOURNAMENT_STATES.join(', ')}`);
  const error = body['error'];
  const endedAt = body['endedAt'];
  if (!(error === null || typeof error === 'string') || !(endedAt === null || Number.isFinite(endedAt))) return err('its error or end time is not one');
  const results: ResultLine[] = [];
  for (const text of stored.results) {
    const line = parseLine(text);
    if (line === null) return err(`result ${results.length} is not a result line`);
    results.push(line);
  }
  const wasRunning = stopped && stateText === 'running';
  return ok({
    id: stored.id,
    spec: spec.value.spec,
    state: wasRunning ? 'interrupted' : (stateText as TournamentState),
    error: wasRunning ? (error ?? INTERRUPTED_REASON) : error,
    createdAt: stored.createdAt,
    endedAt: endedAt as number | null,
    results,
  });
}

/** A tournament restored from the history: over, so it only shows itself. */
export class ArchivedTournament {
  readonly done: Promise<void> = Promise.resolve();
  readonly id: string;

  constructor(private readonly record: TournamentSnapshot) {
    this.id = record.id;
  }

  get current(): TournamentState {
    return this.record.state;
  }

  snapshot(): TournamentSnapshot {
    return this.record;
  }

  view(): TournamentView {
    return tournamentView(this.record, []);
  }

  /** Over already: there is nothing to stop (the directory refuses to stop one that is not running). */
  stop(): void {}

  interrupt(): void {}
}

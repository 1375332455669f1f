import { readGamesJson, type GameArgsJson } from '../src/protocol/games-json.js';
import { readHistoryMatch, readHistorySummary, type HistoryMatch, type HistorySummary } from './wire.js';

/** The server's HTTP history API: GET /api/history and GET /api/history/<id>. */
export interface HistoryQuery {
  readonly game?: string;
  readonly player?: string;
  readonly limit?: number;
  /** An `ended_at` value from a previous page: only matches that ended before it. */
  readonly before?: unknown;
}

export class ApiError extends Error {
  constructor(
    message: string,
    readonly status: number,
  ) {
    super(message);
    this.name = 'ApiError';
  }
}

/** GETs JSON from the server; a failure is an ApiError with the server's `error` text when it gave one. */
export async function getJson(path: string): Promise<unknown> {
  const response = await fetch(path, { headers: { accept: 'application/json' } });
  let body: unknown = null;
  try {
    body = await response.json();
  } catch {
    // not JSON: reported below by status
  }
  if (!response.ok) {
    const message = typeof body === 'object' && body !== null && typeof (body as { error?: unknown }).error === 'string'
      ? (body as { error: string }).error
      : `${response.status} ${response.statusText}`;
    throw new ApiError(message, response.status);
  }
  return body;
}

export function historyPath(query: HistoryQuery): string {
  const params = new URLSearchParams();
  if (query.game) params.set('game', query.game);
  if (query.player) params.set('player', query.player);
  if (query.limit !== undefined) params.set('limit', String(query.limit));
  if (query.before !== undefined && query.before !== null) params.set('before', String(query.before));
  const text = params.toString();
  return `/api/history${text ? `?${text}` : ''}`;
}

export async function fetchHistory(query: HistoryQuery): Promise<HistorySummary[]> {
  const body = await getJson(historyPath(query));
  const matches = (body as { matches?: unknown } | null)?.matches;
  return Array.isArray(matches) ? matches.map(readHistorySummary) : [];
}

/** Where a file kept with a finished match is served (as text/plain, shown in the browser). */
export function artifactPath(id: string, name: string): string {
  return `/api/history/${encodeURIComponent(id)}/artifacts/${encodeURIComponent(name)}`;
}

/** Where a finished match's whole record is served as JSON (what the replay page reads). */
export function historyMatchPath(id: string): string {
  return `/api/history/${encodeURIComponent(id)}`;
}

export async function fetchHistoryMatch(id: string): Promise<HistoryMatch> {
  return readHistoryMatch(await getJson(historyMatchPath(id)));
}

/** The games with their arguments described for people: what the new-match form shows. */
export async function fetchGamesHelp(): Promise<readonly GameArgsJson[]> {
  return readGamesJson(await getJson('/api/games'))?.games ?? [];
}

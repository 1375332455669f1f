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

export async function fetchHistoryMatch(id: string): Promise<HistoryMatch> {
  return readHistoryMatch(await getJson(`/api/history/${encodeURIComponent(id)}`));
}

/** Bounds of a numeric game argument (GET /api/games). */
export interface ArgRange {
  readonly min: number;
  readonly max: number;
  readonly integer: boolean;
  readonly odd: boolean;
}

/** A game argument described for people, as GET /api/games gives it (src/protocol/games-api.ts). */
export interface GameArgHelp {
  readonly name: string;
  readonly description: string;
  readonly regex: string;
  /** "seconds to wait between moves, 0 to 30" */
  readonly hint: string;
  /** The error in words: "pace must be a number from 0 to 30 (for example 1.5)". */
  readonly problem: string;
  readonly example: string;
  readonly default: string | null;
  /** Without a fixed default, what happens when the argument is not given ("the match timeout"). */
  readonly defaultNote: string | null;
  readonly range: ArgRange | null;
}

export interface GameHelp {
  readonly name: string;
  readonly args: readonly GameArgHelp[];
}

type Loose = Record<string, unknown>;
const looseRecord = (value: unknown): Loose => (typeof value === 'object' && value !== null && !Array.isArray(value) ? (value as Loose) : {});
const textOf = (value: unknown): string => (typeof value === 'string' ? value : '');
const finite = (value: unknown): value is number => typeof value === 'number' && Number.isFinite(value);

function readRange(value: unknown): ArgRange | null {
  const r = looseRecord(value);
  return finite(r['min']) && finite(r['max']) ? { min: r['min'], max: r['max'], integer: r['integer'] === true, odd: r['odd'] === true } : null;
}

/** Reads a GET /api/games body field by field: a missing or mistyped field becomes a harmless default. */
export function readGamesHelp(body: unknown): GameHelp[] {
  const games = looseRecord(body)['games'];
  if (!Array.isArray(games)) return [];
  return games
    .map((game): GameHelp => {
      const g = looseRecord(game);
      const args = (Array.isArray(g['args']) ? g['args'] : []).map((arg): GameArgHelp => {
        const a = looseRecord(arg);
        return {
          name: textOf(a['name']),
          description: textOf(a['description']),
          regex: textOf(a['regex']),
          hint: textOf(a['hint']),
          problem: textOf(a['problem']),
          example: textOf(a['example']),
          default: typeof a['default'] === 'string' ? a['default'] : null,
          defaultNote: typeof a['default_note'] === 'string' ? a['default_note'] : null,
          range: readRange(a['range']),
        };
      });
      return { name: textOf(g['name']), args: args.filter((arg) => arg.name !== '') };
    })
    .filter((game) => game.name !== '');
}

/** The games with their arguments described for people: what the new-match form shows. */
export async function fetchGamesHelp(): Promise<GameHelp[]> {
  return readGamesHelp(await getJson('/api/games'));
}

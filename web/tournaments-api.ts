import { listOf as list, looseRecord as loose, textOf as text } from '../src/protocol/loose-json.js';

/**
 * The server's tournaments over HTTP (GET/POST /api/tournaments, GET /api/tournaments/ID, POST
 * /api/tournaments/ID/stop), read
 * into typed values at the edge: what the server sends is checked here, the views trust it.
 */

export interface TournamentSummary {
  readonly id: string;
  readonly game: string;
  readonly format: string;
  readonly state: string;
  readonly entrants: number;
  readonly total: number;
  readonly finished: number;
  readonly running: number;
  readonly createdAt: number;
}

export interface TournamentList {
  readonly tournaments: readonly TournamentSummary[];
  /** Each game's named bots, or null where the game has its one bot. */
  readonly games: readonly { readonly name: string; readonly bots: readonly string[] | null }[];
  readonly limits: { readonly running: number; readonly entrants: number; readonly matches: number; readonly concurrency: number };
}

export interface StandingRow {
  readonly name: string;
  readonly elo: number;
  /** Null while unknown (no games). */
  readonly error95: number | null;
  readonly losNext: number | null;
  readonly points: number;
  readonly games: number;
  readonly wins: number;
  readonly draws: number;
  readonly losses: number;
  /** Mean finishing place (games of more than 2 players show it); null with no game or from an older server. */
  readonly place: number | null;
}

export interface TournamentResult {
  readonly pairing: number;
  readonly players: readonly string[];
  readonly outcome: string;
  readonly match: string;
  readonly reason: string;
}

export interface TournamentDetail {
  readonly id: string;
  readonly version: number;
  readonly game: string;
  readonly format: string;
  readonly rounds: number;
  readonly concurrency: number;
  readonly state: string;
  readonly error: string | null;
  readonly total: number;
  /** Players of each match (2 from a server that does not say). */
  readonly players: number;
  readonly entrants: readonly { readonly name: string; readonly bot: string | null }[];
  readonly running: readonly { readonly pairing: number; readonly match: string; readonly players: readonly string[] }[];
  readonly results: readonly TournamentResult[];
  readonly standings: readonly StandingRow[];
}

const num = (value: unknown): number => (typeof value === 'number' && Number.isFinite(value) ? value : Number.NaN);
const numOrNull = (value: unknown): number | null => (typeof value === 'number' && Number.isFinite(value) ? value : null);
const texts = (value: unknown): string[] => list(value).map(text);

export const TOURNAMENTS_PATH = '/api/tournaments';

export function tournamentPath(id: string, after?: number): string {
  return `${TOURNAMENTS_PATH}/${encodeURIComponent(id)}${after === undefined ? '' : `?after=${after}`}`;
}

export function readTournamentList(body: unknown): TournamentList {
  const b = loose(body);
  const limits = loose(b['limits']);
  return {
    tournaments: list(b['tournaments']).map((value) => {
      const t = loose(value);
      return { id: text(t['id']), game: text(t['game']), format: text(t['format']), state: text(t['state']), entrants: num(t['entrants']), total: num(t['total']), finished: num(t['finished']), running: num(t['running']), createdAt: num(t['created_at']) };
    }),
    games: list(b['games']).map((value) => {
      const g = loose(value);
      return { name: text(g['name']), bots: Array.isArray(g['bots']) ? texts(g['bots']) : null };
    }),
    limits: { running: num(limits['running']), entrants: num(limits['entrants']), matches: num(limits['matches']), concurrency: num(limits['concurrency']) },
  };
}

export function readTournament(body: unknown): TournamentDetail {
  const b = loose(body);
  return {
    id: text(b['id']),
    version: num(b['version']),
    game: text(b['game']),
    format: text(b['format']),
    rounds: num(b['rounds']),
    concurrency: num(b['concurrency']),
    state: text(b['state']),
    error: typeof b['error'] === 'string' ? b['error'] : null,
    total: num(b['total']),
    players: typeof b['players'] === 'number' && Number.isSafeInteger(b['players']) && b['players'] >= 2 ? b['players'] : 2,
    entrants: list(b['entrants']).map((value) => {
      const e = loose(value);
      return { name: text(e['name']), bot: typeof e['bot'] === 'string' ? e['bot'] : null };
    }),
    running: list(b['running']).map((value) => {
      const r = loose(value);
      return { pairing: num(r['pairing']), match: text(r['match']), players: texts(r['players']) };
    }),
    results: list(b['results']).map((value) => {
      const r = loose(value);
      return { pairing: num(r['pairing']), players: texts(r['players']), outcome: text(r['outcome']), match: text(r['match']), reason: text(r['reason']) };
    }),
    standings: list(loose(b['standings'])['rows']).map((value) => {
      const r = loose(value);
      return { name: text(r['name']), elo: num(r['elo']), error95: numOrNull(r['error95']), losNext: numOrNull(r['losNext']), points: num(r['points']), games: num(r['games']), wins: num(r['wins']), draws: num(r['draws']), losses: num(r['losses']), place: numOrNull(r['place']) };
    }),
  };
}

/** What the form sends (POST /api/tournaments). */
export interface TournamentCreation {
  readonly game: string;
  readonly format: string;
  readonly rounds: number;
  readonly concurrency: number;
  readonly entrants: readonly { readonly name: string; readonly bot: string | null }[];
  readonly args: Readonly<Record<string, string>>;
  /** Players of each match, or null for the game's default. */
  readonly players: number | null;
  readonly password: string;
}

/**
 * The entrants typed in the form, one a line: `NAME` (the game's bot) or `NAME=BOT` (one of its
 * named bots). Blank lines are skipped.
 */
export function parseEntrantLines(textValue: string): { name: string; bot: string | null }[] {
  return textValue
    .split('\n')
    .map((line) => line.trim())
    .filter((line) => line !== '')
    .map((line) => {
      const eq = line.indexOf('=');
      return eq === -1 ? { name: line, bot: null } : { name: line.slice(0, eq).trim(), bot: line.slice(eq + 1).trim() || null };
    });
}

/** POSTs a tournament; the created one, or an Error with the server's words. */
export function createTournament(request: TournamentCreation): Promise<TournamentDetail> {
  return postTournament(TOURNAMENTS_PATH, request, 201);
}

/** Stops a running tournament with the server's verification password; the stopped one, or an Error with the server's words. */
export function stopTournament(id: string, password: string): Promise<TournamentDetail> {
  return postTournament(`${tournamentPath(id)}/stop`, { password }, 200);
}

async function postTournament(path: string, request: unknown, expected: number): Promise<TournamentDetail> {
  const response = await fetch(path, { method: 'POST', headers: { 'content-type': 'application/json', accept: 'application/json' }, body: JSON.stringify(request) });
  let body: unknown = null;
  try {
    body = await response.json();
  } catch {
    // reported below by status
  }
  if (response.status !== expected) throw new Error(text(loose(body)['error']) || `${response.status} ${response.statusText}`);
  return readTournament(body);
}

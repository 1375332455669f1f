import { getJson, type Lookup } from './match-record.js';

/** One row of the arena leaderboard as GET /api/arena/GAME sends it (arena-api.ts). */
export interface ArenaRow {
  readonly rank: number;
  readonly player: string;
  readonly rating: number;
  readonly mu: number;
  readonly sigma: number;
  readonly games: number;
  readonly wins: number;
  readonly draws: number;
  readonly losses: number;
  readonly last_seen: number;
}

function isRow(value: unknown): value is ArenaRow {
  if (typeof value !== 'object' || value === null) return false;
  const v = value as Record<string, unknown>;
  return typeof v['player'] === 'string' && ['rank', 'rating', 'mu', 'sigma', 'games', 'wins', 'draws', 'losses', 'last_seen'].every((key) => typeof v[key] === 'number');
}

/** The arena leaderboard of `game`, best first (the server's default: the top 100). */
export async function fetchArenaBoard(wsUrl: string, game: string, limit?: number): Promise<Lookup<readonly ArenaRow[]>> {
  const found = await getJson(wsUrl, `/api/arena/${encodeURIComponent(game)}${limit === undefined ? '' : `?limit=${limit}`}`);
  if (found.kind !== 'found') return found;
  const rows = (found.value as { leaderboard?: unknown }).leaderboard;
  return Array.isArray(rows) && rows.every(isRow) ? { kind: 'found', value: rows } : { kind: 'no-api' };
}

const HEADERS = ['Rank', 'Player', 'Rating', 'Mu', 'Sigma', 'Games', 'W', 'D', 'L', 'Last seen'] as const;
const RIGHT = [true, false, true, true, true, true, true, true, true, false] as const;

/** The arena leaderboard as `coco ratings GAME --arena` prints it (last seen in UTC, to the minute). */
export function formatArenaTable(rows: readonly ArenaRow[]): string {
  const cells = rows.map((row) => [
    String(row.rank),
    row.player,
    row.rating.toFixed(2),
    row.mu.toFixed(2),
    row.sigma.toFixed(2),
    String(row.games),
    String(row.wins),
    String(row.draws),
    String(row.losses),
    new Date(row.last_seen).toISOString().slice(0, 16).replace('T', ' '),
  ]);
  const widths = HEADERS.map((header, i) => Math.max(header.length, ...cells.map((row) => row[i]!.length)));
  const line = (values: readonly string[]): string => values.map((value, i) => (RIGHT[i] ? value.padStart(widths[i]!) : value.padEnd(widths[i]!))).join('  ').trimEnd();
  return [line(HEADERS), line(widths.map((w) => '-'.repeat(w))), ...cells.map(line)].join('\n');
}

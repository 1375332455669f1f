import type { RatingRow } from '../protocol/ratings-json.js';
import { getJson, type Lookup } from './match-record.js';

export type { RatingRow };

function isRow(value: unknown): value is RatingRow {
  if (typeof value !== 'object' || value === null) return false;
  const v = value as Record<string, unknown>;
  return typeof v['player'] === 'string' && ['rank', 'rating', 'mu', 'sigma', 'games'].every((key) => typeof v[key] === 'number');
}

/** A game's leaderboard, best first: the top `limit` (the server's default: 100). */
export async function fetchRatings(wsUrl: string, game: string, limit?: number): Promise<Lookup<readonly RatingRow[]>> {
  const path = `/api/ratings/${encodeURIComponent(game)}${limit === undefined ? '' : `?limit=${limit}`}`;
  const found = await getJson(wsUrl, path);
  if (found.kind !== 'found') return found;
  const rows = (found.value as { ratings?: unknown }).ratings;
  return Array.isArray(rows) && rows.every(isRow) ? { kind: 'found', value: rows } : { kind: 'no-api' };
}

const HEADERS = ['Rank', 'Player', 'Rating', 'Mu', 'Sigma', 'Games'] as const;
/** The numbers are right-aligned, so that their decimal points line up. */
const RIGHT = [true, false, true, true, true, true] as const;

/** The leaderboard as `coco ratings GAME` prints it: two decimals, in the order given. */
export function formatRatingsTable(rows: readonly RatingRow[]): string {
  const cells = rows.map((row) => [String(row.rank), row.player, row.rating.toFixed(2), row.mu.toFixed(2), row.sigma.toFixed(2), String(row.games)]);
  const widths = HEADERS.map((header, i) => Math.max(header.length, ...cells.map((row) => row[i]!.length)));
  const line = (values: readonly string[]): string =>
    values.map((value, i) => (RIGHT[i] ? value.padStart(widths[i]!) : value.padEnd(widths[i]!))).join('  ').trimEnd();
  return [line(HEADERS), line(widths.map((w) => '-'.repeat(w))), ...cells.map(line)].join('\n');
}

/** What `coco ratings GAME` says when nobody is rated yet, so that an empty board explains itself. */
export function noRatingsText(game: string): string {
  return `no ratings for ${game} yet: only verified matches are rated (created with the server's password, coco new -v PASSWORD)`;
}

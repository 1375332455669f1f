import type { PlayerRating, RatingPoint } from '../store/history-store.js';

/** What a ratings path of the HTTP API asks for (see parseRatingsPath). */
export type RatingsRequest =
  | { readonly kind: 'board'; readonly game: string }
  | { readonly kind: 'csv'; readonly game: string }
  | { readonly kind: 'player'; readonly game: string; readonly player: string };

/**
 * `/api/ratings/GAME`, `/api/ratings/GAME.csv` and `/api/ratings/GAME/PLAYER` (each segment
 * percent-encoded, a player's `/` as %2F); null for any other path below /api/ratings/, and
 * 'bad-escape' for a malformed escape.
 */
export function parseRatingsPath(pathname: string): RatingsRequest | 'bad-escape' | null {
  const match = /^\/api\/ratings\/([^/]+)(?:\/([^/]+))?$/.exec(pathname);
  if (!match) return null;
  try {
    const game = decodeURIComponent(match[1]!);
    if (match[2] !== undefined) return { kind: 'player', game, player: decodeURIComponent(match[2]) };
    if (game.endsWith('.csv')) return { kind: 'csv', game: game.slice(0, -'.csv'.length) };
    return { kind: 'board', game };
  } catch {
    return 'bad-escape';
  }
}

/** One leaderboard row as the API sends it; `rank` counts from 1 in the order given. */
export function boardJson(board: readonly PlayerRating[]): Record<string, unknown>[] {
  return board.map((row, i) => ({ rank: i + 1, player: row.player, rating: row.rating, mu: row.mu, sigma: row.sigma, games: row.games }));
}

export function pointJson(point: RatingPoint): Record<string, unknown> {
  return { match_id: point.matchId, ended_at: point.endedAt, rating: point.rating, mu: point.mu, sigma: point.sigma };
}

export const CSV_COLUMNS = ['rank', 'player', 'rating', 'mu', 'sigma', 'games'] as const;

/** The leaderboard as CSV (RFC 4180, CRLF line ends), with a header line. */
export function boardCsv(board: readonly PlayerRating[]): string {
  const lines = [CSV_COLUMNS.join(',')];
  board.forEach((row, i) => lines.push([String(i + 1), csvText(row.player), String(row.rating), String(row.mu), String(row.sigma), String(row.games)].join(',')));
  return `${lines.join('\r\n')}\r\n`;
}

/**
 * A text field: quoted when it holds a quote, comma or line break; a leading = + - @ is preceded
 * by ' so that a spreadsheet opening the export shows a name like "=1+1" rather than running it.
 */
export function csvText(text: string): string {
  const safe = /^[=+\-@]/.test(text) ? `'${text}` : text;
  return /[",\r\n]/.test(safe) ? `"${safe.replace(/"/g, '""')}"` : safe;
}

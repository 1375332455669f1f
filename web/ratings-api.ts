import type { RatingRow } from '../src/protocol/ratings-json.js';
import { readHistorySummary, type HistorySummary } from './wire.js';
import { listOf, looseRecord } from '../src/protocol/loose-json.js';

export type { RatingRow };

/** A player's rating right after one match (GET /api/ratings/GAME/PLAYER). */
export interface RatingPoint {
  readonly matchId: string;
  readonly endedAt: number;
  readonly rating: number;
  readonly mu: number;
  readonly sigma: number;
}

export interface PlayerRatings {
  /** Oldest first. */
  readonly history: readonly RatingPoint[];
  /** Newest first. */
  readonly matches: readonly HistorySummary[];
}

const numberOf = (value: unknown): number => (typeof value === 'number' && Number.isFinite(value) ? value : Number.NaN);

/** Reads a leaderboard body; rows without a player name or a finite rating are left out. */
export function readRatings(body: unknown): RatingRow[] {
  return listOf(looseRecord(body)['ratings'])
    .map((value): RatingRow => {
      const r = looseRecord(value);
      return { rank: numberOf(r['rank']), player: typeof r['player'] === 'string' ? r['player'] : '', rating: numberOf(r['rating']), mu: numberOf(r['mu']), sigma: numberOf(r['sigma']), games: numberOf(r['games']) };
    })
    .filter((row) => row.player !== '' && Number.isFinite(row.rating));
}

/** Reads a player's body; points without a match id or a finite rating are left out. */
export function readPlayerRatings(body: unknown): PlayerRatings {
  const b = looseRecord(body);
  const history = listOf(b['history'])
    .map((value): RatingPoint => {
      const p = looseRecord(value);
      return { matchId: typeof p['match_id'] === 'string' ? p['match_id'] : '', endedAt: numberOf(p['ended_at']), rating: numberOf(p['rating']), mu: numberOf(p['mu']), sigma: numberOf(p['sigma']) };
    })
    .filter((point) => point.matchId !== '' && Number.isFinite(point.rating));
  return { history, matches: listOf(b['matches']).map(readHistorySummary) };
}

export const ratingsPath = (game: string): string => `/api/ratings/${encodeURIComponent(game)}`;
export const ratingsCsvPath = (game: string): string => `/api/ratings/${encodeURIComponent(`${game}.csv`)}`;
export const playerRatingsPath = (game: string, player: string): string => `/api/ratings/${encodeURIComponent(game)}/${encodeURIComponent(player)}`;

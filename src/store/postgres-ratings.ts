import type pg from 'pg';
import type { MatchRecord, PlayerRating, RatingPoint } from './history-store.js';
import { displayedRating, rateMatch, ratedStandings, type Skill } from '../ratings/rating.js';

type Rateable = Pick<MatchRecord, 'id' | 'game' | 'endedAt' | 'verified' | 'players' | 'scores'>;

/**
 * The ratings in PostgreSQL (tables of migration 2 in postgres-schema.ts), the same rules as
 * SqliteRatings: the rating itself comes from src/ratings, only the reading and writing is here.
 * `rate` and `forget` run inside the caller's transaction (PostgresHistoryDb's write), which
 * holds the history_total row lock, so no other writer reads a skill between our read and write.
 */
export async function rateInTransaction(client: pg.ClientBase, match: Rateable): Promise<void> {
  const ranked = ratedStandings(match);
  if (!ranked) return;
  const { rowCount } = await client.query('SELECT 1 FROM rating_history WHERE match_id = $1 LIMIT 1', [match.id]);
  if (rowCount) return;
  const players = ranked.map((standing) => standing.player);
  const { rows } = await client.query<{ player: string; mu: number; sigma: number }>(
    'SELECT player, mu, sigma FROM ratings WHERE game = $1 AND player = ANY($2::text[])',
    [match.game, players],
  );
  const before = new Map<string, Skill>(rows.map((row) => [row.player, { mu: row.mu, sigma: row.sigma }]));
  const after = rateMatch(ranked, (player) => before.get(player));
  for (const [i, player] of players.entries()) {
    const { mu, sigma } = after[i]!;
    await client.query(
      `INSERT INTO ratings (game, player, mu, sigma, games) VALUES ($1, $2, $3, $4, 1)
       ON CONFLICT (game, player) DO UPDATE SET mu = excluded.mu, sigma = excluded.sigma, games = ratings.games + 1`,
      [match.game, player, mu, sigma],
    );
    await client.query('INSERT INTO rating_history (match_id, game, player, ended_at, mu, sigma) VALUES ($1, $2, $3, $4, $5, $6)', [match.id, match.game, player, match.endedAt, mu, sigma]);
  }
}

/** A removed match's rating points go with it; the ratings it changed stay. */
export async function forgetRatingPoints(client: pg.ClientBase, matchIds: readonly string[]): Promise<void> {
  if (matchIds.length) await client.query('DELETE FROM rating_history WHERE match_id = ANY($1::text[])', [matchIds]);
}

/** The leaderboard: best displayed rating first, then by name (byte order, as the other stores). */
export async function ratingBoard(client: pg.Pool | pg.ClientBase, game: string, limit: number): Promise<PlayerRating[]> {
  const { rows } = await client.query<Omit<PlayerRating, 'rating'>>(
    'SELECT player, mu, sigma, games FROM ratings WHERE game = $1 ORDER BY mu - 3 * sigma DESC, player COLLATE "C" LIMIT $2',
    [game, limit],
  );
  return rows.map((row) => ({ ...row, rating: displayedRating(row) }));
}

/** The newest `limit` points of a player, oldest first; `seq` orders points of equal time as recorded. */
export async function ratingPoints(client: pg.Pool | pg.ClientBase, game: string, player: string, limit: number): Promise<RatingPoint[]> {
  const { rows } = await client.query<{ matchId: string; endedAt: string; mu: number; sigma: number }>(
    `SELECT match_id AS "matchId", ended_at AS "endedAt", mu, sigma FROM
       (SELECT seq, match_id, ended_at, mu, sigma FROM rating_history WHERE game = $1 AND player = $2 ORDER BY ended_at DESC, seq DESC LIMIT $3) newest
     ORDER BY ended_at, seq`,
    [game, player, limit],
  );
  return rows.map((row) => ({ matchId: row.matchId, endedAt: Number(row.endedAt), mu: row.mu, sigma: row.sigma, rating: displayedRating(row) }));
}

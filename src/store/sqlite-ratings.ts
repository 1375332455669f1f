import type Database from 'better-sqlite3';
import type { MatchRecord, PlayerRating, RatingPoint } from './history-store.js';
import { displayedRating, rateMatch, ratedStandings } from '../ratings/rating.js';

/**
 * Migration 4: the ratings and their history (PlayerRating, RatingPoint). rating_history has no
 * foreign key to matches: recording a match again replaces its row (INSERT OR REPLACE), which must
 * not lose its points; retention deletes a removed match's points itself (SqliteRatings.forget).
 */
export const RATINGS_TABLES = `CREATE TABLE ratings (
     game TEXT NOT NULL,
     player TEXT NOT NULL,
     mu REAL NOT NULL,
     sigma REAL NOT NULL,
     games INTEGER NOT NULL,
     PRIMARY KEY (game, player)
   ) WITHOUT ROWID;
   CREATE INDEX ratings_by_rating ON ratings(game, mu - 3 * sigma DESC, player);
   CREATE TABLE rating_history (
     match_id TEXT NOT NULL,
     game TEXT NOT NULL,
     player TEXT NOT NULL,
     ended_at INTEGER NOT NULL,
     mu REAL NOT NULL,
     sigma REAL NOT NULL,
     PRIMARY KEY (match_id, player)
   );
   CREATE INDEX rating_history_by_player ON rating_history(game, player, ended_at);`;

type Rateable = Pick<MatchRecord, 'id' | 'game' | 'endedAt' | 'verified' | 'players' | 'scores'>;

/** The ratings in the history file, written inside the caller's transaction (SqliteHistoryDb's record). */
export class SqliteRatings {
  private readonly wasRated: Database.Statement;
  private readonly selectSkill: Database.Statement;
  private readonly upsertSkill: Database.Statement;
  private readonly insertPoint: Database.Statement;
  private readonly deletePoints: Database.Statement;
  private readonly selectBoard: Database.Statement;
  private readonly selectHistory: Database.Statement;

  constructor(db: Database.Database) {
    this.wasRated = db.prepare('SELECT 1 FROM rating_history WHERE match_id = ? LIMIT 1').pluck();
    this.selectSkill = db.prepare('SELECT mu, sigma FROM ratings WHERE game = ? AND player = ?');
    this.upsertSkill = db.prepare(
      `INSERT INTO ratings (game, player, mu, sigma, games) VALUES (@game, @player, @mu, @sigma, 1)
       ON CONFLICT (game, player) DO UPDATE SET mu = excluded.mu, sigma = excluded.sigma, games = games + 1`,
    );
    this.insertPoint = db.prepare('INSERT INTO rating_history (match_id, game, player, ended_at, mu, sigma) VALUES (@matchId, @game, @player, @endedAt, @mu, @sigma)');
    this.deletePoints = db.prepare('DELETE FROM rating_history WHERE match_id = ?');
    this.selectBoard = db.prepare('SELECT player, mu, sigma, games FROM ratings WHERE game = ? ORDER BY mu - 3 * sigma DESC, player LIMIT ?');
    // The newest `limit` points, given back oldest first; rowid orders points of equal time as recorded.
    this.selectHistory = db.prepare(
      `SELECT match_id AS matchId, ended_at AS endedAt, mu, sigma FROM
         (SELECT rowid, match_id, ended_at, mu, sigma FROM rating_history WHERE game = ? AND player = ? ORDER BY ended_at DESC, rowid DESC LIMIT ?)
       ORDER BY ended_at, rowid`,
    );
  }

  /** Updates the ratings of a verified match's players, once per match id (see PlayerRating). */
  rate(match: Rateable): void {
    const ranked = ratedStandings(match);
    if (!ranked || this.wasRated.get(match.id) !== undefined) return;
    const after = rateMatch(ranked, (player) => this.selectSkill.get(match.game, player) as { mu: number; sigma: number } | undefined);
    ranked.forEach(({ player }, i) => {
      const { mu, sigma } = after[i]!;
      this.upsertSkill.run({ game: match.game, player, mu, sigma });
      this.insertPoint.run({ matchId: match.id, game: match.game, player, endedAt: match.endedAt, mu, sigma });
    });
  }

  /** A removed match's rating points go with it; the ratings it changed stay. */
  forget(matchId: string): void {
    this.deletePoints.run(matchId);
  }

  board(game: string, limit: number): PlayerRating[] {
    return (this.selectBoard.all(game, limit) as Omit<PlayerRating, 'rating'>[]).map((row) => ({ ...row, rating: displayedRating(row) }));
  }

  history(game: string, player: string, limit: number): RatingPoint[] {
    return (this.selectHistory.all(game, player, limit) as Omit<RatingPoint, 'rating'>[]).map((row) => ({ ...row, rating: displayedRating(row) }));
  }
}

/**
 * Rates the verified matches a file held before migration 4, in the order they ended, so that an
 * upgraded server's leaderboard starts from its whole kept history.
 */
export function backfillRatings(db: Database.Database): void {
  const ratings = new SqliteRatings(db);
  const rows = db
    .prepare(
      `SELECT m.id, m.game, m.ended_at AS endedAt, m.scores,
         (SELECT json_group_array(name) FROM (SELECT name FROM match_players WHERE match_id = m.id ORDER BY seat)) AS players
       FROM matches m WHERE m.verified = 1 AND m.scores IS NOT NULL ORDER BY m.ended_at, m.rowid`,
    )
    .all() as { id: string; game: string; endedAt: number; scores: string; players: string }[];
  for (const row of rows) {
    ratings.rate({ id: row.id, game: row.game, endedAt: row.endedAt, verified: true, players: JSON.parse(row.players) as string[], scores: JSON.parse(row.scores) as number[] });
  }
}

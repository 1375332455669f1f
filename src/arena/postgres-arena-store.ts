import pg from 'pg';
import type { Skill } from '../ratings/rating.js';
import { INITIAL_SKILL } from '../ratings/rating.js';
import { ratingsAfter, type ArenaGame, type ArenaRating, type ArenaResult, type ArenaStanding, type ArenaStore } from './arena-store.js';
import { tableKey } from './pairing.js';

/** The arena's tables in the history's PostgreSQL database, created if absent (beside the history's own migrations). */
const ARENA_TABLES = `
  CREATE TABLE IF NOT EXISTS arena_ratings (
    game TEXT NOT NULL,
    player TEXT NOT NULL,
    mu DOUBLE PRECISION NOT NULL,
    sigma DOUBLE PRECISION NOT NULL,
    games INTEGER NOT NULL,
    wins INTEGER NOT NULL,
    draws INTEGER NOT NULL,
    last_seen BIGINT NOT NULL,
    PRIMARY KEY (game, player)
  );
  CREATE TABLE IF NOT EXISTS arena_games (
    seq BIGSERIAL,
    match_id TEXT PRIMARY KEY,
    game TEXT NOT NULL,
    ended_at BIGINT NOT NULL,
    players JSONB NOT NULL,
    scores JSONB NOT NULL,
    ratings JSONB NOT NULL,
    after JSONB NOT NULL
  );
  CREATE INDEX IF NOT EXISTS arena_games_by_game ON arena_games(game, ended_at);
  CREATE TABLE IF NOT EXISTS arena_game_players (
    match_id TEXT NOT NULL,
    game TEXT NOT NULL,
    player TEXT NOT NULL,
    ended_at BIGINT NOT NULL,
    PRIMARY KEY (match_id, player)
  );
  CREATE INDEX IF NOT EXISTS arena_game_players_by_player ON arena_game_players(game, player, ended_at);
  CREATE TABLE IF NOT EXISTS arena_failures (
    game TEXT NOT NULL,
    player TEXT NOT NULL,
    failures INTEGER NOT NULL,
    held_until BIGINT NOT NULL,
    PRIMARY KEY (game, player)
  );
  CREATE TABLE IF NOT EXISTS arena_meetings (
    game TEXT NOT NULL,
    player TEXT NOT NULL,
    table_key TEXT NOT NULL,
    games INTEGER NOT NULL,
    PRIMARY KEY (game, player, table_key)
  );`;

/** Serializes the arena's writers across nodes: one game's read-rate-write at a time (an advisory lock number of ours). */
const ARENA_LOCK = 0x61726e61;

interface RatingRow {
  player: string;
  mu: number;
  sigma: number;
  games: number;
  wins: number;
  draws: number;
  last_seen: string;
}

function ratingOf(row: RatingRow): ArenaRating {
  return { player: row.player, mu: row.mu, sigma: row.sigma, rating: row.mu - 3 * row.sigma, games: row.games, wins: row.wins, draws: row.draws, lastSeen: Number(row.last_seen) };
}

interface GameRow {
  match_id: string;
  game: string;
  ended_at: string;
  players: string[];
  scores: number[];
  ratings: number[];
}

function gameOf(row: GameRow): ArenaGame {
  return { matchId: row.match_id, game: row.game, endedAt: Number(row.ended_at), players: row.players, scores: row.scores, ratings: row.ratings };
}

/** The arena store in PostgreSQL (`--postgres`): one pool of its own on the history's database. */
export class PostgresArenaStore implements ArenaStore {
  private constructor(private readonly pool: pg.Pool) {}

  static async open(url: string): Promise<PostgresArenaStore> {
    const pool = new pg.Pool({ connectionString: url, max: 2 });
    pool.on('error', () => {}); // an idle client's failure is seen by the next query
    // Nodes that start together would race on CREATE TABLE IF NOT EXISTS (a duplicate pg_type
    // row): one creates the tables at a time, under the arena's lock.
    const client = await pool.connect();
    try {
      await client.query('BEGIN');
      await client.query('SELECT pg_advisory_xact_lock($1)', [ARENA_LOCK]);
      await client.query(ARENA_TABLES);
      await client.query('COMMIT');
    } catch (error) {
      await client.query('ROLLBACK').catch(() => {});
      client.release();
      await pool.end();
      throw error;
    }
    client.release();
    return new PostgresArenaStore(pool);
  }

  async skills(game: string, players: readonly string[]): Promise<Map<string, Skill>> {
    const { rows } = await this.pool.query<Skill & { player: string }>('SELECT player, mu, sigma FROM arena_ratings WHERE game = $1 AND player = ANY($2::text[])', [game, players]);
    const found = new Map(rows.map((row) => [row.player, { mu: row.mu, sigma: row.sigma }]));
    return new Map(players.map((player) => [player, found.get(player) ?? INITIAL_SKILL]));
  }

  async record(result: ArenaResult): Promise<ArenaRating[]> {
    const client = await this.pool.connect();
    try {
      await client.query('BEGIN');
      await client.query('SELECT pg_advisory_xact_lock($1)', [ARENA_LOCK]);
      const earlier = await client.query<{ after: ArenaRating[] }>('SELECT after FROM arena_games WHERE match_id = $1', [result.matchId]);
      if (earlier.rows[0]) {
        await client.query('COMMIT');
        return earlier.rows[0].after;
      }
      const players = result.standings.map((s) => s.player);
      const { rows } = await client.query<RatingRow>('SELECT player, mu, sigma, games, wins, draws, last_seen FROM arena_ratings WHERE game = $1 AND player = ANY($2::text[])', [result.game, players]);
      const before = new Map(rows.map((row) => [row.player, ratingOf(row)]));
      const after = ratingsAfter(result, (player) => before.get(player));
      for (const row of after) {
        await client.query(
          `INSERT INTO arena_ratings (game, player, mu, sigma, games, wins, draws, last_seen) VALUES ($1, $2, $3, $4, $5, $6, $7, $8)
           ON CONFLICT (game, player) DO UPDATE SET mu = excluded.mu, sigma = excluded.sigma, games = excluded.games, wins = excluded.wins, draws = excluded.draws, last_seen = excluded.last_seen`,
          [result.game, row.player, row.mu, row.sigma, row.games, row.wins, row.draws, row.lastSeen],
        );
      }
      await client.query('INSERT INTO arena_games (match_id, game, ended_at, players, scores, ratings, after) VALUES ($1, $2, $3, $4, $5, $6, $7)', [
        result.matchId,
        result.game,
        result.endedAt,
        JSON.stringify(players),
        JSON.stringify(result.standings.map((s) => s.score)),
        JSON.stringify(after.map((r) => r.rating)),
        JSON.stringify(after),
      ]);
      for (const player of players) await client.query('INSERT INTO arena_game_players (match_id, game, player, ended_at) VALUES ($1, $2, $3, $4)', [result.matchId, result.game, player, result.endedAt]);
      await client.query('COMMIT');
      return after;
    } catch (error) {
      await client.query('ROLLBACK').catch(() => {});
      throw error;
    } finally {
      client.release();
    }
  }

  async standing(game: string, player: string): Promise<ArenaStanding> {
    const [failures, meetings] = await Promise.all([
      this.pool.query<{ failures: number; held_until: string }>('SELECT failures, held_until FROM arena_failures WHERE game = $1 AND player = $2', [game, player]),
      this.pool.query<{ table_key: string; games: number }>('SELECT table_key, games FROM arena_meetings WHERE game = $1 AND player = $2', [game, player]),
    ]);
    const row = failures.rows[0];
    return { failures: row?.failures ?? 0, heldUntil: Number(row?.held_until ?? 0), meetings: new Map(meetings.rows.map((m) => [m.table_key, m.games])) };
  }

  async saveFailures(game: string, player: string, failures: number, heldUntil: number): Promise<void> {
    await this.pool.query(
      'INSERT INTO arena_failures (game, player, failures, held_until) VALUES ($1, $2, $3, $4) ON CONFLICT (game, player) DO UPDATE SET failures = excluded.failures, held_until = excluded.held_until',
      [game, player, failures, heldUntil],
    );
  }

  async countMeeting(game: string, players: readonly string[]): Promise<void> {
    // One statement: every member's count goes up together.
    await this.pool.query(
      `INSERT INTO arena_meetings (game, player, table_key, games) SELECT $1, p, $3, 1 FROM unnest($2::text[]) AS p
       ON CONFLICT (game, player, table_key) DO UPDATE SET games = arena_meetings.games + 1`,
      [game, [...new Set(players)], tableKey(players)],
    );
  }

  async board(game: string, limit: number): Promise<ArenaRating[]> {
    const { rows } = await this.pool.query<RatingRow>(
      'SELECT player, mu, sigma, games, wins, draws, last_seen FROM arena_ratings WHERE game = $1 ORDER BY mu - 3 * sigma DESC, player COLLATE "C" LIMIT $2',
      [game, limit],
    );
    return rows.map(ratingOf);
  }

  async games(game: string, player: string | null, limit: number): Promise<ArenaGame[]> {
    const { rows } =
      player === null
        ? await this.pool.query<GameRow>('SELECT match_id, game, ended_at, players, scores, ratings FROM arena_games WHERE game = $1 ORDER BY ended_at DESC, seq DESC LIMIT $2', [game, limit])
        : await this.pool.query<GameRow>(
            `SELECT g.match_id, g.game, g.ended_at, g.players, g.scores, g.ratings FROM arena_game_players p JOIN arena_games g ON g.match_id = p.match_id
             WHERE p.game = $1 AND p.player = $2 ORDER BY p.ended_at DESC, g.seq DESC LIMIT $3`,
            [game, player, limit],
          );
    return rows.map(gameOf);
  }

  async close(): Promise<void> {
    await this.pool.end();
  }
}

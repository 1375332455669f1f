import Database from 'better-sqlite3';
import type { Skill } from '../ratings/rating.js';
import { INITIAL_SKILL } from '../ratings/rating.js';
import { ratingsAfter, type ArenaGame, type ArenaRating, type ArenaResult, type ArenaStanding, type ArenaStore } from './arena-store.js';
import { tableKey } from './pairing.js';

/**
 * The arena's tables, in the history's SQLite file beside the history's own (whose migrations do
 * not know them): created if absent, versioned by arena_schema so a later change can migrate.
 */
const ARENA_SCHEMA_VERSION = 2;
const ARENA_TABLES = `
  CREATE TABLE IF NOT EXISTS arena_schema (version INTEGER NOT NULL);
  CREATE TABLE IF NOT EXISTS arena_ratings (
    game TEXT NOT NULL,
    player TEXT NOT NULL,
    mu REAL NOT NULL,
    sigma REAL NOT NULL,
    games INTEGER NOT NULL,
    wins INTEGER NOT NULL,
    draws INTEGER NOT NULL,
    last_seen INTEGER NOT NULL,
    PRIMARY KEY (game, player)
  ) WITHOUT ROWID;
  CREATE INDEX IF NOT EXISTS arena_ratings_by_rating ON arena_ratings(game, mu - 3 * sigma DESC, player);
  CREATE TABLE IF NOT EXISTS arena_games (
    match_id TEXT PRIMARY KEY,
    game TEXT NOT NULL,
    ended_at INTEGER NOT NULL,
    players TEXT NOT NULL,
    scores TEXT NOT NULL,
    ratings TEXT NOT NULL,
    after TEXT NOT NULL
  );
  CREATE INDEX IF NOT EXISTS arena_games_by_game ON arena_games(game, ended_at);
  CREATE TABLE IF NOT EXISTS arena_game_players (
    match_id TEXT NOT NULL,
    game TEXT NOT NULL,
    player TEXT NOT NULL,
    ended_at INTEGER NOT NULL,
    PRIMARY KEY (match_id, player)
  );
  CREATE INDEX IF NOT EXISTS arena_game_players_by_player ON arena_game_players(game, player, ended_at);
  CREATE TABLE IF NOT EXISTS arena_failures (
    game TEXT NOT NULL,
    player TEXT NOT NULL,
    failures INTEGER NOT NULL,
    held_until INTEGER NOT NULL,
    PRIMARY KEY (game, player)
  ) WITHOUT ROWID;
  CREATE TABLE IF NOT EXISTS arena_meetings (
    game TEXT NOT NULL,
    player TEXT NOT NULL,
    table_key TEXT NOT NULL,
    games INTEGER NOT NULL,
    PRIMARY KEY (game, player, table_key)
  ) WITHOUT ROWID;`;

/**
 * How long a write waits for the history's own writer (a worker thread on the same file) before
 * failing: its transactions are one record each, so this is rarely reached.
 */
const BUSY_TIMEOUT_MS = 2_000;

interface RatingRow {
  player: string;
  mu: number;
  sigma: number;
  games: number;
  wins: number;
  draws: number;
  last_seen: number;
}

interface GameRow {
  match_id: string;
  game: string;
  ended_at: number;
  players: string;
  scores: string;
  ratings: string;
}

function ratingOf(row: RatingRow): ArenaRating {
  return { player: row.player, mu: row.mu, sigma: row.sigma, rating: row.mu - 3 * row.sigma, games: row.games, wins: row.wins, draws: row.draws, lastSeen: row.last_seen };
}

function gameOf(row: GameRow): ArenaGame {
  return { matchId: row.match_id, game: row.game, endedAt: row.ended_at, players: JSON.parse(row.players) as string[], scores: JSON.parse(row.scores) as number[], ratings: JSON.parse(row.ratings) as number[] };
}

/** The arena store in an SQLite file (the history's, `--database`), through its own connection. */
export class SqliteArenaStore implements ArenaStore {
  private readonly db: Database.Database;
  private readonly recordTx: (result: ArenaResult) => ArenaRating[];

  constructor(file: string) {
    this.db = new Database(file);
    this.db.pragma('journal_mode = WAL');
    this.db.pragma(`busy_timeout = ${BUSY_TIMEOUT_MS}`);
    this.db.exec(ARENA_TABLES);
    const version = this.db.prepare('SELECT version FROM arena_schema').pluck().get() as number | undefined;
    if (version === undefined) this.db.prepare('INSERT INTO arena_schema (version) VALUES (?)').run(ARENA_SCHEMA_VERSION);
    // Version 1 lacked arena_failures and arena_meetings, which ARENA_TABLES has just created.
    else if (version < ARENA_SCHEMA_VERSION) this.db.prepare('UPDATE arena_schema SET version = ?').run(ARENA_SCHEMA_VERSION);
    else if (version > ARENA_SCHEMA_VERSION) throw new Error(`the arena tables in ${file} are of a newer version (${version}) than this server knows (${ARENA_SCHEMA_VERSION})`);
    const selectRating = this.db.prepare('SELECT player, mu, sigma, games, wins, draws, last_seen FROM arena_ratings WHERE game = ? AND player = ?');
    const selectRecorded = this.db.prepare('SELECT after FROM arena_games WHERE match_id = ?').pluck();
    const upsert = this.db.prepare(
      `INSERT INTO arena_ratings (game, player, mu, sigma, games, wins, draws, last_seen) VALUES (@game, @player, @mu, @sigma, @games, @wins, @draws, @lastSeen)
       ON CONFLICT (game, player) DO UPDATE SET mu = excluded.mu, sigma = excluded.sigma, games = excluded.games, wins = excluded.wins, draws = excluded.draws, last_seen = excluded.last_seen`,
    );
    const insertGame = this.db.prepare('INSERT INTO arena_games (match_id, game, ended_at, players, scores, ratings, after) VALUES (?, ?, ?, ?, ?, ?, ?)');
    const insertPlayer = this.db.prepare('INSERT INTO arena_game_players (match_id, game, player, ended_at) VALUES (?, ?, ?, ?)');
    this.recordTx = this.db.transaction((result: ArenaResult): ArenaRating[] => {
      const earlier = selectRecorded.get(result.matchId) as string | undefined;
      if (earlier !== undefined) return JSON.parse(earlier) as ArenaRating[];
      const after = ratingsAfter(result, (player) => {
        const row = selectRating.get(result.game, player) as RatingRow | undefined;
        return row && ratingOf(row);
      });
      for (const row of after) upsert.run({ game: result.game, ...row });
      const players = result.standings.map((s) => s.player);
      insertGame.run(result.matchId, result.game, result.endedAt, JSON.stringify(players), JSON.stringify(result.standings.map((s) => s.score)), JSON.stringify(after.map((r) => r.rating)), JSON.stringify(after));
      for (const player of players) insertPlayer.run(result.matchId, result.game, player, result.endedAt);
      return after;
    });
  }

  async skills(game: string, players: readonly string[]): Promise<Map<string, Skill>> {
    const select = this.db.prepare('SELECT mu, sigma FROM arena_ratings WHERE game = ? AND player = ?');
    return new Map(players.map((player) => {
      const row = select.get(game, player) as Skill | undefined;
      return [player, row ? { mu: row.mu, sigma: row.sigma } : INITIAL_SKILL];
    }));
  }

  async record(result: ArenaResult): Promise<ArenaRating[]> {
    return this.recordTx(result);
  }

  async standing(game: string, player: string): Promise<ArenaStanding> {
    const failures = this.db.prepare('SELECT failures, held_until FROM arena_failures WHERE game = ? AND player = ?').get(game, player) as { failures: number; held_until: number } | undefined;
    const meetings = this.db.prepare('SELECT table_key, games FROM arena_meetings WHERE game = ? AND player = ?').all(game, player) as { table_key: string; games: number }[];
    return { failures: failures?.failures ?? 0, heldUntil: failures?.held_until ?? 0, meetings: new Map(meetings.map((row) => [row.table_key, row.games])) };
  }

  async saveFailures(game: string, player: string, failures: number, heldUntil: number): Promise<void> {
    this.db
      .prepare('INSERT INTO arena_failures (game, player, failures, held_until) VALUES (?, ?, ?, ?) ON CONFLICT (game, player) DO UPDATE SET failures = excluded.failures, held_until = excluded.held_until')
      .run(game, player, failures, heldUntil);
  }

  async countMeeting(game: string, players: readonly string[]): Promise<void> {
    const key = tableKey(players);
    const upsert = this.db.prepare('INSERT INTO arena_meetings (game, player, table_key, games) VALUES (?, ?, ?, 1) ON CONFLICT (game, player, table_key) DO UPDATE SET games = games + 1');
    this.db.transaction(() => {
      for (const player of new Set(players)) upsert.run(game, player, key);
    })();
  }

  async board(game: string, limit: number): Promise<ArenaRating[]> {
    const rows = this.db
      .prepare('SELECT player, mu, sigma, games, wins, draws, last_seen FROM arena_ratings WHERE game = ? ORDER BY mu - 3 * sigma DESC, player LIMIT ?')
      .all(game, limit) as RatingRow[];
    return rows.map(ratingOf);
  }

  async games(game: string, player: string | null, limit: number): Promise<ArenaGame[]> {
    const rows =
      player === null
        ? this.db.prepare('SELECT match_id, game, ended_at, players, scores, ratings FROM arena_games WHERE game = ? ORDER BY ended_at DESC, rowid DESC LIMIT ?').all(game, limit)
        : this.db
            .prepare(
              `SELECT g.match_id, g.game, g.ended_at, g.players, g.scores, g.ratings FROM arena_game_players p JOIN arena_games g ON g.match_id = p.match_id
               WHERE p.game = ? AND p.player = ? ORDER BY p.ended_at DESC, g.rowid DESC LIMIT ?`,
            )
            .all(game, player, limit);
    return (rows as GameRow[]).map(gameOf);
  }

  async close(): Promise<void> {
    this.db.close();
  }
}

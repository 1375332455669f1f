/**
 * `GET /api/arena/GAME` (the queue, the live games, the leaderboard and the newest games),
 * `GET /api/arena/GAME.csv` (the leaderboard for export) and `GET /api/arena/GAME/PLAYER` (one
 * player's rating, its rating after each of its newest games and those games). Docs: docs/arena.md.
 */
import type { ArenaService } from '../arena/arena.js';
import { ARENA_LIST_MAX, type ArenaGame, type ArenaRating, type ArenaStore } from '../arena/arena-store.js';
import { csvText } from './ratings-api.js';

/** What an arena path asks for (see parseArenaPath). */
export type ArenaRequest =
  | { readonly kind: 'arena'; readonly game: string }
  | { readonly kind: 'csv'; readonly game: string }
  | { readonly kind: 'player'; readonly game: string; readonly player: string };

/** Rows of each list when the request gives no `limit`. */
export const ARENA_LIST_DEFAULT = 100;

/** The arena path asked for; null for another path, 'bad-escape' for a malformed escape. */
export function parseArenaPath(pathname: string): ArenaRequest | 'bad-escape' | null {
  const match = /^\/api\/arena\/([^/]+)(?:\/([^/]+))?$/.exec(pathname);
  if (!match) return null;
  try {
    const game = decodeURIComponent(match[1]!);
    if (match[2] !== undefined) return { kind: 'player', game, player: decodeURIComponent(match[2]) };
    if (game.endsWith('.csv')) return { kind: 'csv', game: game.slice(0, -'.csv'.length) };
    return { kind: 'arena', game };
  } catch {
    return 'bad-escape';
  }
}

export function arenaRatingJson(row: ArenaRating, i: number): Record<string, unknown> {
  return { rank: i + 1, player: row.player, rating: row.rating, mu: row.mu, sigma: row.sigma, games: row.games, wins: row.wins, draws: row.draws, losses: row.games - row.wins - row.draws, last_seen: row.lastSeen };
}

export function arenaGameJson(game: ArenaGame): Record<string, unknown> {
  return { match_id: game.matchId, ended_at: game.endedAt, players: game.players, scores: game.scores, ratings: game.ratings };
}

export const ARENA_CSV_COLUMNS = ['rank', 'player', 'rating', 'mu', 'sigma', 'games', 'wins', 'draws', 'losses', 'last_seen'] as const;

/** The arena leaderboard as CSV (RFC 4180, CRLF line ends), with a header line; names made safe for spreadsheets (csvText). */
export function arenaCsv(board: readonly ArenaRating[]): string {
  const lines = [ARENA_CSV_COLUMNS.join(',')];
  board.forEach((row, i) => lines.push([String(i + 1), csvText(row.player), String(row.rating), String(row.mu), String(row.sigma), String(row.games), String(row.wins), String(row.draws), String(row.games - row.wins - row.draws), String(row.lastSeen)].join(',')));
  return `${lines.join('\r\n')}\r\n`;
}

export type ArenaAnswer = { readonly status: number; readonly json: unknown } | { readonly status: 200; readonly csv: string; readonly filename: string };

/** Answers the arena paths from the arena (what lives in memory) and its store (ratings and games). */
export class ArenaApi {
  constructor(
    private readonly arena: ArenaService,
    private readonly store: ArenaStore,
  ) {}

  async answer(asked: ArenaRequest, limitParam: number | undefined): Promise<ArenaAnswer> {
    let view;
    try {
      view = await this.arena.view(asked.game);
    } catch (error) {
      // A cluster's queue is on its pairing node, which did not answer (it is being taken over).
      return { status: 503, json: { error: `the arena's queue cannot be read now: ${error instanceof Error ? error.message : String(error)}` } };
    }
    if (!view) return { status: 404, json: { error: `no arena for "${asked.game}" (arenas: ${this.arena.gameNames().join(', ')})` } };
    const limit = Math.min(limitParam ?? ARENA_LIST_DEFAULT, ARENA_LIST_MAX);
    if (asked.kind === 'csv') {
      const board = await this.store.board(asked.game, limitParam === undefined ? ARENA_LIST_MAX : limit);
      return { status: 200, csv: arenaCsv(board), filename: `${asked.game}-arena.csv`.replace(/[^\w.-]/g, '_') };
    }
    if (asked.kind === 'player') {
      const [games, board] = await Promise.all([this.store.games(asked.game, asked.player, limit), this.store.board(asked.game, ARENA_LIST_MAX)]);
      const index = board.findIndex((row) => row.player === asked.player);
      const rating = index === -1 ? null : arenaRatingJson(board[index]!, index);
      return { status: 200, json: { game: asked.game, player: asked.player, rating, games: games.map(arenaGameJson) } };
    }
    const [board, games] = await Promise.all([this.store.board(asked.game, limit), this.store.games(asked.game, null, limit)]);
    return {
      status: 200,
      json: {
        game: view.game,
        players: view.seats,
        args: view.args,
        queue: view.queue.map((entry) => ({ name: entry.name, rating: entry.rating, waiting_since: entry.waitingSince, playing: entry.playing, concurrency: entry.concurrency, held_until: entry.heldUntil, anchor: entry.anchor })),
        live: view.live.map((match) => ({ id: match.id, players: match.players, rating: match.rating, started_at: match.startedAt })),
        leaderboard: board.map(arenaRatingJson),
        games: games.map(arenaGameJson),
      },
    };
  }
}

import { listOf, looseRecord } from '../src/protocol/loose-json.js';
import type { RatingPoint } from './ratings-api.js';

/** GET /api/arena/GAME as the page reads it (src/gateways/arena-api.ts writes it). */
export interface ArenaPage {
  readonly players: number;
  readonly args: Readonly<Record<string, string>>;
  readonly queue: readonly { readonly name: string; readonly rating: number; readonly playing: number; readonly concurrency: number; readonly heldUntil: number | null; readonly anchor: boolean }[];
  /** Best-rated first. */
  readonly live: readonly { readonly id: string; readonly players: readonly string[]; readonly rating: number }[];
  readonly leaderboard: readonly ArenaBoardRow[];
  /** Newest first. */
  readonly games: readonly ArenaGameRow[];
}

export interface ArenaBoardRow {
  readonly rank: number;
  readonly player: string;
  readonly rating: number;
  readonly games: number;
  readonly wins: number;
  readonly draws: number;
  readonly losses: number;
  readonly lastSeen: number;
}

export interface ArenaGameRow {
  readonly matchId: string;
  readonly endedAt: number;
  readonly players: readonly string[];
  readonly scores: readonly number[];
  readonly ratings: readonly number[];
}

const num = (value: unknown): number => (typeof value === 'number' && Number.isFinite(value) ? value : Number.NaN);
const text = (value: unknown): string => (typeof value === 'string' ? value : '');
const strings = (value: unknown): string[] => listOf(value).map(text);
const numbers = (value: unknown): number[] => listOf(value).map(num);

function readGame(value: unknown): ArenaGameRow {
  const g = looseRecord(value);
  return { matchId: text(g['match_id']), endedAt: num(g['ended_at']), players: strings(g['players']), scores: numbers(g['scores']), ratings: numbers(g['ratings']) };
}

function readBoardRow(value: unknown): ArenaBoardRow {
  const r = looseRecord(value);
  return { rank: num(r['rank']), player: text(r['player']), rating: num(r['rating']), games: num(r['games']), wins: num(r['wins']), draws: num(r['draws']), losses: num(r['losses']), lastSeen: num(r['last_seen']) };
}

/** Reads an arena body; entries without a name or id are left out. */
export function readArena(body: unknown): ArenaPage {
  const b = looseRecord(body);
  const args: Record<string, string> = {};
  for (const [key, value] of Object.entries(looseRecord(b['args']))) if (typeof value === 'string') args[key] = value;
  return {
    players: num(b['players']),
    args,
    queue: listOf(b['queue'])
      .map((value) => {
        const q = looseRecord(value);
        const held = num(q['held_until']);
        return { name: text(q['name']), rating: num(q['rating']), playing: num(q['playing']), concurrency: num(q['concurrency']), heldUntil: Number.isFinite(held) ? held : null, anchor: q['anchor'] === true };
      })
      .filter((entry) => entry.name !== ''),
    live: listOf(b['live'])
      .map((value) => {
        const l = looseRecord(value);
        return { id: text(l['id']), players: strings(l['players']), rating: num(l['rating']) };
      })
      .filter((match) => match.id !== ''),
    leaderboard: listOf(b['leaderboard']).map(readBoardRow).filter((row) => row.player !== ''),
    games: listOf(b['games']).map(readGame).filter((game) => game.matchId !== ''),
  };
}

/** GET /api/arena/GAME/PLAYER: the player's games, newest first. */
export function readArenaPlayer(body: unknown): { readonly rating: ArenaBoardRow | null; readonly games: readonly ArenaGameRow[] } {
  const b = looseRecord(body);
  const rating = b['rating'] === null || b['rating'] === undefined ? null : readBoardRow(b['rating']);
  return { rating: rating && rating.player !== '' ? rating : null, games: listOf(b['games']).map(readGame).filter((game) => game.matchId !== '') };
}

/**
 * The player's rating after each of its games, oldest first, for the rating chart. The arena keeps
 * the displayed rating per game, not mu and sigma, so those are NaN (the chart shows them as –).
 */
export function arenaRatingPoints(player: string, games: readonly ArenaGameRow[]): RatingPoint[] {
  return [...games]
    .reverse()
    .map((game) => ({ matchId: game.matchId, endedAt: game.endedAt, rating: game.ratings[game.players.indexOf(player)] ?? Number.NaN, mu: Number.NaN, sigma: Number.NaN }))
    .filter((point) => Number.isFinite(point.rating));
}

export const arenaPath = (game: string): string => `/api/arena/${encodeURIComponent(game)}`;
export const arenaCsvPath = (game: string): string => `/api/arena/${encodeURIComponent(`${game}.csv`)}`;
export const arenaPlayerPath = (game: string, player: string): string => `/api/arena/${encodeURIComponent(game)}/${encodeURIComponent(player)}`;

/**
 * The arena's ratings and games, per game per player name, behind one small async seam: in
 * memory (tests, `--database :memory:`), in the history's SQLite file, or in the history's
 * PostgreSQL database. Every implementation passes the contract suite (arena-store.test.ts).
 *
 * Arena ratings are apart from the ratings of verified matches (src/ratings): the same OpenSkill
 * model (rateMatch), but only arena games count, and each name also has its wins, draws and the
 * time it last played.
 */
import { displayedRating, INITIAL_SKILL, rateMatch, type Skill, type Standing } from '../ratings/rating.js';

/** One name's arena rating in one game. */
export interface ArenaRating {
  readonly player: string;
  readonly mu: number;
  readonly sigma: number;
  /** mu - 3 sigma, as the leaderboard sorts (displayedRating). */
  readonly rating: number;
  readonly games: number;
  readonly wins: number;
  readonly draws: number;
  /** Unix ms of its last arena game's end. */
  readonly lastSeen: number;
}

/** A finished arena game as the store keeps it. */
export interface ArenaGame {
  readonly matchId: string;
  readonly game: string;
  /** Unix ms. */
  readonly endedAt: number;
  /** Names in seat order. */
  readonly players: readonly string[];
  readonly scores: readonly number[];
  /** Each seat's displayed rating after the game. */
  readonly ratings: readonly number[];
}

/** What the arena records after a game: the rated names (one seat each) and their scores, in seat order. */
export interface ArenaResult {
  readonly matchId: string;
  readonly game: string;
  readonly endedAt: number;
  readonly standings: readonly Standing[];
}

/**
 * What the arena keeps of a name besides its rating, so that a restarted server, or the next
 * pairing node of a cluster, goes on from it: its failures in a row, its hold, and how many games
 * it played with each set of names (for alternating seats).
 */
export interface ArenaStanding {
  /** Failed games in a row (arena-failures holds it out). */
  readonly failures: number;
  /** Unix ms until which it is held out of pairing; 0: not held. */
  readonly heldUntil: number;
  /** Games played together, by table key (pairing.ts, tableKey) of each set of names it played with. */
  readonly meetings: ReadonlyMap<string, number>;
}

export interface ArenaStore {
  /** The current skill of each of `players` (INITIAL_SKILL for a newcomer), for pairing. */
  skills(game: string, players: readonly string[]): Promise<Map<string, Skill>>;
  /**
   * Rates one finished game and keeps it, atomically; a match id recorded before is not rated
   * again (its earlier ratings come back). Returns each player's rating after it, in order.
   */
  record(result: ArenaResult): Promise<ArenaRating[]>;
  /** A name's failures, hold and meetings in `game` (none for a newcomer). */
  standing(game: string, player: string): Promise<ArenaStanding>;
  /** Keeps a name's failures in a row and the end of its hold (0: none). */
  saveFailures(game: string, player: string, failures: number, heldUntil: number): Promise<void>;
  /** Counts one more game of `players` together (each of them keeps the count under their table key). */
  countMeeting(game: string, players: readonly string[]): Promise<void>;
  /** The leaderboard: best displayed rating first, then by name (byte order). */
  board(game: string, limit: number): Promise<ArenaRating[]>;
  /** The newest `limit` games, newest first: of `player` when given, else of the whole game. */
  games(game: string, player: string | null, limit: number): Promise<ArenaGame[]>;
  close(): Promise<void>;
}

/** Wins and draws of a standing among `standings`: a win is a score above every other, a draw a shared best. */
export function outcomeOf(standings: readonly Standing[], index: number): 'win' | 'draw' | 'loss' {
  const best = Math.max(...standings.map((s) => s.score));
  const mine = standings[index]!.score;
  if (mine < best) return 'loss';
  return standings.filter((s) => s.score === best).length > 1 ? 'draw' : 'win';
}

/**
 * The shared arithmetic of every store: the ratings after `result`, given each player's rating
 * before (undefined for a newcomer).
 */
export function ratingsAfter(result: ArenaResult, before: (player: string) => ArenaRating | undefined): ArenaRating[] {
  const skills = rateMatch(result.standings, (player) => before(player) ?? INITIAL_SKILL);
  return result.standings.map((standing, i) => {
    const old = before(standing.player);
    const outcome = outcomeOf(result.standings, i);
    const skill = skills[i]!;
    return {
      player: standing.player,
      mu: skill.mu,
      sigma: skill.sigma,
      rating: displayedRating(skill),
      games: (old?.games ?? 0) + 1,
      wins: (old?.wins ?? 0) + (outcome === 'win' ? 1 : 0),
      draws: (old?.draws ?? 0) + (outcome === 'draw' ? 1 : 0),
      lastSeen: result.endedAt,
    };
  });
}

/** Best rating first, then by name in byte order (the order of every store's leaderboard). */
export function compareRatings(a: ArenaRating, b: ArenaRating): number {
  return b.rating - a.rating || (a.player < b.player ? -1 : a.player > b.player ? 1 : 0);
}

/** The most rows one leaderboard or games request returns. */
export const ARENA_LIST_MAX = 1000;

/** A name nothing is known of. */
export const NO_STANDING: ArenaStanding = { failures: 0, heldUntil: 0, meetings: new Map() };

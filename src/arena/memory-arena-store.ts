import type { Skill } from '../ratings/rating.js';
import { INITIAL_SKILL } from '../ratings/rating.js';
import { compareRatings, ratingsAfter, type ArenaGame, type ArenaRating, type ArenaResult, type ArenaStanding, type ArenaStore } from './arena-store.js';
import { tableKey } from './pairing.js';

/** The arena store in memory: for tests and for a server that keeps no history (`--database :memory:`). */
export class MemoryArenaStore implements ArenaStore {
  private readonly ratings = new Map<string, Map<string, ArenaRating>>();
  private readonly played: ArenaGame[] = [];
  private readonly recorded = new Map<string, ArenaRating[]>();
  private readonly failures = new Map<string, { failures: number; heldUntil: number }>();
  /** By game and player: games played with each table key. */
  private readonly meetings = new Map<string, Map<string, number>>();

  async standing(game: string, player: string): Promise<ArenaStanding> {
    const failures = this.failures.get(`${game}\n${player}`) ?? { failures: 0, heldUntil: 0 };
    return { ...failures, meetings: new Map(this.meetings.get(`${game}\n${player}`)) };
  }

  async saveFailures(game: string, player: string, failures: number, heldUntil: number): Promise<void> {
    this.failures.set(`${game}\n${player}`, { failures, heldUntil });
  }

  async countMeeting(game: string, players: readonly string[]): Promise<void> {
    const key = tableKey(players);
    for (const player of new Set(players)) {
      let mine = this.meetings.get(`${game}\n${player}`);
      if (!mine) this.meetings.set(`${game}\n${player}`, (mine = new Map()));
      mine.set(key, (mine.get(key) ?? 0) + 1);
    }
  }

  async skills(game: string, players: readonly string[]): Promise<Map<string, Skill>> {
    const board = this.ratings.get(game);
    return new Map(players.map((player) => {
      const row = board?.get(player);
      return [player, row ? { mu: row.mu, sigma: row.sigma } : INITIAL_SKILL];
    }));
  }

  async record(result: ArenaResult): Promise<ArenaRating[]> {
    const earlier = this.recorded.get(result.matchId);
    if (earlier) return earlier;
    let board = this.ratings.get(result.game);
    if (!board) this.ratings.set(result.game, (board = new Map()));
    const after = ratingsAfter(result, (player) => board!.get(player));
    for (const row of after) board.set(row.player, row);
    this.recorded.set(result.matchId, after);
    this.played.push({
      matchId: result.matchId,
      game: result.game,
      endedAt: result.endedAt,
      players: result.standings.map((s) => s.player),
      scores: result.standings.map((s) => s.score),
      ratings: after.map((row) => row.rating),
    });
    return after;
  }

  async board(game: string, limit: number): Promise<ArenaRating[]> {
    return [...(this.ratings.get(game)?.values() ?? [])].sort(compareRatings).slice(0, limit);
  }

  async games(game: string, player: string | null, limit: number): Promise<ArenaGame[]> {
    const found: ArenaGame[] = [];
    for (let i = this.played.length - 1; i >= 0 && found.length < limit; i--) {
      const played = this.played[i]!;
      if (played.game === game && (player === null || played.players.includes(player))) found.push(played);
    }
    return found;
  }

  async close(): Promise<void> {}
}

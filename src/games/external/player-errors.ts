import type { PlayerErrorRecord } from './match-report.js';

/** Error texts kept per player for the match's report (the reference keeps 10). */
export const PLAYER_ERRORS_KEPT = 10;

/**
 * The `playererror` lines of one match: counted per player, the first PLAYER_ERRORS_KEPT texts of
 * each kept (a game server that repeats itself must not grow the report without bound).
 */
export class PlayerErrorLog {
  private readonly counts: number[];
  private readonly kept: PlayerErrorRecord[] = [];

  /** `limit`: the count at which a player is removed (the reference removes at the first). */
  constructor(
    players: number,
    private readonly limit: number,
  ) {
    this.counts = Array.from({ length: players }, () => 0);
  }

  /** Records an error of `player` (1-based); true when the player is at or past the limit. */
  record(player: number, text: string): boolean {
    const count = ++this.counts[player - 1]!;
    if (count <= PLAYER_ERRORS_KEPT) this.kept.push({ player, text });
    return count >= this.limit;
  }

  /** The kept texts in the order they came. */
  records(): readonly PlayerErrorRecord[] {
    return this.kept;
  }

  /** Errors per player (1-based player p at index p-1), kept or not. */
  totals(): readonly number[] {
    return this.counts;
  }
}

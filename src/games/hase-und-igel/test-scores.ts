import { SCORE_FRAGMENTS, type PlayerScore } from './messages.js';

/**
 * The scores the Software-Challenge server keeps per display name while an administrator has
 * switched test mode on (`<testMode testMode="true"/>`), for `scoreForPlayer`: the official
 * TestClient plays a series of games and asks for both players' scores after each result. Like the
 * real server, the tally is one per server and counts every game that ends while test mode is on.
 */

/** One player's tally: how many games it played and one value per score fragment. */
export interface TestScore {
  readonly displayName: string;
  readonly games: number;
  /** Per fragment of SCORE_FRAGMENTS: the sum (match points) or the mean (field, carrots). */
  readonly values: readonly number[];
}

/** Display names remembered at most; the one updated longest ago is forgotten first. */
export const MAX_TEST_SCORE_NAMES = 1000;

export class TestScores {
  private enabled = false;
  /** By display name, in order of last update (a Map keeps insertion order). */
  private readonly tallies = new Map<string, { games: number; totals: number[] }>();

  constructor(private readonly maxNames = MAX_TEST_SCORE_NAMES) {}

  get testMode(): boolean {
    return this.enabled;
  }

  set testMode(on: boolean) {
    this.enabled = on;
  }

  /** A game's result (RED first), counted only in test mode; told before the result is sent. */
  record(displayNames: readonly [string, string], scores: readonly [PlayerScore, PlayerScore]): void {
    if (!this.enabled) return;
    displayNames.forEach((name, seat) => {
      const score = scores[seat]!;
      const tally = this.tallies.get(name) ?? { games: 0, totals: SCORE_FRAGMENTS.map(() => 0) };
      tally.games++;
      [score.points, score.index, score.carrots].forEach((part, i) => (tally.totals[i]! += part));
      this.tallies.delete(name);
      this.tallies.set(name, tally);
    });
    while (this.tallies.size > this.maxNames) this.tallies.delete(this.tallies.keys().next().value!);
  }

  /** The tally of a display name, or null when it has played no test game (the real server knows no score then). */
  scoreOf(displayName: string): TestScore | null {
    const tally = this.tallies.get(displayName);
    if (!tally) return null;
    const values = SCORE_FRAGMENTS.map((fragment, i) => (fragment.aggregation === 'SUM' ? tally.totals[i]! : tally.totals[i]! / tally.games));
    return { displayName, games: tally.games, values };
  }
}

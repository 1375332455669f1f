import { createRequire } from 'node:module';
import { isBotName } from '../match/match.js';

/**
 * The rating library, loaded when a rating is first computed or displayed, not at start-up: with
 * its dependencies (ramda, @stdlib) it costs a server that rates nothing yet about 10 MiB in each
 * thread that imports this module (the main thread and the SQLite worker). Loaded synchronously
 * (openskill ships CommonJS too), since the SQLite store rates inside its synchronous transaction.
 */
function openskill(): typeof import('openskill') {
  return createRequire(import.meta.url)('openskill') as typeof import('openskill');
}

/**
 * A player's skill in one game as OpenSkill keeps it (Weng-Lin, the Plackett-Luce model that is
 * the `openskill` package's default): a belief with mean `mu` and uncertainty `sigma`.
 */
export interface Skill {
  readonly mu: number;
  readonly sigma: number;
}

/** Where every player starts: the package's defaults (`rating()`: mu 25, sigma 25/3; a test checks they agree). */
export const INITIAL_SKILL: Skill = { mu: 25, sigma: 25 / 3 };

/**
 * The rating shown and sorted by: mu - 3 sigma, a value the player's true skill is above with
 * 99.7% likelihood, so a newcomer with one lucky win does not top the leaderboard.
 */
export function displayedRating(skill: Skill): number {
  return openskill().ordinal(skill);
}

/**
 * The name every server bot's seat is rated under. The bots of one game all play the same code,
 * so `ServerBot$0` and `ServerBot$1` are one player whose rating measures the game's bot.
 */
export const BOT_PLAYER = 'ServerBot';

/** The player a seat is rated as: its own name, or BOT_PLAYER for a server bot's seat. */
export function ratedName(seat: string): string {
  return isBotName(seat) ? BOT_PLAYER : seat;
}

/** One player's place in a finished match: a higher score ranks better, equal scores tie. */
export interface Standing {
  readonly player: string;
  readonly score: number;
}

/**
 * The players a finished match rates, one standing per rated name in order of first seat, or null
 * when it rates nobody: no scores (the game failed), scores that do not match the seats or are not
 * finite, or fewer than two distinct players. A name on several seats (two server bots in one
 * match) counts once, with its best score: a player cannot rank against itself.
 */
export function standings(players: readonly string[], scores: readonly number[] | null): Standing[] | null {
  if (!scores || scores.length !== players.length || !scores.every(Number.isFinite)) return null;
  const best = new Map<string, number>();
  players.forEach((seat, i) => {
    const name = ratedName(seat);
    const previous = best.get(name);
    if (previous === undefined || scores[i]! > previous) best.set(name, scores[i]!);
  });
  if (best.size < 2) return null;
  return [...best].map(([player, score]) => ({ player, score }));
}

/**
 * The skills after a match: each player of `ranked` (each a team of one) with its skill before
 * (`before`, INITIAL_SKILL for a newcomer) updated by the Plackett-Luce model, in `ranked`'s order.
 */
export function rateMatch(ranked: readonly Standing[], before: (player: string) => Skill | undefined): Skill[] {
  const teams = ranked.map((standing) => {
    const { mu, sigma } = before(standing.player) ?? INITIAL_SKILL;
    return [{ mu, sigma }];
  });
  const after = openskill().rate(teams, { score: ranked.map((standing) => standing.score) });
  return after.map(([skill]) => ({ mu: skill!.mu, sigma: skill!.sigma }));
}

/** The standings of a recorded match that changes ratings: only a verified one does (see standings). */
export function ratedStandings(match: { readonly verified: boolean; readonly players: readonly string[]; readonly scores: readonly number[] | null }): Standing[] | null {
  return match.verified ? standings(match.players, match.scores) : null;
}

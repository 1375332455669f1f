/**
 * The lines a tournament prints as it goes, in cutechess-cli's words so that its readers and
 * scripts feel at home: "Started game N of M (a vs b)", "Finished game N (a vs b): 1-0 {why}",
 * and for two players a running "Score of a vs b: W - L - D  [ratio] N".
 */
import type { ResultLine } from './results-file.js';

/** A game's players as cutechess names them: `a vs b`, seats in order. */
const versus = (players: readonly string[]): string => players.join(' vs ');

/** When the server has made the match of game `number` (1-based, the schedule's order) of `total`. */
export function formatStarted(number: number, total: number, players: readonly string[], match: string): string {
  return `Started game ${number} of ${total} (${versus(players)}), match ${match}\n`;
}

/** Why a game ended, with what each player did wrong: the part in braces. */
function because(r: ResultLine): string {
  const incidents = [
    ...r.crashed.map((name) => `${name} crashed`),
    ...r.timedOut.map((name) => `${name} timed out`),
    ...r.illegal.map((name) => `${name} made an illegal move`),
  ];
  return [r.reason, ...incidents].filter(Boolean).join('; ') || 'no reason given';
}

/** A finished game: the outcome as 1-0, 0-1, 1/2-1/2 or * (with more seats, the places). */
export function formatFinished(r: ResultLine): string {
  const outcome = r.players.length === 2 || r.outcome === '*' ? r.outcome : `places ${r.outcome}`;
  return `Finished game ${r.pairing + 1} (${versus(r.players)}): ${outcome} {${because(r)}}, match ${r.match}\n`;
}

/**
 * The running score of `first` against `second` over their finished games, from `first`'s side:
 * wins - losses - draws, the points ratio, the games (those with no result not counted).
 */
export function formatScore(first: string, second: string, results: readonly ResultLine[]): string {
  let wins = 0;
  let losses = 0;
  let draws = 0;
  for (const r of results) {
    if (r.outcome === '*' || r.players.length !== 2 || !r.players.includes(first) || !r.players.includes(second)) continue;
    if (r.outcome === '1/2-1/2') draws++;
    else if ((r.outcome === '1-0') === (r.players[0] === first)) wins++;
    else losses++;
  }
  const games = wins + losses + draws;
  const ratio = games === 0 ? '-' : ((wins + draws / 2) / games).toFixed(3);
  return `Score of ${first} vs ${second}: ${wins} - ${losses} - ${draws}  [${ratio}] ${games}\n`;
}

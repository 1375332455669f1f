import type { MatchSummary } from './match-record.js';

/** A score as the web page shows it: at most 12 significant digits. */
export function formatScore(score: number): string {
  return String(Number(score.toPrecision(12)));
}

/**
 * The end of a match in one line, for `> match ended: ...`: for a player (`seat`, its name) whether
 * it won, lost or drew, the scores (its own first) and the game's reason, then what happened to
 * its seat when it was closed early (`closure`, see seat-closure.ts); for a spectator (or a name
 * not among the seats) every seat's score.
 */
export function describeResult(match: MatchSummary, seat: string | null, closure: string | null = null): string {
  const stated = [match.reason, match.error].filter((text): text is string => !!text).join(': ');
  const why = [stated, closure].filter((text): text is string => !!text).join('; ');
  if (match.scores === null) return `no result (${why || 'the match was stopped'})`;
  const scores = match.scores;
  const reason = why ? ` (${why})` : '';
  const me = seat === null ? -1 : match.players.indexOf(seat);
  if (me === -1 || scores.length < 2) return `${match.players.map((name, i) => `${name} ${formatScore(scores[i] ?? 0)}`).join(', ')}${reason}`;
  const mine = scores[me]!;
  const others = scores.filter((_, i) => i !== me);
  const best = Math.max(...others);
  const verdict = mine > best ? 'you won' : mine < best ? 'you lost' : 'a draw';
  const score =
    others.length === 1
      ? `${formatScore(mine)}-${formatScore(others[0]!)}`
      : `${formatScore(mine)} (${match.players.flatMap((name, i) => (i === me ? [] : [`${name} ${formatScore(scores[i]!)}`])).join(', ')})`;
  return `${verdict} ${score}${reason}`;
}

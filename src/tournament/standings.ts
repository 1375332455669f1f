/**
 * The table at the end of a tournament (and the running one on a terminal): each player's
 * points, games, wins/draws/losses, Elo with its 95 % error, the likelihood that it is stronger
 * than the player below it, its draw rate, and what went wrong in its games.
 */
import { rate, superiority, type Game, type Ratings } from './elo.js';
import type { ResultLine } from './results-file.js';

export interface Standing {
  readonly name: string;
  /** 1 a win, 0.5 a draw. */
  readonly points: number;
  /** Games with a result. */
  readonly games: number;
  readonly wins: number;
  readonly draws: number;
  readonly losses: number;
  /** Matches of this player that ended without a result. */
  readonly unfinished: number;
  readonly crashes: number;
  readonly timeouts: number;
  readonly illegal: number;
  readonly elo: number;
  readonly error95: number;
  /** Likelihood of superiority over the next player in the table; null for the last. */
  readonly losNext: number | null;
}

export interface Standings {
  /** Best first. */
  readonly rows: readonly Standing[];
  readonly games: number;
  readonly draws: number;
  /** Matches in which a player crashed: who, and the match id. */
  readonly crashes: readonly { readonly player: string; readonly match: string }[];
  readonly ratings: Ratings;
}

/** The games of `results` with a result between known players, for the rating. */
export function gamesOf(names: readonly string[], results: readonly ResultLine[]): Game[] {
  return results.flatMap((r): Game[] => {
    const [a, b] = r.players.map((name) => names.indexOf(name));
    if (r.outcome === '*' || a === undefined || b === undefined || a < 0 || b < 0) return [];
    return [{ a, b, score: r.outcome === '1-0' ? 1 : r.outcome === '0-1' ? 0 : 0.5 }];
  });
}

export function standings(names: readonly string[], results: readonly ResultLine[]): Standings {
  const games = gamesOf(names, results);
  const ratings = rate(names.length, games);
  const rows = names.map((name, i) => {
    const mine = games.filter((g) => g.a === i || g.b === i);
    const scoreOf = (g: Game): number => (g.a === i ? g.score : 1 - g.score);
    const involved = results.filter((r) => r.players.includes(name));
    return {
      index: i,
      name,
      points: mine.reduce((sum, g) => sum + scoreOf(g), 0),
      games: mine.length,
      wins: mine.filter((g) => scoreOf(g) === 1).length,
      draws: mine.filter((g) => g.score === 0.5).length,
      losses: mine.filter((g) => scoreOf(g) === 0).length,
      unfinished: involved.filter((r) => r.outcome === '*').length,
      crashes: involved.filter((r) => r.crashed.includes(name)).length,
      timeouts: involved.filter((r) => r.timedOut.includes(name)).length,
      illegal: involved.filter((r) => r.illegal.includes(name)).length,
      elo: ratings.elo[i]!,
      error95: ratings.error95[i]!,
    };
  });
  rows.sort((x, y) => y.elo - x.elo || y.points - x.points || x.index - y.index);
  return {
    rows: rows.map(({ index, ...row }, k) => ({ ...row, losNext: k + 1 < rows.length ? superiority(ratings, index, rows[k + 1]!.index) : null })),
    games: games.length,
    draws: games.filter((g) => g.score === 0.5).length,
    crashes: results.flatMap((r) => r.crashed.map((player) => ({ player, match: r.match }))),
    ratings,
  };
}

const percent = (x: number): string => `${(100 * x).toFixed(1)}%`;

/** The table as text, columns aligned, then the draw rate and the crashed matches. */
export function formatStandings(table: Standings): string {
  const header = ['#', 'player', 'Elo', '±95%', 'LOS', 'points', 'games', 'W', 'D', 'L', 'draws', 'crash', 'time', 'illegal', 'no result'];
  const body = table.rows.map((row, k) => [
    String(k + 1),
    row.name,
    row.elo.toFixed(1),
    Number.isFinite(row.error95) ? row.error95.toFixed(1) : 'inf',
    row.losNext === null ? '-' : percent(row.losNext),
    String(row.points),
    String(row.games),
    String(row.wins),
    String(row.draws),
    String(row.losses),
    row.games ? percent(row.draws / row.games) : '-',
    String(row.crashes),
    String(row.timeouts),
    String(row.illegal),
    String(row.unfinished),
  ]);
  const widths = header.map((_, c) => Math.max(...[header, ...body].map((cells) => cells[c]!.length)));
  // Names to the left, numbers to the right, as a reader compares them.
  const line = (cells: readonly string[]): string => cells.map((cell, c) => (c === 1 ? cell.padEnd(widths[c]!) : cell.padStart(widths[c]!))).join('  ').trimEnd();
  const lines = [line(header), ...body.map(line)];
  lines.push(`${table.games} games, draw rate ${table.games ? percent(table.draws / table.games) : '-'}${table.ratings.regularized ? '; Elo with one virtual draw each (a player won or lost every game)' : ''}`);
  for (const crash of table.crashes) lines.push(`crash: ${crash.player} in match ${crash.match}`);
  return `${lines.join('\n')}\n`;
}

/** One line for a terminal's live progress: each player's points, best first. */
export function formatPoints(names: readonly string[], results: readonly ResultLine[]): string {
  const points = new Map(names.map((name) => [name, 0]));
  for (const r of results) {
    if (r.scores === null || r.outcome === '*') continue;
    const [a, b] = r.players as [string, string];
    const first = r.outcome === '1-0' ? 1 : r.outcome === '0-1' ? 0 : 0.5;
    points.set(a, (points.get(a) ?? 0) + first);
    points.set(b, (points.get(b) ?? 0) + 1 - first);
  }
  return [...points].sort((x, y) => y[1] - x[1]).map(([name, p]) => `${name} ${p}`).join(', ');
}

/** One line per finished match: `[done/total] a 1-0 b (reason; incidents), match ID`. */
export function formatResultLine(done: number, total: number, r: ResultLine): string {
  const incidents = [
    ...r.crashed.map((name) => `${name} crashed`),
    ...r.timedOut.map((name) => `${name} timed out`),
    ...r.illegal.map((name) => `${name} made an illegal move`),
  ];
  const why = [r.reason, ...incidents].filter(Boolean).join('; ');
  return `[${done}/${total}] ${r.players.join(` ${r.outcome} `)}${why ? ` (${why})` : ''}, match ${r.match}\n`;
}

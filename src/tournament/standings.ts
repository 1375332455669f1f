/**
 * The table at the end of a tournament (and the running one on a terminal): each player's
 * points, games, wins/draws/losses, Elo with its 95 % error, the likelihood that it is stronger
 * than the player below it, its draw rate, and what went wrong in its games.
 *
 * Games of any number of seats count by their finishing places (places.ts): a game gives
 * (opponents beaten + half the opponents tied) / (k - 1) points; a win is first place alone, a
 * draw first place shared, a loss any other place, which for 2 players is the usual meaning; and
 * the rating comes from the ranking's pairwise results (elo.ts).
 */
import { rate, superiority, type Game, type Ratings } from './elo.js';
import { placesOf, seatPoints } from './places.js';
import type { ResultLine } from './results-file.js';

export interface Standing {
  readonly name: string;
  /** Per game: opponents beaten plus half the opponents tied, over k - 1 (1 a win, 0.5 a draw for 2 players). */
  readonly points: number;
  /** Games with a result. */
  readonly games: number;
  /** First place alone. */
  readonly wins: number;
  /** First place shared. */
  readonly draws: number;
  /** Any other place. */
  readonly losses: number;
  /** Mean finishing place over the games with a result (1 is first); null with no game. */
  readonly place: number | null;
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
  /** Games with a result. */
  readonly games: number;
  /** Games whose first place was shared. */
  readonly draws: number;
  /** The most seats of any game with a result (2 for 2-player games; the table shows places above that). */
  readonly seats: number;
  /** Matches in which a player crashed: who, and the match id. */
  readonly crashes: readonly { readonly player: string; readonly match: string }[];
  readonly ratings: Ratings;
}

/** A game with a result between known players: each seat's player (index) and place. */
interface RankedGame {
  readonly players: readonly number[];
  readonly places: readonly number[];
}

function rankedGames(names: readonly string[], results: readonly ResultLine[]): RankedGame[] {
  return results.flatMap((r): RankedGame[] => {
    const places = placesOf(r.outcome);
    const players = r.players.map((name) => names.indexOf(name));
    if (places === null || places.length !== players.length || players.some((i) => i < 0)) return [];
    return [{ players, places }];
  });
}

/** The pairwise games of a ranking, for the rating: every pair of seats, weighted 1/(k-1) (see elo.ts). */
function pairwise({ players, places }: RankedGame): Game[] {
  const weight = 1 / (players.length - 1);
  const games: Game[] = [];
  for (let s = 0; s < players.length; s++) {
    for (let t = s + 1; t < players.length; t++) {
      const score = places[s]! < places[t]! ? 1 : places[s]! > places[t]! ? 0 : 0.5;
      // A 2-player game keeps its plain shape, so its figures are exactly those of before.
      games.push(players.length === 2 ? { a: players[s]!, b: players[t]!, score } : { a: players[s]!, b: players[t]!, score, weight });
    }
  }
  return games;
}

/** The games of `results` with a result between known players, for the rating. */
export function gamesOf(names: readonly string[], results: readonly ResultLine[]): Game[] {
  return rankedGames(names, results).flatMap(pairwise);
}

export function standings(names: readonly string[], results: readonly ResultLine[]): Standings {
  const ranked = rankedGames(names, results);
  const ratings = rate(names.length, ranked.flatMap(pairwise));
  const sharedFirst = (g: RankedGame): boolean => g.places.filter((place) => place === 1).length > 1;
  const rows = names.map((name, i) => {
    // Each of this player's games: its place, its points, whether first was shared.
    const mine = ranked.flatMap((g) => {
      const seat = g.players.indexOf(i);
      return seat < 0 ? [] : [{ place: g.places[seat]!, points: seatPoints(g.places)[seat]!, shared: sharedFirst(g) }];
    });
    const involved = results.filter((r) => r.players.includes(name));
    return {
      index: i,
      name,
      points: mine.reduce((sum, g) => sum + g.points, 0),
      games: mine.length,
      wins: mine.filter((g) => g.place === 1 && !g.shared).length,
      draws: mine.filter((g) => g.place === 1 && g.shared).length,
      losses: mine.filter((g) => g.place > 1).length,
      place: mine.length ? mine.reduce((sum, g) => sum + g.place, 0) / mine.length : null,
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
    // Without games between them there is nothing to compare: no LOS (not the prior's 50-odd %).
    rows: rows.map(({ index, ...row }, k) => {
      const next = rows[k + 1];
      return { ...row, losNext: next !== undefined && row.games > 0 && next.games > 0 ? superiority(ratings, index, next.index) : null };
    }),
    games: ranked.length,
    draws: ranked.filter(sharedFirst).length,
    seats: Math.max(2, ...ranked.map((g) => g.players.length)),
    crashes: results.flatMap((r) => r.crashed.map((player) => ({ player, match: r.match }))),
    ratings,
  };
}

const percent = (x: number): string => `${(100 * x).toFixed(1)}%`;

/** Points as they are (halves, from 2-player games), or to 2 decimals (thirds and the like, from more seats). */
const formatPointsValue = (points: number): string => (Number.isInteger(points * 2) ? String(points) : points.toFixed(2));

/** The table as text, columns aligned, then the draw rate and the crashed matches; games of more than 2 seats add each player's mean place. */
export function formatStandings(table: Standings): string {
  const places = table.seats > 2;
  const header = ['#', 'player', 'Elo', '±95%', 'LOS', 'points', 'games', 'W', 'D', 'L', ...(places ? ['place'] : []), 'draws', 'crash', 'time', 'illegal', 'no result'];
  const body = table.rows.map((row, k) => [
    String(k + 1),
    row.name,
    row.elo.toFixed(1),
    // No games, no interval: a dash, as for the other columns of a player who has not played.
    row.games === 0 ? '-' : Number.isFinite(row.error95) ? row.error95.toFixed(1) : 'inf',
    row.losNext === null ? '-' : percent(row.losNext),
    formatPointsValue(row.points),
    String(row.games),
    String(row.wins),
    String(row.draws),
    String(row.losses),
    ...(places ? [row.place === null ? '-' : row.place.toFixed(2)] : []),
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
  const drawRate = `draw rate ${table.games ? percent(table.draws / table.games) : '-'}${places ? ' (first place shared)' : ''}`;
  lines.push(`${table.games} games, ${drawRate}${table.games > 0 && table.ratings.regularized ? '; Elo with one virtual draw each (a player won or lost every game)' : ''}`);
  for (const crash of table.crashes) lines.push(`crash: ${crash.player} in match ${crash.match}`);
  return `${lines.join('\n')}\n`;
}

/** One line for a terminal's live progress: each player's points, best first. */
export function formatPoints(names: readonly string[], results: readonly ResultLine[]): string {
  const points = new Map(names.map((name) => [name, 0]));
  for (const r of results) {
    const places = r.scores === null ? null : placesOf(r.outcome);
    if (places === null) continue;
    seatPoints(places).forEach((p, seat) => points.set(r.players[seat]!, (points.get(r.players[seat]!) ?? 0) + p));
  }
  return [...points].sort((x, y) => y[1] - x[1]).map(([name, p]) => `${name} ${formatPointsValue(p)}`).join(', ');
}

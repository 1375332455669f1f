/**
 * Who plays whom, for 2-player games. A pairing names two players (by their index in the
 * tournament's list) in the seat order asked for; its index, its place in the whole schedule, is
 * what the results file records, so a re-run knows what is done.
 *
 * Every format plays each meeting as a pair of games, one in each seat order, so neither player
 * gets the first move more often than the other:
 * - round-robin, `rounds` N: every pair of players plays 2N games, N with each player in seat 0;
 * - gauntlet, `rounds` N: the first player plays 2N games against each of the others, N in each seat;
 * - swiss, `rounds` N: N rounds; each round pairs players of equal or near score who have not met
 *   yet, and each pair plays 2 games, one per seat order.
 *
 * Matches are created with this seat order (the `@seats` argument, src/lobby/seat-order-arg.ts);
 * a server that ignores it (the reference seats players its own way) makes the order a matter of
 * chance. The results file records the seats each game had.
 */
import { Random } from '../match/random.js';

export const FORMATS = ['round-robin', 'gauntlet', 'swiss'] as const;
export type Format = (typeof FORMATS)[number];

export interface Pairing {
  /** Place in the whole schedule, from 0. */
  readonly index: number;
  /** From 0: the repetition (round-robin, gauntlet) or the swiss round. */
  readonly round: number;
  /** Player indices, seat 0 first. */
  readonly seats: readonly [number, number];
}

/** Both seat orders of each meeting, one after the other, numbered from `first`. */
function bothOrders(round: number, meetings: readonly (readonly [number, number])[], first: number): Pairing[] {
  return meetings.flatMap(([a, b], i) => [
    { index: first + 2 * i, round, seats: [a, b] as const },
    { index: first + 2 * i + 1, round, seats: [b, a] as const },
  ]);
}

/** Every pair, `rounds` times, in both seat orders; each repetition complete before the next. */
export function roundRobin(players: number, rounds: number): Pairing[] {
  const meetings: [number, number][] = [];
  for (let a = 0; a < players; a++) for (let b = a + 1; b < players; b++) meetings.push([a, b]);
  return Array.from({ length: rounds }, (_, round) => bothOrders(round, meetings, round * 2 * meetings.length)).flat();
}

/** Player 0 against each of the others, `rounds` times, in both seat orders. */
export function gauntlet(players: number, rounds: number): Pairing[] {
  const meetings = Array.from({ length: players - 1 }, (_, i) => [0, i + 1] as [number, number]);
  return Array.from({ length: rounds }, (_, round) => bothOrders(round, meetings, round * 2 * meetings.length)).flat();
}

export interface SwissRound {
  readonly pairings: readonly Pairing[];
  /** The player who sits this round out (an odd number of players), or null. */
  readonly bye: number | null;
}

export interface SwissState {
  /** Each player's points so far (1 a win, 0.5 a draw). */
  readonly points: readonly number[];
  /** Pairs that met already, as `a-b` with a < b. */
  readonly met: ReadonlySet<string>;
  /** How many byes each player had. */
  readonly byes: readonly number[];
}

export function meetingKey(a: number, b: number): string {
  return a < b ? `${a}-${b}` : `${b}-${a}`;
}

/** Beyond this many tries the search for a pairing without repeats gives up and allows them. */
const SEARCH_BUDGET = 100_000;

/**
 * Pairs `order` (best first) so that no pair met before, preferring partners close in rank:
 * the first unpaired player takes the nearest one it has not met, backtracking when that leaves
 * the rest unpairable. Null when there is no such pairing (or the search ran past its budget).
 */
function pairWithoutRepeats(order: readonly number[], met: ReadonlySet<string>): [number, number][] | null {
  let tries = 0;
  const search = (rest: readonly number[]): [number, number][] | null => {
    if (rest.length === 0) return [];
    if (++tries > SEARCH_BUDGET) return null;
    const [top, ...others] = rest as [number, ...number[]];
    for (let i = 0; i < others.length; i++) {
      const partner = others[i]!;
      if (met.has(meetingKey(top, partner))) continue;
      const found = search(others.filter((_, j) => j !== i));
      if (found) return [[top, partner], ...found];
    }
    return null;
  };
  return search(order);
}

/**
 * Round `round` (from 0) of a swiss tournament, numbered from `first`. Players are ranked by
 * points, ties broken by a fixed order drawn from `seed`, so the same seed and results give the
 * same rounds (which is what lets a re-run find its place). With an odd number of players, the
 * lowest-ranked player with the fewest byes sits out (no game, no points). Pairs avoid players who
 * met already; when that is impossible (more rounds than opponents), repeats are allowed.
 */
export function swissRound(state: SwissState, round: number, seed: string, first: number): SwissRound {
  const players = state.points.length;
  const tieBreak = Random.fromSeed(`${seed}:swiss`).shuffle(Array.from({ length: players }, (_, i) => i));
  const rankOf = new Map(tieBreak.map((player, rank) => [player, rank]));
  const order = [...tieBreak].sort((a, b) => state.points[b]! - state.points[a]! || rankOf.get(a)! - rankOf.get(b)!);
  let bye: number | null = null;
  if (players % 2 === 1) {
    const fewest = Math.min(...state.byes);
    bye = [...order].reverse().find((player) => state.byes[player] === fewest)!;
    order.splice(order.indexOf(bye), 1);
  }
  const meetings = pairWithoutRepeats(order, state.met) ?? pairWithoutRepeats(order, new Set())!;
  return { pairings: bothOrders(round, meetings, first), bye };
}

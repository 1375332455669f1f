/**
 * Who plays whom. A match seats k players (the game's player count: 2 for most games, more for
 * an external game such as lowest-unique); a *table* is the k players who meet, and a pairing is
 * one game of a table, naming its players (by their index in the tournament's list) in seat
 * order. Its index, its place in the whole schedule, is what the results file records, so a
 * re-run knows what is done.
 *
 * Every format plays each table as k games, one per cyclic rotation of its seat order
 * (a b c, b c a, c a b), so each player sits in each seat equally often; for 2 players that is
 * the pair of games in both seat orders:
 * - round-robin, `rounds` N: every k-subset of the players is a table, N times over;
 * - gauntlet, `rounds` N: the first player with every (k-1)-subset of the others, N times over;
 * - swiss, `rounds` N: N rounds; each round seats players of equal or near score who have not met
 *   yet at tables of k (see swissRound), and the players left over sit the round out.
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
  /** Player indices, seat 0 first (k of them). */
  readonly seats: readonly number[];
}

/** Each table's k games, one per rotation of its seats, one table after the other, numbered from `first`. */
function everyRotation(round: number, tables: readonly (readonly number[])[], first: number): Pairing[] {
  let index = first;
  return tables.flatMap((table) => table.map((_, shift) => ({ index: index++, round, seats: [...table.slice(shift), ...table.slice(0, shift)] })));
}

/** The `size`-subsets of `items`, in lexicographic order of positions (nearest first). */
export function* subsets<T>(items: readonly T[], size: number): Generator<T[]> {
  const chosen: number[] = Array.from({ length: size }, (_, i) => i);
  if (size > items.length) return;
  for (;;) {
    yield chosen.map((i) => items[i]!);
    let slot = size - 1;
    while (slot >= 0 && chosen[slot] === items.length - size + slot) slot--;
    if (slot < 0) return;
    chosen[slot]!++;
    for (let next = slot + 1; next < size; next++) chosen[next] = chosen[next - 1]! + 1;
  }
}

/** n choose k, as a float (it only has to be compared with a limit). */
export function binomial(n: number, k: number): number {
  if (k < 0 || k > n) return 0;
  let result = 1;
  for (let i = 1; i <= k; i++) result = (result * (n - k + i)) / i;
  return Math.round(result);
}

const range = (from: number, to: number): number[] => Array.from({ length: Math.max(0, to - from) }, (_, i) => from + i);

/** Every table of `seatsPerMatch` players, `rounds` times, each in every rotation; each repetition complete before the next. */
export function roundRobin(players: number, rounds: number, seatsPerMatch = 2): Pairing[] {
  const tables = [...subsets(range(0, players), seatsPerMatch)];
  return Array.from({ length: rounds }, (_, round) => everyRotation(round, tables, round * seatsPerMatch * tables.length)).flat();
}

/** Player 0 at a table with each (k-1)-subset of the others, `rounds` times, in every rotation. */
export function gauntlet(players: number, rounds: number, seatsPerMatch = 2): Pairing[] {
  const tables = [...subsets(range(1, players), seatsPerMatch - 1)].map((others) => [0, ...others]);
  return Array.from({ length: rounds }, (_, round) => everyRotation(round, tables, round * seatsPerMatch * tables.length)).flat();
}

export interface SwissRound {
  readonly pairings: readonly Pairing[];
  /** The players who sit this round out (as many as the tables leave over), lowest-ranked first. */
  readonly sittingOut: readonly number[];
  /** The player who sits out when only one does (2-player tables and an odd number of players), or null. */
  readonly bye: number | null;
}

export interface SwissState {
  /** Each player's points so far (per game: opponents beaten, plus half the opponents tied, over k - 1). */
  readonly points: readonly number[];
  /** Pairs of players that met already, as `a-b` with a < b (meetingKey). */
  readonly met: ReadonlySet<string>;
  /** How many byes each player had. */
  readonly byes: readonly number[];
}

/** The key of the pair of players `a` and `b`, the same in either order. */
export function meetingKey(...pair: number[]): string {
  const [a, b] = pair as [number, number];
  return a < b ? `${a}-${b}` : `${b}-${a}`;
}

/** Every pair of players at a table, as meetingKeys. */
export function tableMeetings(table: readonly number[]): string[] {
  return [...subsets(table, 2)].map((pair) => meetingKey(...pair));
}

/** Beyond this many tries the search for tables without repeats gives up and allows them. */
const SEARCH_BUDGET = 100_000;

/**
 * Seats `order` (best first) at tables of `size` so that no two players at a table met before,
 * preferring players close in rank: the first unseated player takes the nearest `size - 1` others
 * it can sit with (in lexicographic order of rank, so the nearest first), backtracking when that
 * leaves the rest unseatable. Null when there is no such seating (or the search ran past its budget).
 */
function seatWithoutRepeats(order: readonly number[], size: number, met: ReadonlySet<string>): number[][] | null {
  let tries = 0;
  const search = (rest: readonly number[]): number[][] | null => {
    if (rest.length === 0) return [];
    if (++tries > SEARCH_BUDGET) return null;
    const [top, ...others] = rest as [number, ...number[]];
    for (const company of subsets(others, size - 1)) {
      const table = [top, ...company];
      if (tableMeetings(table).some((key) => met.has(key))) continue;
      const found = search(others.filter((player) => !company.includes(player)));
      if (found) return [table, ...found];
    }
    return null;
  };
  return search(order);
}

/**
 * Round `round` (from 0) of a swiss tournament at tables of `seatsPerMatch`, numbered from
 * `first`. Players are ranked by points, ties broken by a fixed order drawn from `seed`, so the
 * same seed and results give the same rounds (which is what lets a re-run find its place). When
 * the players do not fill whole tables, the remainder sit out (no game, no points): one at a time,
 * the lowest-ranked player among those with the fewest byes. Tables avoid players who met
 * already; when that is impossible (more rounds than opponents), repeats are allowed.
 */
export function swissRound(state: SwissState, round: number, seed: string, first: number, seatsPerMatch = 2): SwissRound {
  const players = state.points.length;
  const tieBreak = Random.fromSeed(`${seed}:swiss`).shuffle(range(0, players));
  const rankOf = new Map(tieBreak.map((player, rank) => [player, rank]));
  const order = [...tieBreak].sort((a, b) => state.points[b]! - state.points[a]! || rankOf.get(a)! - rankOf.get(b)!);
  const sittingOut: number[] = [];
  const byes = [...state.byes];
  while (order.length % seatsPerMatch !== 0) {
    const fewest = Math.min(...order.map((player) => byes[player]!));
    const out = [...order].reverse().find((player) => byes[player] === fewest)!;
    byes[out]!++;
    sittingOut.push(out);
    order.splice(order.indexOf(out), 1);
  }
  const tables = seatWithoutRepeats(order, seatsPerMatch, state.met) ?? seatWithoutRepeats(order, seatsPerMatch, new Set())!;
  return { pairings: everyRotation(round, tables, first), sittingOut, bye: sittingOut.length === 1 ? sittingOut[0]! : null };
}

import type { Random } from '../../match/random.js';

/** The four two-sided coins of one roll: 1 is a head (a marked tip), 0 a tail. */
export type Coin = 0 | 1;
export type Coins = readonly [Coin, Coin, Coin, Coin];

/** Where rolls come from: the match's seeded Random when serving, a script in tests. */
export interface DiceSource {
  roll(): Coins;
}

/** Cells a roll moves a token: the number of heads. */
export function rollValue(coins: Coins): number {
  return coins[0] + coins[1] + coins[2] + coins[3];
}

/** The wire form of a roll, `1 0 1 0`. */
export function formatCoins(coins: Coins): string {
  return coins.join(' ');
}

/** Chance of each roll value 0..4 with four fair coins (1, 4, 6, 4, 1 out of 16). */
export const ROLL_PROBABILITIES: readonly number[] = [1 / 16, 4 / 16, 6 / 16, 4 / 16, 1 / 16];

/** Four fair coins from the seeded source. */
export function randomDice(random: Random): DiceSource {
  return { roll: () => [random.bit(), random.bit(), random.bit(), random.bit()] };
}

/** Plays back the given rolls in order; running out is a bug in the test that scripted them. */
export function scriptedDice(rolls: readonly Coins[]): DiceSource {
  let next = 0;
  return {
    roll: () => {
      const coins = rolls[next++];
      if (!coins) throw new Error(`scripted dice ran out after ${rolls.length} rolls`);
      return coins;
    },
  };
}

/** Parses `1 0 1 0` (what players and spectators receive); null for anything else. */
export function parseCoins(line: string): Coins | null {
  const match = /^([01]) ([01]) ([01]) ([01])$/.exec(line.trim());
  if (!match) return null;
  return [Number(match[1]), Number(match[2]), Number(match[3]), Number(match[4])] as unknown as Coins;
}

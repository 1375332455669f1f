import { ROLL_PROBABILITIES } from './dice.js';
import {
  END,
  MAX_ROLL,
  START,
  applyMove,
  distinctMoves,
  isShared,
  opponent,
  passTurn,
  winner,
  type PlayerIndex,
  type RoyalUrState,
} from './rules.js';

/**
 * The server bot's choice: expectimax over the dice, `depth` turns deep (the bot's move, the
 * opponent's reply over its 5 possible rolls, the bot's next). At depth 3 a decision looks at a few
 * thousand positions at most (well under 10 ms), so it runs inline rather than on the compute pool.
 * Against a one-move rule-of-thumb player (like examples/royalur/bot.py) it wins about 62% of
 * games at depth 3 and 56% at depth 2; depth 4 costs about 15 times more for a small gain.
 */
export const DEFAULT_SEARCH_DEPTH = 3;

const WIN = 1000;
/** A token out is worth more than the 14 cells it walked: it can never be sent back again. */
const EXITED_VALUE = 18;
/** The shared rosette is safe and blocks the opponent's best square. */
const CENTRAL_ROSETTE = 8;
const CENTRAL_ROSETTE_BONUS = 4;
/**
 * Share of the cells at stake that a threatened token costs when the opponent rolls next. Tuned on
 * seeded games; a player about to roll can still run, and counting that too made the bot worse.
 */
const THREAT_WEIGHT = 0.5;

/** The token (lowest number among equivalent ones) the player to move should move with `roll`. */
export function chooseMove(state: RoyalUrState, roll: number, depth = DEFAULT_SEARCH_DEPTH): number | null {
  const me = state.toMove;
  let best: number | null = null;
  let bestValue = -Infinity;
  for (const token of distinctMoves(state, roll)) {
    const outcome = applyMove(state, token, roll);
    if (!outcome.ok) continue;
    const value = expected(outcome.value.state, me, depth - 1);
    if (value > bestValue) {
      bestValue = value;
      best = token;
    }
  }
  return best;
}

/** The value for `me` of a position whose player to move has not rolled yet. */
function expected(state: RoyalUrState, me: PlayerIndex, depth: number): number {
  const won = winner(state);
  if (won !== null) return won === me ? WIN : -WIN;
  if (depth <= 0) return evaluate(state, me);
  const maximize = state.toMove === me;
  let total = 0;
  for (let roll = 0; roll <= MAX_ROLL; roll++) {
    const moves = distinctMoves(state, roll);
    let value: number;
    if (moves.length === 0) {
      value = expected(passTurn(state), me, depth - 1);
    } else {
      value = maximize ? -Infinity : Infinity;
      for (const token of moves) {
        const outcome = applyMove(state, token, roll);
        if (!outcome.ok) continue;
        const child = expected(outcome.value.state, me, depth - 1);
        value = maximize ? Math.max(value, child) : Math.min(value, child);
      }
    }
    total += ROLL_PROBABILITIES[roll]! * value;
  }
  return total;
}

/** Static value of a position for `me`: progress, safety and the central rosette, mine minus theirs. */
export function evaluate(state: RoyalUrState, me: PlayerIndex): number {
  return sideValue(state, me) - sideValue(state, opponent(me));
}

function sideValue(state: RoyalUrState, player: PlayerIndex): number {
  const theirs = state.positions[opponent(player)];
  const exposed = state.toMove !== player;
  let value = 0;
  for (const position of state.positions[player]) {
    if (position === START) continue;
    if (position === END) {
      value += EXITED_VALUE;
      continue;
    }
    value += position;
    if (position === CENTRAL_ROSETTE) {
      value += CENTRAL_ROSETTE_BONUS;
    } else if (exposed && isShared(position)) {
      value -= THREAT_WEIGHT * hitChance(theirs, position) * position;
    }
  }
  return value;
}

/** Chance that the next roll lets some token of `attackers` land on `cell` (tracks share numbering there). */
function hitChance(attackers: readonly number[], cell: number): number {
  let chance = 0;
  for (let distance = 1; distance <= MAX_ROLL; distance++) {
    if (attackers.includes(cell - distance)) chance += ROLL_PROBABILITIES[distance]!;
  }
  return chance;
}

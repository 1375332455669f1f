import type { BotIO } from '../../match/game.js';
import { parseCoins, rollValue } from './dice.js';
import {
  applyMove,
  initialState,
  legalMoves,
  parseToken,
  passTurn,
  winner,
  type PlayerIndex,
  type RoyalUrState,
} from './rules.js';
import { DEFAULT_SEARCH_DEPTH, chooseMove } from './search.js';

/** How a program following the game picks its token: the state before the move, the roll. */
export type Chooser = (state: RoyalUrState, roll: number) => number | null;

/**
 * Follows a match from a player's stream, keeping the board in step with the server (rolls,
 * passes, rosettes, the opponent's moves) and asking `choose` for a token on its own turns. Stops
 * quietly at RETIRE, at the end of the stream, or on anything it does not understand.
 */
export async function followGame(io: BotIO, choose: Chooser): Promise<void> {
  const header = [await io.readLine(), await io.readLine(), await io.readLine()];
  if (header[2] == null) return;
  const index = header[2].trim();
  if (index !== '0' && index !== '1') return;
  const me: PlayerIndex = index === '0' ? 0 : 1;
  let state = initialState(0);
  while (winner(state) === null) {
    const line = await io.readLine();
    const coins = line === null ? null : parseCoins(line);
    if (!coins) return;
    const roll = rollValue(coins);
    if (legalMoves(state, roll).length === 0) {
      state = passTurn(state);
      continue;
    }
    let token: number;
    if (state.toMove === me) {
      const choice = choose(state, roll);
      if (choice === null) return;
      token = choice;
      io.write(`${token}\n`);
    } else {
      const answer = await io.readLine();
      const parsed = answer === null ? null : parseToken(answer);
      if (!parsed?.ok) return;
      token = parsed.value;
    }
    const outcome = applyMove(state, token, roll);
    if (!outcome.ok) return;
    state = outcome.value.state;
  }
}

/**
 * The server bot: moves by a small expectimax search (search.ts). It has no randomness of its own,
 * so a match is replayed exactly from the match seed.
 */
export function playRoyalUrBot(io: BotIO, depth = DEFAULT_SEARCH_DEPTH): Promise<void> {
  return followGame(io, (state, roll) => chooseMove(state, roll, depth));
}

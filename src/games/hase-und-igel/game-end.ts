import { GOAL_INDEX } from './board.js';
import { TURN_LIMIT, type Color, type GameState } from './rules.js';

/** How a game of Hase und Igel ends, as the 2018 server decides it. */

export const END_REASONS = ['goal', 'round-limit'] as const;
export type EndReason = (typeof END_REASONS)[number];

export interface WinCondition {
  readonly winner: Color;
  readonly reason: EndReason;
}

/** The server's texts for the two regular ends. */
export const END_MESSAGES: Readonly<Record<EndReason, string>> = {
  goal: 'Das Spiel ist beendet.\nEin Spieler ist im Ziel',
  'round-limit': 'Das Rundenlimit wurde erreicht.',
};

/**
 * Whether the game is over and who won. The goal is checked only after BLUE's moves (even turns),
 * so when RED reaches the goal BLUE still moves once; at turn 60 the game ends regardless.
 */
export function winCondition(state: GameState): WinCondition | null {
  if (state.turn % 2 === 0) {
    const inGoal = goalWinner(state);
    if (inGoal) return { winner: inGoal, reason: 'goal' };
  }
  if (state.turn < TURN_LIMIT) return null;
  const [red, blue] = state.players;
  if (red.index !== blue.index) return { winner: red.index > blue.index ? 'RED' : 'BLUE', reason: 'round-limit' };
  return { winner: red.carrots > blue.carrots ? 'BLUE' : 'RED', reason: 'round-limit' };
}

function goalWinner(state: GameState): Color | null {
  const [red, blue] = state.players;
  if (red.index === GOAL_INDEX) return blue.index === GOAL_INDEX && blue.carrots < red.carrots ? 'BLUE' : 'RED';
  return blue.index === GOAL_INDEX ? 'BLUE' : null;
}

export function isOver(state: GameState): boolean {
  return winCondition(state) !== null;
}

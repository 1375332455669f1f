import { GOAL_INDEX, type Board } from './board.js';
import {
  CARD_TYPES,
  EXCHANGE_VALUES,
  TAKE_OR_DROP_VALUES,
  moveableFields,
  performAction,
  type Action,
  type GameState,
  type Move,
  type PlayerState,
} from './rules.js';

/** Every card action that could be played as the action numbered `order`. */
function cardActions(order: number): Action[] {
  const actions: Action[] = [];
  for (const card of CARD_TYPES) {
    if (card === 'TAKE_OR_DROP_CARROTS') {
      for (const value of TAKE_OR_DROP_VALUES) actions.push({ type: 'card', order, card, value });
    } else {
      actions.push({ type: 'card', order, card, value: 0 });
    }
  }
  return actions;
}

function firstActions(me: PlayerState): Action[] {
  const actions: Action[] = [];
  const reach = Math.min(moveableFields(me.carrots), GOAL_INDEX - me.index);
  for (let distance = 1; distance <= reach; distance++) actions.push({ type: 'advance', order: 0, distance });
  actions.push({ type: 'fallBack', order: 0 }, { type: 'eatSalad', order: 0 });
  for (const value of EXCHANGE_VALUES) actions.push({ type: 'exchangeCarrots', order: 0, value });
  actions.push(...cardActions(0));
  return actions;
}

/**
 * Extends `prefix` (already performed, leaving `me`) into complete moves. A card can only follow
 * an action that entered a hare field, so a move goes on exactly while a card is owed.
 */
function extend(board: Board, me: PlayerState, other: PlayerState, prefix: Action[], out: Move[]): void {
  const candidates = prefix.length === 0 ? firstActions(me) : cardActions(prefix.length);
  for (const action of candidates) {
    const performed = performAction(board, me, other, action);
    if (!performed.ok) continue;
    const actions = [...prefix, action];
    if (performed.value.mustPlayCard) extend(board, performed.value, other, actions, out);
    else out.push({ actions, hints: [] });
  }
}

/**
 * All legal moves of the player to move, each as its list of actions numbered from 0; a lone skip
 * when nothing else is possible. Every move listed is accepted by performMove and no other is.
 */
export function legalMoves(state: GameState): Move[] {
  const mover = state.turn % 2;
  const me = state.players[mover]!;
  const other = state.players[1 - mover]!;
  const moves: Move[] = [];
  extend(state.board, me, other, [], moves);
  if (moves.length === 0) moves.push({ actions: [{ type: 'skip', order: 0 }], hints: [] });
  return moves;
}

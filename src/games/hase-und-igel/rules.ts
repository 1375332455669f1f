import { FIELD_COUNT, GOAL_INDEX, START_INDEX, type Board, type FieldType } from './board.js';
import { err, ok, type Result } from '../../util/result.js';

/**
 * The rules of Hase und Igel as the Software-Challenge 2018 server (release 18.2.6) applies them
 * (notes/hase-und-igel-2018.md); where the German user documentation says otherwise, the server wins.
 * Pure: no I/O, no clock, no randomness (the board is dealt in board.ts).
 */

export const COLORS = ['RED', 'BLUE'] as const;
export type Color = (typeof COLORS)[number];

export const CARD_TYPES = ['TAKE_OR_DROP_CARROTS', 'EAT_SALAD', 'HURRY_AHEAD', 'FALL_BACK'] as const;
export type CardType = (typeof CARD_TYPES)[number];

export const INITIAL_CARROTS = 68;
export const INITIAL_SALADS = 5;
export const ROUND_LIMIT = 30;
/** The game ends at the latest when this many moves were made (30 rounds of two moves). */
export const TURN_LIMIT = 2 * ROUND_LIMIT;
/** A player may enter the goal with at most this many carrots (the spec's "weniger als zehn" is wrong). */
export const GOAL_MAX_CARROTS = 10;
export const TAKE_OR_DROP_VALUES = [20, -20, 0] as const;
export const EXCHANGE_VALUES = [10, -10] as const;

/** One action of a move; `order` is its position in the move as the player numbered it. */
export type Action =
  | { readonly type: 'advance'; readonly order: number; readonly distance: number }
  | { readonly type: 'card'; readonly order: number; readonly card: CardType; readonly value: number }
  | { readonly type: 'exchangeCarrots'; readonly order: number; readonly value: number }
  | { readonly type: 'eatSalad'; readonly order: number }
  | { readonly type: 'fallBack'; readonly order: number }
  | { readonly type: 'skip'; readonly order: number };
export type ActionType = Action['type'];

export interface Move {
  readonly actions: readonly Action[];
  /** Debug hints the player attached; kept because the server echoes the move in `lastMove`. */
  readonly hints: readonly string[];
}

export interface PlayerState {
  readonly color: Color;
  readonly index: number;
  readonly carrots: number;
  readonly salads: number;
  readonly cards: readonly CardType[];
  readonly lastNonSkipAction: Action | null;
  /** Set while a move is being performed: the player stands on a newly entered hare field. */
  readonly mustPlayCard: boolean;
}

export interface GameState {
  readonly board: Board;
  /** Moves made so far; RED moves at even turns, BLUE at odd ones. */
  readonly turn: number;
  /** RED, BLUE. */
  readonly players: readonly [PlayerState, PlayerState];
  readonly lastMove: Move | null;
}

export type FieldOrInvalid = FieldType | 'INVALID';

export function newPlayer(color: Color): PlayerState {
  return {
    color,
    index: START_INDEX,
    carrots: INITIAL_CARROTS,
    salads: INITIAL_SALADS,
    cards: [...CARD_TYPES],
    lastNonSkipAction: null,
    mustPlayCard: false,
  };
}

export function initialState(board: Board): GameState {
  return { board, turn: 0, players: [newPlayer('RED'), newPlayer('BLUE')], lastMove: null };
}

export function currentColor(state: GameState): Color {
  return state.turn % 2 === 0 ? 'RED' : 'BLUE';
}

export function colorIndex(color: Color): 0 | 1 {
  return color === 'RED' ? 0 : 1;
}

export function opponentOf(color: Color): Color {
  return color === 'RED' ? 'BLUE' : 'RED';
}

export function playerOf(state: GameState, color: Color): PlayerState {
  return state.players[colorIndex(color)];
}

export function fieldAt(board: Board, index: number): FieldOrInvalid {
  return index >= 0 && index < FIELD_COUNT ? board[index]! : 'INVALID';
}

/** Carrots needed to advance `distance` fields: 1 + 2 + ... + distance. */
export function carrotCost(distance: number): number {
  return (distance * (distance + 1)) / 2;
}

/** How far `carrots` carrots can take a player (the server's formula, rounding quirk included). */
export function moveableFields(carrots: number): number {
  if (carrots >= 990) return 44;
  if (carrots < 1) return 0;
  return Math.trunc(Math.sqrt(2 * carrots + 0.25) - 0.48);
}

export function previousHedgehog(board: Board, index: number): number {
  for (let i = index - 1; i >= 0; i--) if (board[i] === 'HEDGEHOG') return i;
  return -1;
}

/** Both players may share the goal; any other field holds one player. */
export function isOccupied(me: PlayerState, other: PlayerState, index: number): boolean {
  return index !== GOAL_INDEX && (me.index === index || other.index === index);
}

/**
 * "First" in the server's sense: not behind the opponent (so both are first on the start field);
 * when both are in the goal, the one with fewer carrots. (Ties in the goal cannot matter: the game
 * is over before anyone moves again.)
 */
export function isFirst(me: PlayerState, other: PlayerState): boolean {
  if (me.index === GOAL_INDEX && other.index === GOAL_INDEX) return me.carrots <= other.carrots;
  return me.index >= other.index;
}

export function canEnterGoal(me: PlayerState): boolean {
  return me.carrots <= GOAL_MAX_CARROTS && me.salads === 0;
}

/** On a hedgehog or the start, or after eating a salad or a non-moving card, the player must move on. */
export function mustAdvance(board: Board, me: PlayerState): boolean {
  const field = board[me.index];
  if (field === 'HEDGEHOG' || field === 'START') return true;
  const last = me.lastNonSkipAction;
  if (last === null) return false;
  if (last.type === 'eatSalad') return true;
  return last.type === 'card' && (last.card === 'EAT_SALAD' || last.card === 'TAKE_OR_DROP_CARROTS');
}

/** Having just entered a salad field (by advancing or a moving card), the player must eat. */
export function mustEatSalad(board: Board, me: PlayerState): boolean {
  if (board[me.index] !== 'SALAD') return false;
  const last = me.lastNonSkipAction;
  if (last === null) return false;
  if (last.type === 'advance') return true;
  return last.type === 'card' && (last.card === 'FALL_BACK' || last.card === 'HURRY_AHEAD');
}

const withoutCard = (cards: readonly CardType[], card: CardType): CardType[] => cards.filter((c) => c !== card);

export function isValidToAdvance(board: Board, me: PlayerState, other: PlayerState, distance: number): boolean {
  if (distance <= 0 || mustEatSalad(board, me)) return false;
  const cost = carrotCost(distance);
  if (cost > me.carrots) return false;
  const target = me.index + distance;
  if (isOccupied(me, other, target)) return false;
  switch (fieldAt(board, target)) {
    case 'INVALID':
    case 'HEDGEHOG':
      return false;
    case 'SALAD':
      return me.salads > 0;
    case 'HARE':
      // Entering a hare field obliges a card: some card must be playable from there.
      return canPlayAnyCard(board, {
        ...me,
        index: target,
        carrots: me.carrots - cost,
        lastNonSkipAction: { type: 'advance', order: 0, distance },
      }, other);
    case 'GOAL':
      return me.carrots - cost <= GOAL_MAX_CARROTS && me.salads === 0;
    default:
      return true;
  }
}

export function isValidToFallBack(board: Board, me: PlayerState, other: PlayerState): boolean {
  if (mustEatSalad(board, me)) return false;
  const target = previousHedgehog(board, me.index);
  return target !== -1 && !isOccupied(me, other, target);
}

export function isValidToEatSalad(board: Board, me: PlayerState): boolean {
  return board[me.index] === 'SALAD' && me.salads > 0 && !mustAdvance(board, me);
}

export function isValidToExchangeCarrots(board: Board, me: PlayerState, value: number): boolean {
  if (board[me.index] !== 'CARROT') return false;
  if (value === 10) return true;
  return value === -10 && me.carrots >= 10;
}

function mayPlayCards(board: Board, me: PlayerState): boolean {
  return !mustAdvance(board, me) && board[me.index] === 'HARE';
}

export function isValidToPlayEatSalad(board: Board, me: PlayerState): boolean {
  return mayPlayCards(board, me) && me.cards.includes('EAT_SALAD') && me.salads > 0;
}

export function isValidToPlayTakeOrDropCarrots(board: Board, me: PlayerState, value: number): boolean {
  if (!mayPlayCards(board, me) || !me.cards.includes('TAKE_OR_DROP_CARROTS')) return false;
  if (value !== 20 && value !== -20 && value !== 0) return false;
  return value >= 0 || me.carrots + value >= 0;
}

export function isValidToPlayHurryAhead(board: Board, me: PlayerState, other: PlayerState): boolean {
  if (!mayPlayCards(board, me) || isFirst(me, other) || !me.cards.includes('HURRY_AHEAD')) return false;
  const target = other.index + 1;
  switch (fieldAt(board, target)) {
    case 'INVALID': // the opponent is in the goal
    case 'HEDGEHOG':
      return false;
    case 'SALAD':
      return me.salads > 0;
    case 'HARE':
      return canPlayCardAfter(board, me, other, 'HURRY_AHEAD', target);
    case 'GOAL':
      return canEnterGoal(me);
    default:
      return true;
  }
}

/**
 * A card that moves the player onto a hare field is only valid if another card can then be
 * played there (the player is on the field, without the card just played).
 */
function canPlayCardAfter(board: Board, me: PlayerState, other: PlayerState, card: 'HURRY_AHEAD' | 'FALL_BACK', target: number): boolean {
  return canPlayAnyCard(board, {
    ...me,
    index: target,
    lastNonSkipAction: { type: 'card', order: 0, card, value: 0 },
    cards: withoutCard(me.cards, card),
  }, other);
}

export function isValidToPlayFallBack(board: Board, me: PlayerState, other: PlayerState): boolean {
  if (!mayPlayCards(board, me) || !isFirst(me, other) || !me.cards.includes('FALL_BACK')) return false;
  const target = other.index - 1;
  if (target === START_INDEX) return false;
  switch (fieldAt(board, target)) {
    case 'INVALID':
    case 'HEDGEHOG':
    case 'GOAL':
      return false;
    case 'SALAD':
      return me.salads > 0;
    case 'HARE':
      return canPlayCardAfter(board, me, other, 'FALL_BACK', target);
    default:
      return true;
  }
}

/** Whether `card` may be played now; TAKE_OR_DROP_CARROTS is judged with `value`. */
export function isValidToPlayCard(board: Board, me: PlayerState, other: PlayerState, card: CardType, value = 20): boolean {
  switch (card) {
    case 'EAT_SALAD':
      return isValidToPlayEatSalad(board, me);
    case 'TAKE_OR_DROP_CARROTS':
      return isValidToPlayTakeOrDropCarrots(board, me, value);
    case 'HURRY_AHEAD':
      return isValidToPlayHurryAhead(board, me, other);
    case 'FALL_BACK':
      return isValidToPlayFallBack(board, me, other);
  }
}

export function canPlayAnyCard(board: Board, me: PlayerState, other: PlayerState): boolean {
  return me.cards.some((card) => isValidToPlayCard(board, me, other, card));
}

function canAdvanceAnywhere(board: Board, me: PlayerState, other: PlayerState): boolean {
  const reach = moveableFields(me.carrots);
  for (let distance = 1; distance <= reach; distance++) if (isValidToAdvance(board, me, other, distance)) return true;
  return false;
}

/** Skipping is allowed only when nothing else is. */
export function isValidToSkip(board: Board, me: PlayerState, other: PlayerState): boolean {
  return !(
    canPlayAnyCard(board, me, other) ||
    isValidToFallBack(board, me, other) ||
    isValidToExchangeCarrots(board, me, 10) ||
    isValidToExchangeCarrots(board, me, -10) ||
    isValidToEatSalad(board, me) ||
    canAdvanceAnywhere(board, me, other)
  );
}

/** The server's messages for rejected moves (German, as existing clients display them). */
export const MOVE_ERRORS = {
  noActions: 'Aktionen sind null',
  badOrder: 'Das order Attribut wurde nicht richtig gesetzt.',
  onlyCardsAfterFirst: 'Nach der ersten Aktion können nur noch Karten folgen.',
  cardOwed: 'Es muss eine Karte ausgespielt werden.',
  advance: (distance: number) => `Vorwärtszug um ${distance} Felder ist nicht möglich`,
  fallBack: 'Es kann gerade kein Rückzug gemacht werden.',
  eatSalad: 'Es kann gerade kein Salat (mehr) gegessen werden.',
  exchange: (value: number) => `Es können nicht ${value} Karotten aufgenommen werden.`,
  card: (card: CardType) => `Das Ausspielen der ${card} Karte ist nicht möglich.`,
  skip: 'Spieler kann noch einen anderen Zug ausführen, aussetzen ist nicht erlaubt.',
} as const;

/**
 * Performs one action for the player to move (`me`) and returns the player afterwards, or the
 * server's message when the action is not allowed now.
 */
export function performAction(board: Board, me: PlayerState, other: PlayerState, action: Action): Result<PlayerState> {
  switch (action.type) {
    case 'advance': {
      if (!isValidToAdvance(board, me, other, action.distance)) return err(MOVE_ERRORS.advance(action.distance));
      const index = me.index + action.distance;
      return ok({
        ...me,
        index,
        carrots: me.carrots - carrotCost(action.distance),
        mustPlayCard: board[index] === 'HARE',
        lastNonSkipAction: action,
      });
    }
    case 'fallBack': {
      if (!isValidToFallBack(board, me, other)) return err(MOVE_ERRORS.fallBack);
      const index = previousHedgehog(board, me.index);
      return ok({ ...me, index, carrots: me.carrots + 10 * (me.index - index), lastNonSkipAction: action });
    }
    case 'eatSalad': {
      if (!isValidToEatSalad(board, me)) return err(MOVE_ERRORS.eatSalad);
      // Eating on a salad field rewards being strictly ahead; the card below uses "first" (>=).
      const reward = me.index > other.index ? 10 : 30;
      return ok({ ...me, salads: me.salads - 1, carrots: me.carrots + reward, lastNonSkipAction: action });
    }
    case 'exchangeCarrots': {
      if (!isValidToExchangeCarrots(board, me, action.value)) return err(MOVE_ERRORS.exchange(action.value));
      return ok({ ...me, carrots: me.carrots + action.value, lastNonSkipAction: action });
    }
    case 'skip':
      return isValidToSkip(board, me, other) ? ok(me) : err(MOVE_ERRORS.skip);
    case 'card':
      return performCard(board, { ...me, mustPlayCard: false }, other, action);
  }
}

function performCard(
  board: Board,
  me: PlayerState,
  other: PlayerState,
  action: Extract<Action, { type: 'card' }>,
): Result<PlayerState> {
  if (!isValidToPlayCard(board, me, other, action.card, action.value)) return err(MOVE_ERRORS.card(action.card));
  let after: PlayerState;
  switch (action.card) {
    case 'EAT_SALAD':
      after = { ...me, salads: me.salads - 1, carrots: me.carrots + (isFirst(me, other) ? 10 : 30) };
      break;
    case 'TAKE_OR_DROP_CARROTS':
      after = { ...me, carrots: me.carrots + action.value };
      break;
    case 'HURRY_AHEAD':
    case 'FALL_BACK': {
      const index = other.index + (action.card === 'HURRY_AHEAD' ? 1 : -1);
      after = { ...me, index, mustPlayCard: board[index] === 'HARE' };
      break;
    }
  }
  return ok({ ...after, lastNonSkipAction: action, cards: withoutCard(me.cards, action.card) });
}

function isCard(action: Action): boolean {
  return action.type === 'card';
}

/** The actions in the order they are performed: by `order`, stable for equal orders. */
export function sortActions(actions: readonly Action[]): Action[] {
  return actions
    .map((action, position) => ({ action, position }))
    .sort((a, b) => a.action.order - b.action.order || a.position - b.position)
    .map((entry) => entry.action);
}

/**
 * What a move did on the server: the state after it, or the rule it broke with `partial`, the state
 * with the actions before the broken rule applied (the same turn, no bonus, no last move). The real
 * server performs the actions one by one on its state and keeps those that passed: the scores of
 * the result show them, and its goal check sees them.
 */
export type MoveOutcome = { readonly ok: true; readonly value: GameState } | { readonly ok: false; readonly error: string; readonly partial: GameState };

/**
 * Performs a whole move for the player to move: the actions sorted by `order`, which must then
 * count 0, 1, 2, ...; only cards may follow the first action; no card may be owed at the end.
 * Afterwards the turn passes and the player to move next gets its position bonus.
 */
export function performMove(state: GameState, move: Move): Result<GameState> {
  const outcome = playMove(state, move);
  return outcome.ok ? outcome : err(outcome.error);
}

/** As performMove, keeping the actions that passed when a later one breaks a rule (MoveOutcome). */
export function playMove(state: GameState, move: Move): MoveOutcome {
  const actions = sortActions(move.actions);
  const mover = state.turn % 2;
  let me = state.players[mover]!;
  const other = state.players[1 - mover]!;
  const broken = (error: string): MoveOutcome => ({
    ok: false,
    error,
    partial: { ...state, players: mover === 0 ? [me, other] : [other, me] },
  });
  if (actions.length === 0) return broken(MOVE_ERRORS.noActions);
  for (let i = 0; i < actions.length; i++) {
    const action = actions[i]!;
    if (action.order !== i) return broken(MOVE_ERRORS.badOrder);
    if (!isCard(action) && action.order !== 0) return broken(MOVE_ERRORS.onlyCardsAfterFirst);
    const performed = performAction(state.board, me, other, action);
    if (!performed.ok) return broken(performed.error);
    me = performed.value;
  }
  if (me.mustPlayCard) return broken(MOVE_ERRORS.cardOwed);
  const players: [PlayerState, PlayerState] = mover === 0 ? [me, other] : [other, me];
  const next = 1 - mover;
  players[next] = withPositionBonus(state.board, players[next]!, players[mover]!);
  return { ok: true, value: { board: state.board, turn: state.turn + 1, players, lastMove: { actions, hints: [...move.hints] } } };
}

/** Position fields pay the player about to move: 10 on POSITION_1 when first, 30 on POSITION_2 when second. */
function withPositionBonus(board: Board, next: PlayerState, mover: PlayerState): PlayerState {
  const field = board[next.index];
  if (field === 'POSITION_1' && isFirst(next, mover)) return { ...next, carrots: next.carrots + 10 };
  if (field === 'POSITION_2' && isFirst(mover, next)) return { ...next, carrots: next.carrots + 30 };
  return next;
}

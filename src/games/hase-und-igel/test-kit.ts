import { parseBoardCode, type FieldType } from './board.js';
import { newPlayer, type Action, type CardType, type GameState, type Move, type PlayerState } from './rules.js';

/**
 * Shared fixtures of the tests: a fixed dealt board and short constructors. The board, by index:
 *  0:S  1:H  2:C  3:1  4:2  5:H  6:C  7:C  8:C  9:H 10:L 11:I 12:H
 * 13:C 14:C 15:I 16:C 17:1 18:2 19:I 20:2 21:C 22:L 23:C 24:I 25:C
 * 26:2 27:H 28:C 29:C 30:I 31:H 32:C 33:1 34:2 35:H 36:C 37:I 38:H
 * 39:C 40:2 41:C 42:L 43:I 44:C 45:1 46:2 47:H 48:C 49:C 50:I 51:C
 * 52:C 53:2 54:C 55:H 56:I 57:L 58:H 59:1 60:H 61:C 62:C 63:C 64:G
 * (S start, C carrot, H hare, L salad, I hedgehog, 1/2 position fields, G goal)
 */
export const TEST_BOARD_CODE = 'SHC12HCCCHLIHCCIC12I2CLCIC2HCCIHC12HCIHC2CLIC12HCCICC2CHILH1HCCCG';

function parsed(code: string): FieldType[] {
  const board = parseBoardCode(code);
  if (!board.ok) throw new Error(`bad test board: ${board.error}`);
  return board.value;
}

export const TEST_BOARD: readonly FieldType[] = parsed(TEST_BOARD_CODE);

export function red(fields: Partial<PlayerState> = {}): PlayerState {
  return { ...newPlayer('RED'), ...fields };
}

export function blue(fields: Partial<PlayerState> = {}): PlayerState {
  return { ...newPlayer('BLUE'), ...fields };
}

/** A state on the test board; `turn` decides who moves (even: RED). */
export function stateOf(r: Partial<PlayerState>, b: Partial<PlayerState>, turn = 0): GameState {
  return { board: TEST_BOARD, turn, players: [red(r), blue(b)], lastMove: null };
}

export const advance = (distance: number, order = 0): Action => ({ type: 'advance', order, distance });
export const card = (type: CardType, order = 0, value = 0): Action => ({ type: 'card', order, card: type, value });
export const exchange = (value: number, order = 0): Action => ({ type: 'exchangeCarrots', order, value });
export const eatSalad = (order = 0): Action => ({ type: 'eatSalad', order });
export const fallBack = (order = 0): Action => ({ type: 'fallBack', order });
export const skip = (order = 0): Action => ({ type: 'skip', order });
export const move = (...actions: Action[]): Move => ({ actions, hints: [] });

/**
 * Static evaluation of a dama position for the search, in hundredths of a man, from the point of
 * view of `side`. Pure and allocation-free: it runs at every leaf.
 */
import { EMPTY, NEIGHBOUR, PLAYABLE_SQUARES, columnOf, rowOf, type Side } from './board.js';

export const MAN_VALUE = 100;
/** A king cannot be taken by men and moves both ways: worth well over two men in Italian play. */
export const KING_VALUE = 250;
/** Bonus for a man by rows advanced from its home row (a man on the last row is a king). */
const ADVANCE = [0, 2, 4, 7, 11, 16, 22, 0];
const CENTRE_MAN = 3;
const CENTRE_KING = 8;
/** A man on its home row keeps enemy men from being crowned there. */
const BACK_GUARD = 8;
const MOBILITY = 2;
/** Per square of distance between a king of the stronger side and the nearest enemy piece. */
const CHASE = 4;
/** Per piece gone from the board, for the stronger side: trading down when ahead wins. */
const TRADE = 3;

const pieceSquares = new Int8Array(24);
const pieceCodes = new Int8Array(24);

function isCentre(square: number): boolean {
  const row = rowOf(square);
  const column = columnOf(square);
  return row >= 2 && row <= 5 && column >= 2 && column <= 5;
}

/** Evaluation from White's point of view. */
export function evaluateWhite(board: Int8Array): number {
  let material = 0;
  let positional = 0;
  let whiteMen = 0;
  let blackMen = 0;
  let pieces = 0;
  let whiteSteps = 0;
  let blackSteps = 0;
  for (const square of PLAYABLE_SQUARES) {
    const piece = board[square]!;
    if (piece === EMPTY) continue;
    if (pieces < pieceSquares.length) {
      pieceSquares[pieces] = square;
      pieceCodes[pieces] = piece;
    }
    pieces++;
    const row = rowOf(square);
    if (piece === 1) {
      whiteMen++;
      material += MAN_VALUE;
      positional += ADVANCE[7 - row]!;
      if (isCentre(square)) positional += CENTRE_MAN;
      for (let d = 0; d < 2; d++) if (isFree(board, square, d)) whiteSteps++;
    } else if (piece === -1) {
      blackMen++;
      material -= MAN_VALUE;
      positional -= ADVANCE[row]!;
      if (isCentre(square)) positional -= CENTRE_MAN;
      for (let d = 2; d < 4; d++) if (isFree(board, square, d)) blackSteps++;
    } else if (piece === 2) {
      material += KING_VALUE;
      if (isCentre(square)) positional += CENTRE_KING;
      for (let d = 0; d < 4; d++) if (isFree(board, square, d)) whiteSteps++;
    } else {
      material -= KING_VALUE;
      if (isCentre(square)) positional -= CENTRE_KING;
      for (let d = 0; d < 4; d++) if (isFree(board, square, d)) blackSteps++;
    }
  }
  if (blackMen > 0) for (const square of [56, 58, 60, 62]) if (board[square] === 1) positional += BACK_GUARD;
  if (whiteMen > 0) for (const square of [1, 3, 5, 7]) if (board[square] === -1) positional -= BACK_GUARD;
  positional += MOBILITY * (whiteSteps - blackSteps);
  if (material !== 0) {
    const stronger = material > 0 ? 1 : -1;
    positional += stronger * TRADE * (24 - pieces);
    positional -= stronger * CHASE * chaseDistance(Math.min(pieces, pieceSquares.length), stronger);
  }
  return material + positional;
}

export function evaluate(board: Int8Array, side: Side): number {
  return side * evaluateWhite(board);
}

function isFree(board: Int8Array, square: number, direction: number): boolean {
  const to = NEIGHBOUR[square * 4 + direction]!;
  return to >= 0 && board[to] === EMPTY;
}

/** Sum over the stronger side's kings of the distance to the nearest enemy piece. */
function chaseDistance(count: number, stronger: number): number {
  let total = 0;
  for (let i = 0; i < count; i++) {
    if (pieceCodes[i] !== stronger * 2) continue;
    const square = pieceSquares[i]!;
    let nearest = 8;
    for (let j = 0; j < count; j++) {
      if (pieceCodes[j]! * stronger >= 0) continue;
      const other = pieceSquares[j]!;
      const distance = Math.max(Math.abs(rowOf(square) - rowOf(other)), Math.abs(columnOf(square) - columnOf(other)));
      if (distance < nearest) nearest = distance;
    }
    total += nearest;
  }
  return total;
}

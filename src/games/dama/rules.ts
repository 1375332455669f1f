/**
 * The rules of Italian draughts (dama), as a pure module.
 *
 * - Men move one square diagonally forward; kings one square diagonally in any direction.
 * - Capturing is compulsory: a man jumps forward over an adjacent enemy man, a king jumps over an
 *   adjacent enemy man or king in any direction; a man can never capture a king.
 * - A capture sequence must be completed: while the capturing piece can jump again, it must.
 *   A piece is jumped at most once and leaves the board when the sequence ends.
 * - A man reaching the far row becomes a king, and that ends its move (even mid-capture).
 * - Among the possible captures the Italian priorities choose, in this order: the most pieces
 *   captured; capturing with a king rather than a man; the most kings captured; the sequence that
 *   meets a king earliest. What is still tied is the player's choice.
 * - The side to move with no legal move (or no pieces) loses.
 * - Draw (this platform's rule): QUIET_MOVE_LIMIT moves by each side in a row without a capture
 *   and without a man moving.
 */
import {
  BOARD_SIZE,
  EMPTY,
  NEIGHBOUR,
  PLAYABLE_SQUARES,
  SQUARES,
  opponent,
  promotionRow,
  rowOf,
  sideOf,
  type Color,
  type Side,
} from './board.js';

/** Moves by each side (so twice as many plies) without capture or man move that draw the game. */
export const QUIET_MOVE_LIMIT = 40;
export const QUIET_PLY_LIMIT = QUIET_MOVE_LIMIT * 2;

/** A game position: plain data, so it crosses to a worker thread as it is. */
export interface Position {
  /** 64 piece codes (see board.ts), index row * 8 + column, row 0 = the top row `1`. */
  readonly board: readonly number[];
  readonly turn: Color;
  /** Plies played in a row without a capture and without a man moving. */
  readonly quietPlies: number;
}

/** One legal move: a step, or a whole capture sequence. Plain data, like Position. */
export interface Move {
  /** The squares the piece stands on, origin first: 2 for a step, 1 + captures for a capture. */
  readonly path: readonly number[];
  /** The squares of the captured pieces, in the order they are jumped. */
  readonly captured: readonly number[];
  /** The codes of the captured pieces, in the same order (to undo a move and to rank captures). */
  readonly capturedPieces: readonly number[];
  /** The code of the moving piece before the move. */
  readonly piece: number;
  readonly promotes: boolean;
}

export type Outcome =
  | { readonly kind: 'win'; readonly winner: Color; readonly reason: 'no-pieces' | 'no-moves' }
  | { readonly kind: 'draw'; readonly reason: 'quiet-moves' };

/** A captured piece stays on the board until the sequence ends: marked, it blocks but cannot be jumped again. */
const JUMPED = 9;
/** Longest possible capture: 12 pieces. */
const MAX_CAPTURES = 12;

const pathStack = new Int8Array(MAX_CAPTURES + 2);
const capturedStack = new Int8Array(MAX_CAPTURES + 1);
const capturedPieceStack = new Int8Array(MAX_CAPTURES + 1);

export function startPosition(): Position {
  const board = new Array<number>(SQUARES).fill(EMPTY);
  for (const square of PLAYABLE_SQUARES) {
    const row = rowOf(square);
    if (row < 3) board[square] = -1;
    else if (row >= BOARD_SIZE - 3) board[square] = 1;
  }
  return { board, turn: 'white', quietPlies: 0 };
}

/**
 * All legal moves of `side` on a mutable board (restored before returning): the captures that the
 * priorities allow if there is any capture, the steps otherwise. The fast path for search and perft.
 */
export function generateMoves(board: Int8Array, side: Side): Move[] {
  const captures = generateCaptures(board, side);
  if (captures.length > 0) return selectByPriority(captures);
  return generateSteps(board, side);
}

/** Plays `move` on a mutable board. */
export function makeMove(board: Int8Array, move: Move): void {
  board[move.path[0]!] = EMPTY;
  for (const square of move.captured) board[square] = EMPTY;
  board[move.path[move.path.length - 1]!] = move.promotes ? move.piece * 2 : move.piece;
}

/** Takes back `move` (the last move played on the board). */
export function unmakeMove(board: Int8Array, move: Move): void {
  board[move.path[move.path.length - 1]!] = EMPTY;
  move.captured.forEach((square, i) => {
    board[square] = move.capturedPieces[i]!;
  });
  board[move.path[0]!] = move.piece;
}

export function legalMoves(position: Position): Move[] {
  return generateMoves(Int8Array.from(position.board), sideOf(position.turn));
}

/** The position after `move` (which must be one of `legalMoves(position)`). */
export function applyMove(position: Position, move: Move): Position {
  const board = Int8Array.from(position.board);
  makeMove(board, move);
  const resets = move.captured.length > 0 || move.piece === 1 || move.piece === -1;
  // A loop, not Array.from: that one walks an iterator, an object per square.
  const after = new Array<number>(SQUARES);
  for (let square = 0; square < SQUARES; square++) after[square] = board[square]!;
  return { board: after, turn: opponent(position.turn), quietPlies: resets ? 0 : position.quietPlies + 1 };
}

/**
 * How the game stands: null while it goes on (`moves`: the position's legal moves, when known). A side left without moves loses even when the
 * quiet-move limit is reached by the same move.
 */
export function outcome(position: Position, moves?: readonly Move[]): Outcome | null {
  const side = sideOf(position.turn);
  const winner = opponent(position.turn);
  if (!position.board.some((piece) => piece * side > 0)) return { kind: 'win', winner, reason: 'no-pieces' };
  if ((moves ?? legalMoves(position)).length === 0) return { kind: 'win', winner, reason: 'no-moves' };
  if (position.quietPlies >= QUIET_PLY_LIMIT) return { kind: 'draw', reason: 'quiet-moves' };
  return null;
}

/** The legal move that visits exactly these squares, or null; `moves` are the position's legal moves, when known. */
export function findMove(position: Position, path: readonly number[], moves: readonly Move[] = legalMoves(position)): Move | null {
  return (
    moves.find(
      (move) => move.path.length === path.length && move.path.every((square, i) => square === path[i]),
    ) ?? null
  );
}

export function countPieces(position: Position, color: Color): { men: number; kings: number } {
  const side = sideOf(color);
  let men = 0;
  let kings = 0;
  for (const piece of position.board) {
    if (piece === side) men++;
    else if (piece === side * 2) kings++;
  }
  return { men, kings };
}

function directionRange(side: Side, king: boolean): [number, number] {
  if (king) return [0, 4];
  return side === 1 ? [0, 2] : [2, 4];
}

/** What a step captures: one frozen empty list for every step, not two new ones each (a step is most moves). */
const NOTHING_CAPTURED: readonly number[] = Object.freeze([]);

function generateSteps(board: Int8Array, side: Side): Move[] {
  const moves: Move[] = [];
  const lastRow = promotionRow(side);
  for (const from of PLAYABLE_SQUARES) {
    const piece = board[from]!;
    if (piece * side <= 0) continue;
    const king = piece === 2 || piece === -2;
    const [first, last] = directionRange(side, king);
    for (let d = first; d < last; d++) {
      const to = NEIGHBOUR[from * 4 + d]!;
      if (to < 0 || board[to] !== EMPTY) continue;
      moves.push({ path: [from, to], captured: NOTHING_CAPTURED, capturedPieces: NOTHING_CAPTURED, piece, promotes: !king && rowOf(to) === lastRow });
    }
  }
  return moves;
}

function generateCaptures(board: Int8Array, side: Side): Move[] {
  const moves: Move[] = [];
  for (const from of PLAYABLE_SQUARES) {
    const piece = board[from]!;
    if (piece * side <= 0) continue;
    // The moving piece leaves its square at once: a king may pass over it again mid-sequence.
    board[from] = EMPTY;
    pathStack[0] = from;
    jump(board, from, piece, side, piece === 2 || piece === -2, 1, 0, moves);
    board[from] = piece;
  }
  return moves;
}

function jump(board: Int8Array, at: number, piece: number, side: Side, king: boolean, steps: number, taken: number, out: Move[]): void {
  let extended = false;
  const [first, last] = directionRange(side, king);
  for (let d = first; d < last; d++) {
    const over = NEIGHBOUR[at * 4 + d]!;
    if (over < 0) continue;
    const victim = board[over]!;
    if (victim === EMPTY || victim === JUMPED || victim * side > 0) continue;
    if (!king && (victim === 2 || victim === -2)) continue;
    const land = NEIGHBOUR[over * 4 + d]!;
    if (land < 0 || board[land] !== EMPTY) continue;
    extended = true;
    board[over] = JUMPED;
    capturedStack[taken] = over;
    capturedPieceStack[taken] = victim;
    pathStack[steps] = land;
    if (!king && rowOf(land) === promotionRow(side)) record(piece, true, steps + 1, taken + 1, out);
    else jump(board, land, piece, side, king, steps + 1, taken + 1, out);
    board[over] = victim;
  }
  if (!extended && taken > 0) record(piece, false, steps, taken, out);
}

function record(piece: number, promotes: boolean, steps: number, taken: number, out: Move[]): void {
  out.push({
    path: Array.from(pathStack.subarray(0, steps)),
    captured: Array.from(capturedStack.subarray(0, taken)),
    capturedPieces: Array.from(capturedPieceStack.subarray(0, taken)),
    piece,
    promotes,
  });
}

/**
 * The Italian capture priorities as one comparable rank per capture: quantity, then capturing
 * piece, then kings captured, then how early the first king falls.
 */
export function captureRank(move: Move): readonly [number, number, number, number] {
  let kings = 0;
  let firstKing = -1;
  move.capturedPieces.forEach((piece, i) => {
    if (piece === 2 || piece === -2) {
      kings++;
      if (firstKing < 0) firstKing = i;
    }
  });
  const byKing = move.piece === 2 || move.piece === -2 ? 1 : 0;
  // Earlier is better, so the index is turned around; no king at all ranks lowest.
  return [move.captured.length, byKing, kings, firstKing < 0 ? 0 : MAX_CAPTURES - firstKing];
}

function selectByPriority(captures: Move[]): Move[] {
  if (captures.length === 1) return captures;
  const ranks = captures.map(captureRank);
  let best = ranks[0]!;
  for (const rank of ranks) if (compareRank(rank, best) > 0) best = rank;
  return captures.filter((_, i) => compareRank(ranks[i]!, best) === 0);
}

function compareRank(a: readonly number[], b: readonly number[]): number {
  for (let i = 0; i < a.length; i++) if (a[i] !== b[i]) return a[i]! - b[i]!;
  return 0;
}

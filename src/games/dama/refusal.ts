/**
 * Why a move line is refused, in the reference server's own words. The reference checks a path
 * square by square with simple geometry (it knows nothing of compulsory captures or priorities)
 * and names the first step it dislikes; programs written for it may read those messages, so the
 * refusal a player gets here is the one the reference would give. Where the reference would have
 * accepted a move that the Italian rules refuse (a capture not taken, a capture cut short), the
 * refusal is the reference's generic one.
 *
 * Pure: no I/O. The texts are in stream.ts; this module only classifies.
 */
import { err, ok, type Result } from '../../util/result.js';
import { EMPTY, columnOf, rowOf, sideOf, type Color } from './board.js';
import { parseMoveLine } from './notation.js';
import { findMove, type Move, type Position } from './rules.js';

/** Refusals that are about the line or the move as a whole. */
export type LineRefusalCode =
  /** Not a move line: not at least two squares of the form `6A` separated by spaces. */
  | 'line/syntax'
  /** The first square does not hold one of the mover's pieces. */
  | 'move/not-your-piece'
  /** A path the reference's checks let through but the Italian rules refuse. */
  | 'move/illegal';

/** Refusals that name the first step the reference objects to (`6A -> 5B`). */
export type StepRefusalCode =
  /** A step or jump that stays on its row. */
  | 'move/same-row'
  /** A one-row step (the whole move) that is not one column sideways. */
  | 'move/not-diagonal'
  /** A one-row step onto an occupied square. */
  | 'move/occupied'
  /** A man going backwards, more than two rows, or stepping within a longer path. */
  | 'move/man-rows'
  /** A king going more than two rows, or stepping within a longer path. */
  | 'move/king-rows'
  /** A two-row jump that is not two columns sideways or does not jump over a piece it may take. */
  | 'capture/not-diagonal'
  /** A two-row jump onto an occupied square. */
  | 'capture/occupied';

export type Refusal =
  | { readonly code: LineRefusalCode }
  | { readonly code: StepRefusalCode; readonly from: number; readonly to: number };

/**
 * The reference's objection to `path` (origin first) played by `color` on `board`, or null when
 * its checks pass. Every step is checked against the board as it stands before the move (the
 * reference does not lift jumped pieces or the moving piece while checking), from the square the
 * previous step reached.
 */
export function referenceObjection(board: readonly number[], color: Color, path: readonly number[]): Refusal | null {
  const side = sideOf(color);
  const piece = board[path[0]!]!;
  if (piece !== side && piece !== 2 * side) return { code: 'move/not-your-piece' };
  const king = piece === 2 * side;
  // White men go up the drawing (towards row 1), Black men down.
  const forward = -side;
  const single = path.length === 2;
  let from = path[0]!;
  for (const to of path.slice(1)) {
    const rows = rowOf(to) - rowOf(from);
    const columns = columnOf(to) - columnOf(from);
    const step = single && (king ? Math.abs(rows) === 1 : rows === forward);
    const jump = king ? Math.abs(rows) === 2 : rows === 2 * forward;
    if (step) {
      if (board[to] !== EMPTY) return { code: 'move/occupied', from, to };
      if (Math.abs(columns) !== 1) return { code: 'move/not-diagonal', from, to };
    } else if (jump) {
      const over = Math.abs(columns) === 2 ? board[(from + to) / 2]! : EMPTY;
      // A man takes only men; a king takes men and kings.
      const takeable = over === -side || (king && over === -2 * side);
      if (board[to] !== EMPTY) return { code: 'capture/occupied', from, to };
      if (!takeable) return { code: 'capture/not-diagonal', from, to };
    } else if (rows === 0) {
      return { code: 'move/same-row', from, to };
    } else {
      return { code: king ? 'move/king-rows' : 'move/man-rows', from, to };
    }
    from = to;
  }
  return null;
}

/**
 * A line from the player to move: the legal move it names, or why it is refused. A legal move is
 * always accepted, even where the reference would object (a king's capture that passes its own
 * starting square): the rules are this platform's, only the refusals are the reference's.
 */
export function judgeMoveLine(position: Position, line: string, moves?: readonly Move[]): Result<Move, Refusal> {
  const path = parseMoveLine(line);
  if (!path.ok) return err({ code: 'line/syntax' });
  const move = findMove(position, path.value, moves);
  if (move) return ok(move);
  return err(referenceObjection(position.board, position.turn, path.value) ?? { code: 'move/illegal' });
}

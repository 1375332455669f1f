import type { QuoridorBoard } from './board.js';

/**
 * Counts the move sequences of `depth` plies from the position (side to move first), the
 * standard oracle for move generators. A finished game has no moves.
 */
export function perft(board: QuoridorBoard, depth: number): number {
  if (depth <= 0) return 1;
  if (board.isOver()) return 0;
  const side = board.turn;
  if (depth === 1) return board.countLegalMoves(side);
  let total = 0;
  for (const move of board.legalMoves(side)) {
    board.play(side, move);
    total += perft(board, depth - 1);
    board.undo();
  }
  return total;
}

/**
 * Perft: the number of move sequences of a given length from a position, the standard check of a
 * move generator (and its speed). Captures that visit the same squares are one move, as on the wire.
 */
import type { Side } from './board.js';
import { generateMoves, makeMove, unmakeMove } from './rules.js';

export function perft(board: Int8Array, side: Side, depth: number): number {
  if (depth === 0) return 1;
  const moves = generateMoves(board, side);
  if (depth === 1) return moves.length;
  let total = 0;
  const next = -side as Side;
  for (const move of moves) {
    makeMove(board, move);
    total += perft(board, next, depth - 1);
    unmakeMove(board, move);
  }
  return total;
}

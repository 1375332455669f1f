/**
 * Hand-made positions for the dama tests, written as lists of squares (`6e`) per piece kind.
 * Not imported by the game itself.
 */
import { EMPTY, SQUARES, isPlayable, parseSquare, type Color } from './board.js';
import type { Position } from './rules.js';
import { formatMove } from './notation.js';
import { legalMoves } from './rules.js';

export interface Setup {
  /** White men, white kings, black men, black kings. */
  readonly b?: readonly string[];
  readonly B?: readonly string[];
  readonly n?: readonly string[];
  readonly N?: readonly string[];
}

const CODES = { b: 1, B: 2, n: -1, N: -2 } as const;

export function setup(pieces: Setup, turn: Color, quietPlies = 0): Position {
  const board = new Array<number>(SQUARES).fill(EMPTY);
  for (const kind of ['b', 'B', 'n', 'N'] as const) {
    for (const name of pieces[kind] ?? []) {
      const square = parseSquare(name);
      if (square === null || !isPlayable(square)) throw new Error(`not a playable square: ${name}`);
      if (board[square] !== EMPTY) throw new Error(`square used twice: ${name}`);
      board[square] = CODES[kind];
    }
  }
  return { board, turn, quietPlies };
}

/** The legal moves as sorted move lines, for readable assertions. */
export function moveLines(position: Position): string[] {
  return legalMoves(position).map(formatMove).sort();
}

/** The spec's start board as the stream draws it. */
export const START_DRAWING = `   A  B  C  D  E  F  G  H
1 [ ][n][ ][n][ ][n][ ][n] 1
2 [n][ ][n][ ][n][ ][n][ ] 2
3 [ ][n][ ][n][ ][n][ ][n] 3
4 [ ][ ][ ][ ][ ][ ][ ][ ] 4
5 [ ][ ][ ][ ][ ][ ][ ][ ] 5
6 [b][ ][b][ ][b][ ][b][ ] 6
7 [ ][b][ ][b][ ][b][ ][b] 7
8 [b][ ][b][ ][b][ ][b][ ] 8
   A  B  C  D  E  F  G  H`;

/** The spec's capture example board (black to move): 3d takes 4c and must go on over 6c. */
export const SPEC_CAPTURE_BOARD = `   A  B  C  D  E  F  G  H
1 [ ][n][ ][n][ ][n][ ][n] 1
2 [n][ ][n][ ][n][ ][n][ ] 2
3 [ ][ ][ ][n][ ][n][ ][ ] 3
4 [n][ ][b][ ][ ][ ][n][ ] 4
5 [ ][ ][ ][ ][ ][ ][ ][ ] 5
6 [b][ ][b][ ][b][ ][b][ ] 6
7 [ ][b][ ][ ][ ][b][ ][b] 7
8 [b][ ][b][ ][b][ ][b][ ] 8
   A  B  C  D  E  F  G  H`;

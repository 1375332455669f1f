/**
 * The vocabulary of Italian draughts (dama) on the board the Code Colosseum stream draws: rows 1-8
 * from top to bottom, columns A-H from left to right, pieces on the squares where row + column is
 * odd (B1, A2, ... A8). Black (`n`) starts on rows 1-3 and moves down; White (`b`) starts on rows
 * 6-8 and moves up, and moves first.
 *
 * A square is an index 0..63 = row * 8 + column, both counted from 0 (so `1A` is 0 and `8H` is 63).
 */
export const COLORS = ['white', 'black'] as const;
export type Color = (typeof COLORS)[number];

/** +1 for White, -1 for Black: the sign every piece code of that side carries. */
export type Side = 1 | -1;

export const EMPTY = 0;
export const WHITE_MAN = 1;
export const WHITE_KING = 2;
export const BLACK_MAN = -1;
export const BLACK_KING = -2;
export type PieceCode = typeof EMPTY | typeof WHITE_MAN | typeof WHITE_KING | typeof BLACK_MAN | typeof BLACK_KING;

export const BOARD_SIZE = 8;
export const SQUARES = BOARD_SIZE * BOARD_SIZE;

export function sideOf(color: Color): Side {
  return color === 'white' ? 1 : -1;
}

export function colorOf(side: Side): Color {
  return side === 1 ? 'white' : 'black';
}

export function opponent(color: Color): Color {
  return color === 'white' ? 'black' : 'white';
}

export function rowOf(square: number): number {
  return square >> 3;
}

export function columnOf(square: number): number {
  return square & 7;
}

export function squareAt(row: number, column: number): number {
  return row * BOARD_SIZE + column;
}

/** Whether pieces can stand on the square (the dark squares of the drawing). */
export function isPlayable(square: number): boolean {
  return ((rowOf(square) + columnOf(square)) & 1) === 1;
}

/** The row (0-based) where a man of `side` is promoted. */
export function promotionRow(side: Side): number {
  return side === 1 ? 0 : BOARD_SIZE - 1;
}

/** The four diagonal directions as [row step, column step]; men of White use 0-1, of Black 2-3. */
export const DIRECTIONS: readonly (readonly [number, number])[] = [
  [-1, -1],
  [-1, 1],
  [1, -1],
  [1, 1],
];

/**
 * NEIGHBOUR[square * 4 + direction]: the adjacent square in that direction, or -1 off the board.
 * A flat typed table, because move generation looks it up millions of times per second.
 */
export const NEIGHBOUR: Int8Array = (() => {
  const table = new Int8Array(SQUARES * 4).fill(-1);
  for (let square = 0; square < SQUARES; square++) {
    DIRECTIONS.forEach(([dr, dc], direction) => {
      const row = rowOf(square) + dr;
      const column = columnOf(square) + dc;
      if (row >= 0 && row < BOARD_SIZE && column >= 0 && column < BOARD_SIZE) {
        table[square * 4 + direction] = squareAt(row, column);
      }
    });
  }
  return table;
})();

/** The playable squares in index order (32 of them). */
export const PLAYABLE_SQUARES: readonly number[] = Array.from({ length: SQUARES }, (_, i) => i).filter(isPlayable);

/** `6e`-style name of a square: row digit then lower-case column letter. */
export function squareName(square: number): string {
  return `${rowOf(square) + 1}${String.fromCharCode(97 + columnOf(square))}`;
}

/** Parses `6e` or `6E` (row digit, column letter); null for anything else. */
export function parseSquare(text: string): number | null {
  const match = /^([1-8])([a-hA-H])$/.exec(text);
  if (!match) return null;
  return squareAt(Number(match[1]) - 1, match[2]!.toLowerCase().charCodeAt(0) - 97);
}

/**
 * Quoridor's vocabulary: board sizes, the two sides, wall orientations, and how a move is packed
 * into one integer so that move lists are plain number arrays (perft and search make millions).
 *
 * Squares are numbered `row * size + column`, row 0 being the bottom row (row "1" in QTP) and
 * column 0 the left column ("A"). A wall is named by its slot, the square north-west of its
 * centre: slot column 0..size-2, slot row 1..size-1 (QTP rows 2..size).
 */
export const COLORS = ['white', 'black'] as const;
export type Color = (typeof COLORS)[number];

/** 0 is white (starts on row 1, goes up), 1 is black (starts on the top row, goes down). */
export type Side = 0 | 1;
export const WHITE: Side = 0;
export const BLACK: Side = 1;
/** Black moves first. */
export const FIRST_SIDE: Side = BLACK;

export const ORIENTATIONS = ['horizontal', 'vertical'] as const;
export type Orientation = (typeof ORIENTATIONS)[number];
export const HORIZONTAL = 0;
export const VERTICAL = 1;

export const MIN_SIZE = 3;
/** QTP names columns with one letter and supports no board larger than 25. */
export const MAX_SIZE = 25;
export const DEFAULT_SIZE = 9;

export function other(side: Side): Side {
  return (1 - side) as Side;
}

export function sideColor(side: Side): Color {
  return COLORS[side];
}

export function colorSide(color: Color): Side {
  return color === 'white' ? WHITE : BLACK;
}

export function isValidSize(size: number): boolean {
  return Number.isInteger(size) && size >= MIN_SIZE && size <= MAX_SIZE && size % 2 === 1;
}

/**
 * The customary wall count for a board size: floor(7/4 * N - 23/4), truncated towards zero as the
 * reference referee does, so 3 x 3 gets 0 (3, 6, 10, 13 for N = 5, 7, 9, 11).
 */
export function defaultWalls(size: number): number {
  return Math.max(0, Math.trunc((7 / 4) * size - 23 / 4));
}

/** Moves: a pawn move is its target square; a wall is `size*size + slot*2 + orientation`. */
export type Move = number;

export function wallMove(size: number, slot: number, orientation: number): Move {
  return size * size + slot * 2 + orientation;
}

export function isWallMove(size: number, move: Move): boolean {
  return move >= size * size;
}

export function wallSlotOf(size: number, move: Move): number {
  return (move - size * size) >> 1;
}

export function wallOrientationOf(size: number, move: Move): number {
  return (move - size * size) & 1;
}

/** The slot of the wall whose north-west square is at (column, row), or -1 outside the range. */
export function slotAt(size: number, column: number, row: number): number {
  if (column < 0 || column > size - 2 || row < 1 || row > size - 1) return -1;
  return (row - 1) * (size - 1) + column;
}

export function slotColumn(size: number, slot: number): number {
  return slot % (size - 1);
}

export function slotRow(size: number, slot: number): number {
  return Math.floor(slot / (size - 1)) + 1;
}

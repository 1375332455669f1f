import { err, ok, type Result } from '../../util/result.js';
import type { QuoridorBoard } from './board.js';
import {
  COLORS,
  HORIZONTAL,
  ORIENTATIONS,
  VERTICAL,
  isWallMove,
  slotAt,
  slotColumn,
  slotRow,
  wallMove,
  wallOrientationOf,
  wallSlotOf,
  type Color,
  type Move,
  type Side,
} from './geometry.js';

/**
 * QTP's text forms: vertices `A1`..`Y25` (column letter from the left, row number from the
 * bottom, not case sensitive), colours `white`/`w`/`black`/`b`, orientations
 * `horizontal`/`h`/`vertical`/`v`. We read every spelling and write upper-case vertices and
 * full-word orientations, which every engine we know of accepts.
 */
export type NotationError = 'notation/bad-vertex' | 'notation/bad-color' | 'notation/bad-orientation' | 'notation/bad-move';

const VERTEX = /^([A-Za-z])(\d{1,2})$/;

export function formatVertex(column: number, row: number): string {
  return `${String.fromCharCode(65 + column)}${row + 1}`;
}

/** Column and row (0-based) of a vertex, or null when it is malformed or off a `size` board. */
export function parseVertex(text: string, size: number): { column: number; row: number } | null {
  const match = VERTEX.exec(text);
  if (!match) return null;
  const column = match[1]!.toUpperCase().charCodeAt(0) - 65;
  const row = Number(match[2]) - 1;
  if (column >= size || row < 0 || row >= size) return null;
  return { column, row };
}

/** Whether the text has the shape of a vertex, whatever the board size. */
export function looksLikeVertex(text: string): boolean {
  return VERTEX.test(text);
}

export function parseColor(text: string): Color | null {
  switch (text.toLowerCase()) {
    case 'white':
    case 'w':
      return 'white';
    case 'black':
    case 'b':
      return 'black';
    default:
      return null;
  }
}

export function parseOrientation(text: string): number | null {
  switch (text.toLowerCase()) {
    case 'horizontal':
    case 'h':
      return HORIZONTAL;
    case 'vertical':
    case 'v':
      return VERTICAL;
    default:
      return null;
  }
}

export function formatOrientation(orientation: number): (typeof ORIENTATIONS)[number] {
  return ORIENTATIONS[orientation === VERTICAL ? 1 : 0];
}

/** A move as QTP writes it after the colour: `E2` for the pawn, `E3 horizontal` for a wall. */
export function formatMove(size: number, move: Move): string {
  if (isWallMove(size, move)) {
    const slot = wallSlotOf(size, move);
    return `${formatVertex(slotColumn(size, slot), slotRow(size, slot))} ${formatOrientation(wallOrientationOf(size, move))}`;
  }
  return formatVertex(move % size, Math.floor(move / size));
}

/** The same with its colour, as in the spectator stream and `playmove`/`playwall`: `black E8`. */
export function formatColoredMove(size: number, side: Side, move: Move): string {
  return `${COLORS[side]} ${formatMove(size, move)}`;
}

/**
 * Reads a pawn target (`e2`) or a wall (`e3 h`), without judging legality. A vertex off the board
 * (or, for a wall, outside the wall range A..(N-1), 2..N) is a bad vertex.
 */
export function parseMove(size: number, words: readonly string[]): Result<Move, NotationError> {
  if (words.length < 1 || words.length > 2) return err('notation/bad-move');
  const vertex = parseVertex(words[0]!, size);
  if (!vertex) return err('notation/bad-vertex');
  if (words.length === 1) return ok(vertex.row * size + vertex.column);
  const orientation = parseOrientation(words[1]!);
  if (orientation === null) return err('notation/bad-orientation');
  const slot = slotAt(size, vertex.column, vertex.row);
  if (slot < 0) return err('notation/bad-vertex');
  return ok(wallMove(size, slot, orientation));
}

/** Parses and checks a move for `side` on `board`. */
export function parseLegalMove(board: QuoridorBoard, side: Side, words: readonly string[]): Result<Move, NotationError | 'move/illegal'> {
  const parsed = parseMove(board.size, words);
  if (!parsed.ok) return parsed;
  return board.isLegal(side, parsed.value) ? parsed : err('move/illegal');
}

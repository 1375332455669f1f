/**
 * The text forms of dama on the wire: the board drawing of the Code Colosseum stream and the move
 * line a player sends (`6e 5d`, `3d 5b 7d`).
 */
import { err, ok, type Result } from '../../util/result.js';
import { BOARD_SIZE, EMPTY, SQUARES, parseSquare, squareAt, squareName } from './board.js';
import type { Move } from './rules.js';

/** The column header and footer line of the drawing. */
export const COLUMN_LINE = '   A  B  C  D  E  F  G  H';

/** What each piece code is drawn as: men `b`/`n`, kings `B`/`N` (bianco/nero). */
const GLYPH: Readonly<Record<number, string>> = { 0: ' ', 1: 'b', 2: 'B', [-1]: 'n', [-2]: 'N' };
const CODE: Readonly<Record<string, number>> = { ' ': 0, b: 1, B: 2, n: -1, N: -2 };

/** The board drawing: header, rows 1-8 top to bottom, footer; 10 lines, no trailing newline. */
export function formatBoard(board: readonly number[]): string {
  const lines = [COLUMN_LINE];
  for (let row = 0; row < BOARD_SIZE; row++) {
    let line = `${row + 1} `;
    for (let column = 0; column < BOARD_SIZE; column++) line += `[${GLYPH[board[squareAt(row, column)]!] ?? '?'}]`;
    lines.push(`${line} ${row + 1}`);
  }
  lines.push(COLUMN_LINE);
  return lines.join('\n');
}

const ROW_LINE = /^([1-8]) ((?:\[[ bBnN]\]){8}) ([1-8])$/;

/** One row line of the drawing: its row index (0-based) and 8 piece codes; null if it is not one. */
export function parseBoardRow(line: string): { row: number; pieces: number[] } | null {
  const match = ROW_LINE.exec(line);
  if (!match || match[1] !== match[3]) return null;
  const pieces: number[] = [];
  for (let column = 0; column < BOARD_SIZE; column++) pieces.push(CODE[match[2]![column * 3 + 1]!]!);
  return { row: Number(match[1]) - 1, pieces };
}

/** A board from its drawing (the 8 row lines, with or without header and footer); for tests and tools. */
export function parseBoard(text: string): Result<number[], 'board/bad-drawing'> {
  const board = new Array<number>(SQUARES).fill(EMPTY);
  const seen = new Set<number>();
  for (const line of text.split('\n')) {
    const parsed = parseBoardRow(line.trimEnd());
    if (!parsed) continue;
    seen.add(parsed.row);
    parsed.pieces.forEach((piece, column) => {
      board[squareAt(parsed.row, column)] = piece;
    });
  }
  return seen.size === BOARD_SIZE ? ok(board) : err('board/bad-drawing');
}

export type MoveLineError = 'move/empty' | 'move/too-short' | 'move/bad-square';

/**
 * Bytes the reference server deletes from a move line before splitting it: CR, LF and TAB. A tab
 * therefore glues two squares into one word (`6A<TAB>5B` is refused), as on the real server.
 */
const DELETED = /[\r\n\t]/g;
/** One square as the reference reads it: exactly two bytes, row digit then column letter. */
const SQUARE_WORD = /^[1-8][a-hA-H]$/;

/**
 * The squares of a move line, read as the reference server reads it: CR, LF and TAB deleted, the
 * rest split on single spaces with the empty pieces dropped (so extra spaces are fine); every
 * piece must be a square (`6e`, `6E`) and there must be at least two.
 */
export function parseMoveLine(line: string): Result<number[], MoveLineError> {
  const words = line.replace(DELETED, '').split(' ').filter((word) => word.length > 0);
  if (words.length === 0) return err('move/empty');
  const squares: number[] = [];
  for (const word of words) {
    const square = SQUARE_WORD.test(word) ? parseSquare(word) : null;
    if (square === null) return err('move/bad-square');
    squares.push(square);
  }
  if (squares.length < 2) return err('move/too-short');
  return ok(squares);
}

/** A square as the stream names it in messages and echoes: `6A` (row digit, upper-case letter). */
export function squareLabel(square: number): string {
  return squareName(square).toUpperCase();
}

/** A move as a player writes it: `6e 5d`. */
export function formatMove(move: Move | readonly number[]): string {
  const path = Array.isArray(move) ? (move as readonly number[]) : (move as Move).path;
  return path.map(squareName).join(' ');
}

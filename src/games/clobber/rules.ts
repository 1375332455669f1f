import { err, ok, type Result } from '../../util/result.js';

/**
 * Clobber as the 2006 tournament plays it: an m x n board full of stones in a checkerboard
 * pattern, a1 black, black first; a move takes an orthogonally adjacent opponent stone; the
 * player to move with no move loses. Pure: no I/O, no clock, no randomness.
 */
export const COLORS = ['black', 'white'] as const;
export type Color = (typeof COLORS)[number];

/** Board sizes: columns are letters a..z, so 26 at most; a 1-wide board is degenerate. */
export const MIN_SIZE = 2;
export const MAX_SIZE = 26;
export const DEFAULT_COLUMNS = 10;
export const DEFAULT_ROWS = 10;

/** Cell codes in `Position.cells`. */
export const EMPTY = 0;
export const BLACK = 1;
export const WHITE = 2;
export type Cell = typeof EMPTY | typeof BLACK | typeof WHITE;

/** A square as an index: (row - 1) * columns + (column - 1), column and row counted from 1. */
export type Square = number;

export interface Move {
  readonly from: Square;
  readonly to: Square;
}

export interface Position {
  readonly columns: number;
  readonly rows: number;
  /** One cell code per square, row 1 first; never mutated once a position is built. */
  readonly cells: Uint8Array;
  readonly toMove: Color;
}

export type SetupError = 'setup/bad-size' | 'setup/bad-diagram';
export type MoveError =
  | 'move/off-board'
  | 'move/no-own-stone'
  | 'move/not-adjacent'
  | 'move/no-opponent-stone';

export function opponent(color: Color): Color {
  return color === 'black' ? 'white' : 'black';
}

export function cellOf(color: Color): Cell {
  return color === 'black' ? BLACK : WHITE;
}

/** The colour a square starts with: black where column + row is even (so a1 is black). */
export function startColor(column: number, row: number): Color {
  return (column + row) % 2 === 0 ? 'black' : 'white';
}

export function isValidSize(columns: number, rows: number): boolean {
  return [columns, rows].every((size) => Number.isInteger(size) && size >= MIN_SIZE && size <= MAX_SIZE);
}

/** The starting position: every square occupied, checkerboard colours, black to move. */
export function startPosition(columns = DEFAULT_COLUMNS, rows = DEFAULT_ROWS): Result<Position, SetupError> {
  if (!isValidSize(columns, rows)) return err('setup/bad-size');
  const cells = new Uint8Array(columns * rows);
  for (let row = 1; row <= rows; row++) {
    for (let column = 1; column <= columns; column++) {
      cells[(row - 1) * columns + column - 1] = cellOf(startColor(column, row));
    }
  }
  return ok({ columns, rows, cells, toMove: 'black' });
}

/**
 * A position from a diagram, for tests and tools: one string per row, the top row (row n) first,
 * `x` black, `o` white, `.` empty, spaces ignored.
 */
export function positionFromDiagram(diagram: readonly string[], toMove: Color): Result<Position, SetupError> {
  const lines = diagram.map((line) => line.replace(/\s+/g, ''));
  const rows = lines.length;
  const columns = lines[0]?.length ?? 0;
  if (!isValidSize(columns, rows)) return err('setup/bad-size');
  const cells = new Uint8Array(columns * rows);
  for (let i = 0; i < rows; i++) {
    const line = lines[i]!;
    if (line.length !== columns) return err('setup/bad-diagram');
    const row = rows - i;
    for (let c = 0; c < columns; c++) {
      const code = { x: BLACK, o: WHITE, '.': EMPTY }[line[c]!];
      if (code === undefined) return err('setup/bad-diagram');
      cells[(row - 1) * columns + c] = code;
    }
  }
  return ok({ columns, rows, cells, toMove });
}

/** The diagram of a position (inverse of positionFromDiagram). */
export function toDiagram(position: Position): string[] {
  const lines: string[] = [];
  for (let row = position.rows; row >= 1; row--) {
    let line = '';
    for (let c = 0; c < position.columns; c++) line += '.xo'[position.cells[(row - 1) * position.columns + c]!];
    lines.push(line);
  }
  return lines;
}

export function squareAt(position: Pick<Position, 'columns' | 'rows'>, column: number, row: number): Square | null {
  if (column < 1 || column > position.columns || row < 1 || row > position.rows) return null;
  return (row - 1) * position.columns + column - 1;
}

export function columnOf(position: Pick<Position, 'columns'>, square: Square): number {
  return (square % position.columns) + 1;
}

export function rowOf(position: Pick<Position, 'columns'>, square: Square): number {
  return Math.floor(square / position.columns) + 1;
}

export function stoneAt(position: Position, square: Square): Color | null {
  const cell = position.cells[square];
  return cell === BLACK ? 'black' : cell === WHITE ? 'white' : null;
}

/**
 * Calls `visit(from, to)` for each move of `color`, by `from` ascending, then towards the
 * square below, left, right, above. Stops early when `visit` returns true.
 */
function forEachMove(position: Position, color: Color, visit: (from: Square, to: Square) => boolean | void): void {
  const { columns, rows, cells } = position;
  const own = cellOf(color);
  const theirs = cellOf(opponent(color));
  const size = columns * rows;
  for (let from = 0; from < size; from++) {
    if (cells[from] !== own) continue;
    const column = from % columns;
    if (from >= columns && cells[from - columns] === theirs && visit(from, from - columns)) return;
    if (column > 0 && cells[from - 1] === theirs && visit(from, from - 1)) return;
    if (column < columns - 1 && cells[from + 1] === theirs && visit(from, from + 1)) return;
    if (from + columns < size && cells[from + columns] === theirs && visit(from, from + columns)) return;
  }
}

/** Every legal move of the player to move. */
export function legalMoves(position: Position): Move[] {
  const moves: Move[] = [];
  forEachMove(position, position.toMove, (from, to) => {
    moves.push({ from, to });
  });
  return moves;
}

/** How many moves `color` would have if it were to move (the mobility a bot weighs). */
export function countMoves(position: Position, color: Color): number {
  let count = 0;
  forEachMove(position, color, () => {
    count++;
  });
  return count;
}

export function hasLegalMove(position: Position): boolean {
  let found = false;
  forEachMove(position, position.toMove, () => (found = true));
  return found;
}

/** Whether `move` is legal for the player to move; the error code says which rule it breaks. */
export function checkMove(position: Position, move: Move): Result<Move, MoveError> {
  const size = position.columns * position.rows;
  const onBoard = (square: Square) => Number.isInteger(square) && square >= 0 && square < size;
  if (!onBoard(move.from) || !onBoard(move.to)) return err('move/off-board');
  if (position.cells[move.from] !== cellOf(position.toMove)) return err('move/no-own-stone');
  const dc = Math.abs(columnOf(position, move.from) - columnOf(position, move.to));
  const dr = Math.abs(rowOf(position, move.from) - rowOf(position, move.to));
  if (dc + dr !== 1) return err('move/not-adjacent');
  if (position.cells[move.to] !== cellOf(opponent(position.toMove))) return err('move/no-opponent-stone');
  return ok(move);
}

/** The position after a legal move: the stone leaves its square and replaces the stone it takes. */
export function apply(position: Position, move: Move): Position {
  const checked = checkMove(position, move);
  if (!checked.ok) throw new Error(`apply: illegal move ${move.from}-${move.to} (${checked.error})`);
  const cells = position.cells.slice();
  cells[move.to] = cells[move.from]!;
  cells[move.from] = EMPTY;
  return { columns: position.columns, rows: position.rows, cells, toMove: opponent(position.toMove) };
}

/** The winner once the game is over (the player to move has no move), otherwise null. */
export function winner(position: Position): Color | null {
  return hasLegalMove(position) ? null : opponent(position.toMove);
}

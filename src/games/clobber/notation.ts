import { err, ok, type Result } from '../../util/result.js';
import { columnOf, rowOf, squareAt, type Move, type Position, type Square } from './rules.js';

/**
 * The move syntax of the 2006 protocol: `c1 r1 c2 r2`, e.g. `a 1 b 1` for the stone on a1 taking
 * the stone on b1. The server writes exactly that (lower-case letter, decimal row, single
 * spaces); it reads it leniently: runs of spaces or tabs, surrounding blanks and upper-case
 * letters are accepted.
 */
export type NotationError = 'move/syntax' | 'move/off-board';

const MOVE_SYNTAX = /^[ \t]*([a-zA-Z])[ \t]+(\d{1,2})[ \t]+([a-zA-Z])[ \t]+(\d{1,2})[ \t]*$/;

export function columnLetter(column: number): string {
  return String.fromCharCode(96 + column);
}

export function squareName(position: Pick<Position, 'columns'>, square: Square): string {
  return `${columnLetter(columnOf(position, square))} ${rowOf(position, square)}`;
}

export function formatMove(position: Pick<Position, 'columns'>, move: Move): string {
  return `${squareName(position, move.from)} ${squareName(position, move.to)}`;
}

/** Reads a move; says nothing about legality (see checkMove), only that both squares exist. */
export function parseMove(text: string, position: Pick<Position, 'columns' | 'rows'>): Result<Move, NotationError> {
  const match = MOVE_SYNTAX.exec(text);
  if (!match) return err('move/syntax');
  const [, c1, r1, c2, r2] = match as unknown as [string, string, string, string, string];
  const from = squareAt(position, c1.toLowerCase().charCodeAt(0) - 96, Number(r1));
  const to = squareAt(position, c2.toLowerCase().charCodeAt(0) - 96, Number(r2));
  if (from === null || to === null) return err('move/off-board');
  return ok({ from, to });
}

/**
 * The first line a 2006 client sends, `play clobber <name>`. The game accepts and ignores it as a
 * player's first line; a TCP front door reads the name from it.
 */
const PLAY_LINE = /^[ \t]*play[ \t]+clobber(?:[ \t]+(\S+))?[ \t]*$/;

export function parsePlayLine(line: string): Result<{ readonly name: string | null }, 'hello/syntax'> {
  const match = PLAY_LINE.exec(line);
  return match ? ok({ name: match[1] ?? null }) : err('hello/syntax');
}

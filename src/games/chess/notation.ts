/**
 * The move syntax of the chess stream, as the reference server reads it: the line is trimmed, split
 * on single spaces, and the number of words says the form. Only the translation between these words
 * and chessops' moves lives here; whether a move is legal is chessops' call.
 *
 *     e2 e4                      a plain move (not a castling, en passant or promotion)
 *     enpassant e5 d6            an en passant capture
 *     promote h7 g8 queen        a promotion (queen, rook, bishop or knight)
 *     castle e1 g1 h1 f1         a castling: the king's squares, then the rook's
 *     RETIRE | DRAW              give up | offer a draw, or accept one
 */
import { Chess, normalizeMove } from 'chessops/chess';
import type { NormalMove, Role } from 'chessops/types';
import { makeSquare, makeUci, squareFile, squareRank } from 'chessops/util';

export type Command =
  | { readonly kind: 'retire' }
  | { readonly kind: 'draw' }
  | { readonly kind: 'move'; readonly words: readonly string[]; readonly move: NormalMove };

/** Why a line is not a legal command: recorded in the history, never sent (the stream just ends). */
export type Refusal = 'syntax' | 'illegal';

const PROMOTIONS: Readonly<Record<string, Role>> = { queen: 'queen', rook: 'rook', bishop: 'bishop', knight: 'knight' };

/** A square as the stream writes it: a lower-case file and a rank, `e4`. */
function square(word: string): number | null {
  if (!/^[a-h][1-8]$/.test(word)) return null;
  return (word.charCodeAt(0) - 97) + 8 * (word.charCodeAt(1) - 49);
}

/** Reads a line in the position; the move it names if it is legal in the form it was written. */
export function readCommand(position: Chess, line: string): { ok: true; value: Command } | { ok: false; error: Refusal } {
  const words = line.trim().split(' ');
  if (words.length === 1 && words[0] === 'RETIRE') return { ok: true, value: { kind: 'retire' } };
  if (words.length === 1 && words[0] === 'DRAW') return { ok: true, value: { kind: 'draw' } };
  const squares = (list: readonly string[]) => list.map(square);
  let move: NormalMove | null = null;
  let form: 'plain' | 'enpassant' | 'promote' | 'castle';
  if (words.length === 2) {
    form = 'plain';
    const [from, to] = squares(words);
    if (from === null || to === null) return { ok: false, error: 'syntax' };
    move = { from: from!, to: to! };
  } else if (words.length === 3 && words[0] === 'enpassant') {
    form = 'enpassant';
    const [from, to] = squares(words.slice(1));
    if (from === null || to === null) return { ok: false, error: 'syntax' };
    move = { from: from!, to: to! };
  } else if (words.length === 4 && words[0] === 'promote') {
    form = 'promote';
    const [from, to] = squares(words.slice(1, 3));
    const promotion = Object.hasOwn(PROMOTIONS, words[3]!) ? PROMOTIONS[words[3]!] : undefined;
    if (from === null || to === null || !promotion) return { ok: false, error: 'syntax' };
    move = { from: from!, to: to!, promotion };
  } else if (words.length === 5 && words[0] === 'castle') {
    form = 'castle';
    const [kingFrom, kingTo, rookFrom, rookTo] = squares(words.slice(1));
    if (kingFrom === null || kingTo === null || rookFrom === null || rookTo === null) return { ok: false, error: 'syntax' };
    // The stream names all four squares; they must be the standard castling's, the rook's included.
    const rank = squareRank(kingFrom!);
    const kingside = squareFile(kingTo!) === 6;
    const expected = [4, kingside ? 6 : 2, kingside ? 7 : 0, kingside ? 5 : 3].map((file) => file + 8 * rank);
    if (![kingFrom, kingTo, rookFrom, rookTo].every((sq, i) => sq === expected[i])) return { ok: false, error: 'illegal' };
    move = normalizeMove(position, { from: kingFrom!, to: kingTo! }) as NormalMove;
  } else {
    return { ok: false, error: 'syntax' };
  }
  if (!position.isLegal(move) || formOf(position, move) !== form) return { ok: false, error: 'illegal' };
  return { ok: true, value: { kind: 'move', words, move } };
}

/** Which of the stream's forms a legal move must be written in. */
export function formOf(position: Chess, move: NormalMove): 'plain' | 'enpassant' | 'promote' | 'castle' {
  const piece = position.board.get(move.from);
  if (piece?.role === 'king' && position.board.get(move.to)?.color === piece.color) return 'castle';
  if (move.promotion) return 'promote';
  if (piece?.role === 'pawn' && squareFile(move.from) !== squareFile(move.to) && !position.board.has(move.to)) return 'enpassant';
  return 'plain';
}

/** The line a player sends for a legal move (chessops' form: a castling is the king onto its rook). */
export function writeCommand(position: Chess, move: NormalMove): string {
  const from = makeSquare(move.from);
  const to = makeSquare(move.to);
  switch (formOf(position, move)) {
    case 'castle': {
      const rank = squareRank(move.from) + 1;
      return squareFile(move.to) > squareFile(move.from) ? `castle e${rank} g${rank} h${rank} f${rank}` : `castle e${rank} c${rank} a${rank} d${rank}`;
    }
    case 'promote':
      return `promote ${from} ${to} ${move.promotion}`;
    case 'enpassant':
      return `enpassant ${from} ${to}`;
    default:
      return `${from} ${to}`;
  }
}

/** The echo of an accepted move: every word of its line in angle brackets. */
export function echo(words: readonly string[]): string {
  return `OK ${words.map((word) => `<${word}>`).join(' ')}`;
}

/** The move an `OK <...>` echo reports, read back in the position before it (for players that follow the game). */
export function readEcho(position: Chess, line: string): NormalMove | null {
  if (!line.startsWith('OK ')) return null;
  const words = line.slice(3).split(' ').map((word) => word.slice(1, -1));
  const command = readCommand(position, words.join(' '));
  return command.ok && command.value.kind === 'move' ? command.value.move : null;
}

/** A legal move as UCI writes it: a castling is the king's two-square step (chessops has the king take its rook). */
export function standardUci(position: Chess, move: NormalMove): string {
  const to = formOf(position, move) === 'castle' ? (move.from & 56) + (squareFile(move.to) > squareFile(move.from) ? 6 : 2) : move.to;
  return makeUci({ ...move, to });
}

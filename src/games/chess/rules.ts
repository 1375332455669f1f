/**
 * The rules of chess, from chessops (the rules library behind lichess): the game adds only the
 * draws the library leaves to its caller, threefold repetition and the 50-move rule, both applied
 * at once rather than on a claim (no stream form exists for a claim).
 */
import { Chess } from 'chessops/chess';
import { makeFen } from 'chessops/fen';
import type { Color, NormalMove } from 'chessops/types';

export type Ending =
  | { readonly kind: 'checkmate'; readonly winner: Color }
  | { readonly kind: 'draw'; readonly why: 'STALEMATE' | 'REPETITION' | 'FIFTY-MOVES' | 'INSUFFICIENT-MATERIAL' };

/** A game in progress: the position and how often each position has occurred. */
export class ChessGame {
  readonly position: Chess;
  private readonly seen = new Map<string, number>();
  /** The current position's repetition key, made once per move (a FEN is most of a move's cost). */
  private key = '';

  constructor(position: Chess = Chess.default()) {
    this.position = position.clone();
    this.count();
  }

  play(move: NormalMove): void {
    this.position.play(move);
    this.count();
  }

  /** How the game ends in the current position, or null while the side to move has a move to make. */
  ending(): Ending | null {
    const position = this.position;
    // One context (checkers, pins) for both questions, instead of one each.
    const context = position.ctx();
    if (position.isCheckmate(context)) return { kind: 'checkmate', winner: position.turn === 'white' ? 'black' : 'white' };
    if (position.isStalemate(context)) return { kind: 'draw', why: 'STALEMATE' };
    if (position.isInsufficientMaterial()) return { kind: 'draw', why: 'INSUFFICIENT-MATERIAL' };
    if ((this.seen.get(this.key) ?? 0) >= 3) return { kind: 'draw', why: 'REPETITION' };
    if (position.halfmoves >= 100) return { kind: 'draw', why: 'FIFTY-MOVES' };
    return null;
  }

  private count(): void {
    this.key = positionKey(this.position);
    this.seen.set(this.key, (this.seen.get(this.key) ?? 0) + 1);
  }
}

/**
 * What makes two positions the same for repetition: pieces, side to move, castling rights and a
 * legal en passant square (the FEN without its move counters; chessops writes only a legal one).
 */
export function positionKey(position: Chess): string {
  return makeFen(position.toSetup()).split(' ').slice(0, 4).join(' ');
}

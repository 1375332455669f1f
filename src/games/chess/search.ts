/**
 * The chess server bot's search: negamax alpha-beta with iterative deepening, a quiescence search
 * of captures past the horizon, a transposition table, and move ordering by the table's move, the
 * value of what is captured, killer moves and a history table. Moves and rules come from chessops.
 *
 * `searchChess` is pure (moves from the start in, a move out; structured-clonable both ways), so
 * the server runs it on a worker thread through env.compute. Tests give it a node budget, which
 * makes it deterministic; serving gives it a time budget.
 */
import { Chess } from 'chessops/chess';
import type { NormalMove, Role } from 'chessops/types';
import { makeUci, parseUci } from 'chessops/util';

export interface SearchBudget {
  /** Stop after this many nodes (deterministic: for tests). */
  readonly maxNodes?: number;
  /** Stop after this many milliseconds (for serving). */
  readonly maxMillis?: number;
  /** Deepest iteration. */
  readonly maxDepth?: number;
}

export interface SearchResult {
  /** The chosen move in UCI form (a castling as the king onto its rook), or null with no legal move. */
  readonly uci: string | null;
  /** Centipawns for the side to move (MATE_SCORE - plies for a mate). */
  readonly score: number;
  /** Deepest iteration completed. */
  readonly depth: number;
  readonly nodes: number;
}

export const MATE_SCORE = 1_000_000;
const MAX_PLY = 64;
const DEFAULT_MAX_DEPTH = 32;
/** Nodes between two looks at the clock. */
const CLOCK_INTERVAL = 512;
/** Entries kept in the transposition table before it is cleared. */
const TABLE_LIMIT = 1 << 18;

const VALUE: Readonly<Record<Role, number>> = { pawn: 100, knight: 320, bishop: 330, rook: 500, queen: 900, king: 0 };

/**
 * Piece-square bonuses in centipawns, from White's side, rank 8 first (as a board is drawn). Pawns
 * advance and hold the centre; knights and bishops want the centre; the king stays home until the
 * endgame, when it walks to the centre.
 */
const TABLES: Readonly<Record<Role | 'kingEnd', readonly number[]>> = {
  pawn: board([
    [0, 0, 0, 0, 0, 0, 0, 0], [60, 60, 60, 60, 60, 60, 60, 60], [15, 15, 25, 35, 35, 25, 15, 15], [5, 5, 12, 28, 28, 12, 5, 5],
    [0, 0, 5, 22, 22, 5, 0, 0], [5, -2, -8, 2, 2, -8, -2, 5], [5, 10, 10, -18, -18, 10, 10, 5], [0, 0, 0, 0, 0, 0, 0, 0],
  ]),
  knight: board([
    [-50, -38, -30, -30, -30, -30, -38, -50], [-38, -18, 0, 2, 2, 0, -18, -38], [-30, 2, 12, 16, 16, 12, 2, -30], [-30, 5, 16, 22, 22, 16, 5, -30],
    [-30, 2, 16, 22, 22, 16, 2, -30], [-30, 5, 12, 16, 16, 12, 5, -30], [-38, -18, 2, 5, 5, 2, -18, -38], [-50, -38, -30, -30, -30, -30, -38, -50],
  ]),
  bishop: board([
    [-20, -10, -10, -10, -10, -10, -10, -20], [-10, 0, 0, 0, 0, 0, 0, -10], [-10, 0, 6, 10, 10, 6, 0, -10], [-10, 6, 6, 10, 10, 6, 6, -10],
    [-10, 0, 10, 10, 10, 10, 0, -10], [-10, 10, 10, 10, 10, 10, 10, -10], [-10, 6, 0, 0, 0, 0, 6, -10], [-20, -10, -12, -10, -10, -12, -10, -20],
  ]),
  rook: board([
    [0, 0, 0, 0, 0, 0, 0, 0], [6, 12, 12, 12, 12, 12, 12, 6], [-5, 0, 0, 0, 0, 0, 0, -5], [-5, 0, 0, 0, 0, 0, 0, -5],
    [-5, 0, 0, 0, 0, 0, 0, -5], [-5, 0, 0, 0, 0, 0, 0, -5], [-5, 0, 0, 0, 0, 0, 0, -5], [0, 0, 2, 6, 6, 2, 0, 0],
  ]),
  queen: board([
    [-20, -10, -10, -5, -5, -10, -10, -20], [-10, 0, 0, 0, 0, 0, 0, -10], [-10, 0, 5, 5, 5, 5, 0, -10], [-5, 0, 5, 5, 5, 5, 0, -5],
    [0, 0, 5, 5, 5, 5, 0, -5], [-10, 5, 5, 5, 5, 5, 0, -10], [-10, 0, 5, 0, 0, 0, 0, -10], [-20, -10, -10, -5, -5, -10, -10, -20],
  ]),
  king: board([
    [-30, -40, -40, -50, -50, -40, -40, -30], [-30, -40, -40, -50, -50, -40, -40, -30], [-30, -40, -40, -50, -50, -40, -40, -30], [-30, -40, -40, -50, -50, -40, -40, -30],
    [-20, -30, -30, -40, -40, -30, -30, -20], [-10, -20, -20, -20, -20, -20, -20, -10], [15, 15, -5, -5, -5, -5, 15, 15], [20, 30, 10, 0, 0, 10, 30, 20],
  ]),
  kingEnd: board([
    [-50, -40, -30, -20, -20, -30, -40, -50], [-30, -20, -10, 0, 0, -10, -20, -30], [-30, -10, 20, 30, 30, 20, -10, -30], [-30, -10, 30, 40, 40, 30, -10, -30],
    [-30, -10, 30, 40, 40, 30, -10, -30], [-30, -10, 20, 30, 30, 20, -10, -30], [-30, -30, 0, 0, 0, 0, -30, -30], [-50, -30, -30, -30, -30, -30, -30, -50],
  ]),
};

/** A table drawn rank 8 first, as chessops' square numbers (a1 = 0, h8 = 63). */
function board(ranks: number[][]): number[] {
  const out = new Array<number>(64);
  ranks.forEach((rank, i) => rank.forEach((value, file) => (out[(7 - i) * 8 + file] = value)));
  return out;
}

/** Static evaluation for the side to move, in centipawns. */
export function evaluate(position: Chess): number {
  const board = position.board;
  const queens = board.queen.size();
  const minorsAndRooks = board.knight.size() + board.bishop.size() + board.rook.size();
  const endgame = queens === 0 || (queens <= 2 && minorsAndRooks <= 2);
  let score = 0;
  for (const square of board.occupied) {
    const piece = board.get(square)!;
    const table = piece.role === 'king' && endgame ? TABLES.kingEnd : TABLES[piece.role];
    const index = piece.color === 'white' ? square : square ^ 56;
    const value = VALUE[piece.role] + table[index]!;
    score += piece.color === 'white' ? value : -value;
  }
  if (board.bishop.intersect(board.white).size() >= 2) score += 30;
  if (board.bishop.intersect(board.black).size() >= 2) score -= 30;
  return position.turn === 'white' ? score : -score;
}

/** Zobrist keys: one 32-bit pair per piece and square, plus side, castling and en passant. */
const KEYS = (() => {
  let state = 0x9e3779b9;
  const next = (): number => {
    // xorshift32: a fixed sequence, so keys (and searches) are the same in every run.
    state ^= state << 13;
    state ^= state >>> 17;
    state ^= state << 5;
    return state >>> 0;
  };
  const pieces = Array.from({ length: 12 * 64 * 2 }, next);
  return { pieces, turn: [next(), next()], castles: Array.from({ length: 64 * 2 }, next), ep: Array.from({ length: 64 * 2 }, next) };
})();
const PIECE_INDEX: Readonly<Record<Role, number>> = { pawn: 0, knight: 1, bishop: 2, rook: 3, queen: 4, king: 5 };

/** A 52-bit hash of the position (pieces, side, castling rights, en passant square). */
export function hashPosition(position: Chess): number {
  let high = 0;
  let low = 0;
  for (const square of position.board.occupied) {
    const piece = position.board.get(square)!;
    const i = ((PIECE_INDEX[piece.role] + (piece.color === 'white' ? 0 : 6)) * 64 + square) * 2;
    high ^= KEYS.pieces[i]!;
    low ^= KEYS.pieces[i + 1]!;
  }
  if (position.turn === 'black') {
    high ^= KEYS.turn[0]!;
    low ^= KEYS.turn[1]!;
  }
  for (const square of position.castles.castlingRights) {
    high ^= KEYS.castles[square * 2]!;
    low ^= KEYS.castles[square * 2 + 1]!;
  }
  if (position.epSquare !== undefined) {
    high ^= KEYS.ep[position.epSquare * 2]!;
    low ^= KEYS.ep[position.epSquare * 2 + 1]!;
  }
  return (high >>> 12) * 0x100000000 + (low >>> 0);
}

/** Every legal move; pawns reaching the last rank once per promotion piece, the queen first. */
export function legalMoves(position: Chess): NormalMove[] {
  const moves: NormalMove[] = [];
  const ctx = position.ctx();
  for (const [from, dests] of position.allDests(ctx)) {
    const pawn = position.board.pawn.has(from);
    for (const to of dests) {
      const rank = to >> 3;
      if (pawn && (rank === 0 || rank === 7)) {
        for (const promotion of ['queen', 'knight', 'rook', 'bishop'] as const) moves.push({ from, to, promotion });
      } else moves.push({ from, to });
    }
  }
  return moves;
}

function isCapture(position: Chess, move: NormalMove): boolean {
  const target = position.board.get(move.to);
  if (target) return target.color !== position.turn;
  return move.to === position.epSquare && position.board.pawn.has(move.from);
}

class Stop extends Error {}

interface Entry {
  readonly depth: number;
  readonly score: number;
  readonly bound: 'exact' | 'lower' | 'upper';
  readonly move: NormalMove | null;
}

class Searcher {
  nodes = 0;
  private readonly table = new Map<number, Entry>();
  private readonly killers: (NormalMove | null)[] = new Array(MAX_PLY * 2).fill(null);
  private readonly history = new Int32Array(64 * 64);
  private readonly deadline: number;
  private readonly maxNodes: number;
  private stoppable = false;

  /** `seen`: hashes of the positions before the root, for repetitions. */
  constructor(
    private readonly seen: number[],
    budget: SearchBudget,
  ) {
    this.deadline = budget.maxMillis === undefined ? Infinity : performance.now() + budget.maxMillis;
    this.maxNodes = budget.maxNodes ?? Infinity;
  }

  /** Once depth 1 is done, a spent budget stops the search by throwing. */
  private tick(): void {
    this.nodes++;
    if (!this.stoppable) return;
    if (this.nodes >= this.maxNodes || (this.nodes % CLOCK_INTERVAL === 0 && performance.now() >= this.deadline)) throw new Stop();
  }

  search(root: Chess, budget: SearchBudget): SearchResult {
    const moves = legalMoves(root);
    if (moves.length === 0) return { uci: null, score: 0, depth: 0, nodes: 0 };
    let best = moves[0]!;
    let bestScore = 0;
    let completed = 0;
    const rootHash = hashPosition(root);
    for (let depth = 1; depth <= (budget.maxDepth ?? DEFAULT_MAX_DEPTH); depth++) {
      try {
        const result = this.root(root, rootHash, moves, best, depth);
        best = result.move;
        bestScore = result.score;
        completed = depth;
        this.stoppable = true;
        if (Math.abs(bestScore) >= MATE_SCORE - MAX_PLY) break;
      } catch (error) {
        if (error instanceof Stop) break;
        throw error;
      }
    }
    return { uci: makeUci(best), score: bestScore, depth: completed, nodes: this.nodes };
  }

  private root(position: Chess, hash: number, moves: NormalMove[], first: NormalMove, depth: number): { move: NormalMove; score: number } {
    const ordered = [first, ...moves.filter((move) => move !== first)];
    let alpha = -MATE_SCORE - 1;
    let bestMove = first;
    this.seen.push(hash);
    try {
      for (const move of ordered) {
        const child = position.clone();
        child.play(move);
        const score = -this.negamax(child, depth - 1, 1, -MATE_SCORE - 1, -alpha);
        if (score > alpha) {
          alpha = score;
          bestMove = move;
        }
      }
    } finally {
      this.seen.pop();
    }
    return { move: bestMove, score: alpha };
  }

  private negamax(position: Chess, depth: number, ply: number, alpha: number, beta: number): number {
    this.tick();
    const hash = hashPosition(position);
    if (position.halfmoves >= 100 || this.repeated(hash, position.halfmoves)) return 0;
    const inCheck = position.isCheck();
    if (depth <= 0 && !inCheck) return this.quiesce(position, ply, alpha, beta);
    if (ply >= MAX_PLY) return evaluate(position);

    const entry = this.table.get(hash);
    if (entry && entry.depth >= depth) {
      if (entry.bound === 'exact') return entry.score;
      if (entry.bound === 'lower' && entry.score >= beta) return entry.score;
      if (entry.bound === 'upper' && entry.score <= alpha) return entry.score;
    }
    const moves = legalMoves(position);
    if (moves.length === 0) return inCheck ? -(MATE_SCORE - ply) : 0;
    if (position.isInsufficientMaterial()) return 0;
    this.order(position, moves, entry?.move ?? null, ply);

    const original = alpha;
    let best = -MATE_SCORE - 1;
    let bestMove: NormalMove | null = null;
    this.seen.push(hash);
    try {
      for (const move of moves) {
        const child = position.clone();
        child.play(move);
        const score = -this.negamax(child, depth - 1 + (inCheck ? 1 : 0), ply + 1, -beta, -alpha);
        if (score > best) {
          best = score;
          bestMove = move;
        }
        if (score > alpha) alpha = score;
        if (alpha >= beta) {
          if (!isCapture(position, move)) {
            this.killers[ply * 2 + 1] = this.killers[ply * 2] ?? null;
            this.killers[ply * 2] = move;
            this.history[move.from * 64 + move.to]! += depth * depth;
          }
          break;
        }
      }
    } finally {
      this.seen.pop();
    }
    if (this.table.size >= TABLE_LIMIT) this.table.clear();
    this.table.set(hash, { depth, score: best, bound: best <= original ? 'upper' : best >= beta ? 'lower' : 'exact', move: bestMove });
    return best;
  }

  /** Captures only, until the position is quiet; the side to move may always stand pat. */
  private quiesce(position: Chess, ply: number, alpha: number, beta: number): number {
    this.tick();
    const standing = evaluate(position);
    if (standing >= beta || ply >= MAX_PLY) return standing;
    if (standing > alpha) alpha = standing;
    const captures = legalMoves(position).filter((move) => isCapture(position, move) || move.promotion === 'queen');
    this.order(position, captures, null, ply);
    for (const move of captures) {
      const child = position.clone();
      child.play(move);
      const score = -this.quiesce(child, ply + 1, -beta, -alpha);
      if (score >= beta) return score;
      if (score > alpha) alpha = score;
    }
    return alpha;
  }

  /** A position seen before on the path or in the game, since the last capture or pawn move. */
  private repeated(hash: number, halfmoves: number): boolean {
    for (let i = this.seen.length - 2, back = 2; i >= 0 && back <= halfmoves; i -= 2, back += 2) {
      if (this.seen[i] === hash) return true;
    }
    return false;
  }

  private order(position: Chess, moves: NormalMove[], tableMove: NormalMove | null, ply: number): void {
    const score = (move: NormalMove): number => {
      if (tableMove && move.from === tableMove.from && move.to === tableMove.to && move.promotion === tableMove.promotion) return 1 << 30;
      if (move.promotion === 'queen') return 1 << 29;
      const victim = position.board.get(move.to);
      if (victim && victim.color !== position.turn) {
        return (1 << 28) + VALUE[victim.role] * 16 - VALUE[position.board.get(move.from)!.role] / 16;
      }
      const killers = [this.killers[ply * 2], this.killers[ply * 2 + 1]];
      if (killers.some((k) => k && k.from === move.from && k.to === move.to)) return 1 << 27;
      return this.history[move.from * 64 + move.to]!;
    };
    const keyed = moves.map((move) => ({ move, key: score(move) }));
    keyed.sort((a, b) => b.key - a.key);
    keyed.forEach(({ move }, i) => (moves[i] = move));
  }
}

/** Replays `moves` (UCI, from the start) and searches the position they reach. */
export function searchChess(moves: readonly string[], budget: SearchBudget): SearchResult {
  const position = Chess.default();
  const seen: number[] = [];
  for (const uci of moves) {
    const move = parseUci(uci);
    if (!move || !('from' in move) || !position.isLegal(move)) throw new Error(`illegal move in the game: ${uci}`);
    seen.push(hashPosition(position));
    position.play(move);
  }
  return new Searcher(seen, budget).search(position, budget);
}

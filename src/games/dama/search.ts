/**
 * The server bot's search: negamax alpha-beta with iterative deepening, captures searched past the
 * horizon (they are forced, so a leaf in the middle of an exchange would lie), and move ordering by
 * the previous iteration at the root, killer moves and a history table below it.
 *
 * `searchDama` is pure (position and budget in, move out; structured-clonable both ways), so the
 * server runs it on a worker thread through env.compute. Tests give it a node budget, which makes
 * it deterministic; serving gives it a time budget.
 */
import { sideOf, type Side } from './board.js';
import { evaluate } from './evaluate.js';
import { QUIET_PLY_LIMIT, generateMoves, makeMove, unmakeMove, type Move, type Position } from './rules.js';

export interface SearchBudget {
  /** Stop after this many nodes (deterministic: for tests). */
  readonly maxNodes?: number;
  /** Stop after this many milliseconds (for serving). */
  readonly maxMillis?: number;
  /** Deepest iteration. */
  readonly maxDepth?: number;
}

export interface SearchResult {
  /** The chosen move's squares, origin first; null when there is no legal move. */
  readonly path: number[] | null;
  /** Score of the chosen move for the side to move, hundredths of a man (WIN_SCORE - plies for a win). */
  readonly score: number;
  /** Deepest iteration completed. */
  readonly depth: number;
  readonly nodes: number;
}

export const WIN_SCORE = 1_000_000;
/** Hard limit on the search depth from the root (captures past the horizon included). */
const MAX_PLY = 96;
const DEFAULT_MAX_DEPTH = 64;
/** Nodes between two looks at the clock. */
const CLOCK_INTERVAL = 1024;

class Stop extends Error {}

class Searcher {
  nodes = 0;
  private readonly killers = new Int32Array(MAX_PLY * 2).fill(-1);
  private readonly history = new Int32Array(64 * 64);
  /** Scratch for ordering; a position has far fewer than 256 legal moves. */
  private readonly orderScores = new Int32Array(256);
  private readonly deadline: number;
  private readonly maxNodes: number;

  constructor(
    private readonly board: Int8Array,
    budget: SearchBudget,
  ) {
    this.deadline = budget.maxMillis === undefined ? Infinity : performance.now() + budget.maxMillis;
    this.maxNodes = budget.maxNodes ?? Infinity;
  }

  /** Whether the budget is spent; once depth 1 is done the search may be stopped by throwing. */
  private tick(): void {
    this.nodes++;
    if (this.nodes >= this.maxNodes) throw new Stop();
    if (this.nodes % CLOCK_INTERVAL === 0 && performance.now() >= this.deadline) throw new Stop();
  }

  /** Scores every root move to `depth`, best first; throws Stop when the budget runs out. */
  searchRoot(moves: Move[], side: Side, depth: number, quiet: number): { move: Move; score: number }[] {
    const scored: { move: Move; score: number }[] = [];
    let alpha = -Infinity;
    for (const move of moves) {
      makeMove(this.board, move);
      let score: number;
      try {
        score = -this.negamax(-side as Side, depth - 1, -Infinity, -alpha, 1, nextQuiet(move, quiet));
      } finally {
        unmakeMove(this.board, move);
      }
      scored.push({ move, score });
      if (score > alpha) alpha = score;
    }
    // Stable sort: among equal scores the earlier (better ordered) move stays first.
    return scored.sort((a, b) => b.score - a.score);
  }

  private negamax(side: Side, depth: number, alpha: number, beta: number, ply: number, quiet: number): number {
    this.tick();
    const moves = generateMoves(this.board, side);
    if (moves.length === 0) return -WIN_SCORE + ply;
    if (quiet >= QUIET_PLY_LIMIT) return 0;
    const capturing = moves[0]!.captured.length > 0;
    if ((depth <= 0 && !capturing) || ply >= MAX_PLY) return evaluate(this.board, side);
    if (moves.length > 1) this.order(moves, ply);
    let best = -Infinity;
    for (const move of moves) {
      makeMove(this.board, move);
      let score: number;
      try {
        score = -this.negamax(-side as Side, depth - 1, -beta, -Math.max(alpha, best), ply + 1, nextQuiet(move, quiet));
      } finally {
        unmakeMove(this.board, move);
      }
      if (score > best) {
        best = score;
        if (best >= beta) {
          if (!capturing) this.reward(move, ply, depth);
          break;
        }
      }
    }
    return best;
  }

  /** Best first: promotions, then the killers of this ply, then by history; an insertion sort (few moves). */
  private order(moves: Move[], ply: number): void {
    const killer0 = this.killers[ply * 2]!;
    const killer1 = this.killers[ply * 2 + 1]!;
    const scores = this.orderScores;
    for (let i = 0; i < moves.length; i++) {
      const move = moves[i]!;
      const key = moveKey(move);
      let value = this.history[key]!;
      if (move.promotes) value += 1 << 28;
      if (key === killer0) value += 1 << 27;
      else if (key === killer1) value += 1 << 26;
      let j = i;
      while (j > 0 && scores[j - 1]! < value) {
        scores[j] = scores[j - 1]!;
        moves[j] = moves[j - 1]!;
        j--;
      }
      scores[j] = value;
      moves[j] = move;
    }
  }

  private reward(move: Move, ply: number, depth: number): void {
    const key = moveKey(move);
    if (this.killers[ply * 2] !== key) {
      this.killers[ply * 2 + 1] = this.killers[ply * 2]!;
      this.killers[ply * 2] = key;
    }
    this.history[key] = Math.min(this.history[key]! + depth * depth, 1 << 24);
  }
}

function moveKey(move: Move): number {
  return move.path[0]! * 64 + move.path[1]!;
}

function nextQuiet(move: Move, quiet: number): number {
  return move.captured.length > 0 || move.piece === 1 || move.piece === -1 ? 0 : quiet + 1;
}

/** Chooses a move for the side to move of `position` within `budget`. */
export function searchDama(position: Position, budget: SearchBudget): SearchResult {
  const board = Int8Array.from(position.board);
  const side = sideOf(position.turn);
  let moves = generateMoves(board, side);
  if (moves.length === 0) return { path: null, score: -WIN_SCORE, depth: 0, nodes: 0 };
  if (moves.length === 1) return { path: [...moves[0]!.path], score: 0, depth: 0, nodes: 0 };
  const searcher = new Searcher(board, budget);
  const maxDepth = Math.min(budget.maxDepth ?? DEFAULT_MAX_DEPTH, MAX_PLY);
  let best: { move: Move; score: number } | null = null;
  let depth = 0;
  for (let target = 1; target <= maxDepth; target++) {
    try {
      const scored = searcher.searchRoot(moves, side, target, position.quietPlies);
      best = scored[0]!;
      depth = target;
      moves = scored.map((entry) => entry.move);
      if (Math.abs(best.score) > WIN_SCORE / 2) break;
    } catch (error) {
      if (!(error instanceof Stop)) throw error;
      // The budget ran out mid-iteration: the last complete iteration stands. If even depth 1 did
      // not finish (a budget too small to matter), fall back to the first move in order.
      break;
    }
  }
  const chosen = best ?? { move: moves[0]!, score: 0 };
  return { path: [...chosen.move.path], score: chosen.score, depth, nodes: searcher.nodes };
}

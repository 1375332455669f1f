import { performance } from 'node:perf_hooks';
import { Random } from '../../match/random.js';
import { QuoridorBoard, type BoardSnapshot } from './board.js';
import { MAX_SIZE, type Move, type Side } from './geometry.js';
import { DEFAULT_WEIGHTS, MoveGenerator, evaluatePosition, type EvalWeights, type ScoredMove } from './evaluation.js';

export { DEFAULT_WEIGHTS, MoveGenerator, evaluatePosition, type EvalWeights } from './evaluation.js';

/**
 * Our Quoridor engine's search: iterative deepening alpha-beta (principal variation search) with a
 * transposition table and killer moves, over the moves and evaluation of evaluation.ts.
 *
 * A position that repeats one of the game or of the line searched is scored as a small loss for the
 * searching side (contempt), so that engines facing each other behind their walls do not wait
 * forever. Budgets are a node count (deterministic, for tests) and/or a time limit (for play);
 * depth 1 always completes so there is always a move.
 */
export interface SearchBudget {
  /** Stop after about this many nodes. */
  readonly nodes?: number;
  /** Stop after about this many milliseconds. */
  readonly timeMs?: number;
  /** Deepest iteration (plies). */
  readonly maxDepth?: number;
}

export interface SearchReport {
  readonly move: Move;
  /** From the mover's point of view, in hundredths of a path step. */
  readonly score: number;
  /** Deepest completed iteration. */
  readonly depth: number;
  readonly nodes: number;
}

/** Scores: a win is worth WIN minus the plies to it; a decided race is worth less than any win. */
export const WIN = 1_000_000;
const WIN_THRESHOLD = WIN - 10_000;

const MAX_PLY = 64;
const DEFAULT_MAX_DEPTH = 32;
const TT_BITS = 18;
const TIME_CHECK_MASK = 31;

const EXACT = 1;
const LOWER = 2;
const UPPER = 3;

class SearchAborted extends Error {}

/**
 * Searches a position given as plain data (the entry point worker threads call). `history` holds
 * the keys (`positionKey`) of the positions the game went through before this one.
 */
export function searchMove(snapshot: BoardSnapshot, side: Side, budget: SearchBudget, seed: string, history: readonly number[] = []): SearchReport {
  return new Searcher(QuoridorBoard.fromSnapshot(snapshot), budget, seed, history).run(side);
}

/** Searches for `side`'s move; the board (and its history) is left as it was. The game must not be over. */
export function searchBoard(
  board: QuoridorBoard,
  side: Side,
  budget: SearchBudget,
  seed: string,
  weights: EvalWeights = DEFAULT_WEIGHTS,
  now?: () => number,
): SearchReport {
  return new Searcher(board.clone(), budget, seed, historyKeys(board), weights, now).run(side);
}

// Zobrist keys, two 32-bit halves: one indexes the table, the other verifies the entry.
const MAX_SQUARES = MAX_SIZE * MAX_SIZE;
const MAX_SLOTS = (MAX_SIZE - 1) * (MAX_SIZE - 1);
const KEYS = Random.fromSeed('quoridor-zobrist');
const PAWN_KEYS = Int32Array.from({ length: 4 * MAX_SQUARES }, () => KEYS.uint32() | 0);
const WALL_KEYS = Int32Array.from({ length: 4 * MAX_SLOTS }, () => KEYS.uint32() | 0);

function mix32(value: number): number {
  let h = value | 0;
  h = Math.imul(h ^ (h >>> 16), 0x85ebca6b);
  h = Math.imul(h ^ (h >>> 13), 0xc2b2ae35);
  return h ^ (h >>> 16);
}

/** The two hash halves of a position (side to move, pawns, walls, walls left). */
function hashHalves(board: QuoridorBoard): [number, number] {
  let key = mix32(board.turn + 1);
  let lock = mix32(board.turn + 7);
  key ^= PAWN_KEYS[board.pawns[0]!]!;
  lock ^= PAWN_KEYS[2 * MAX_SQUARES + board.pawns[0]!]!;
  key ^= PAWN_KEYS[MAX_SQUARES + board.pawns[1]!]!;
  lock ^= PAWN_KEYS[3 * MAX_SQUARES + board.pawns[1]!]!;
  const slots = board.slots;
  const count = slots.length;
  for (let slot = 0; slot < count; slot++) {
    const occupant = slots[slot]!;
    if (occupant === 0) continue;
    const index = slot * 2 + occupant - 1;
    key ^= WALL_KEYS[index]!;
    lock ^= WALL_KEYS[2 * MAX_SLOTS + index]!;
  }
  key ^= mix32(board.wallsLeft[0]! * 2 + 1000);
  lock ^= mix32(board.wallsLeft[1]! * 2 + 2001);
  return [key, lock];
}

/** A 53-bit key of the position, for repetition checks across calls. */
export function positionKey(board: QuoridorBoard): number {
  const [key, lock] = hashHalves(board);
  return (key >>> 0) * 0x200000 + (lock & 0x1fffff);
}

/** The keys of the positions before the current one, as far back as the board's history goes. */
export function historyKeys(board: QuoridorBoard): number[] {
  const copy = board.clone();
  const keys: number[] = [];
  while (copy.undo()) keys.push(positionKey(copy));
  return keys.reverse();
}

class Searcher {
  private readonly board: QuoridorBoard;
  private readonly size: number;
  private readonly random: Random;
  private readonly nodeLimit: number;
  private readonly deadline: number;
  private readonly maxDepth: number;
  private nodes = 0;
  private mayAbort = false;
  private rootSide: Side = 0;
  private readonly history: Set<number>;
  /** Keys of the positions on the line being searched, by ply. */
  private readonly line = new Float64Array(MAX_PLY + 1);
  private readonly ttKey: Int32Array;
  private readonly ttLock: Int32Array;
  private readonly ttDepth: Int8Array;
  private readonly ttFlag: Uint8Array;
  private readonly ttScore: Int32Array;
  private readonly ttMove: Int32Array;
  private readonly killers: Int32Array;
  private readonly generator: MoveGenerator;

  constructor(
    board: QuoridorBoard,
    budget: SearchBudget,
    seed: string,
    history: readonly number[],
    private readonly weights: EvalWeights = DEFAULT_WEIGHTS,
    /** Milliseconds for the time budget; a test passes a clock of its own to check the budget exactly. */
    private readonly now: () => number = () => performance.now(),
  ) {
    this.board = board;
    this.size = board.size;
    this.random = Random.fromSeed(seed);
    this.nodeLimit = budget.nodes ?? Number.POSITIVE_INFINITY;
    this.deadline = budget.timeMs === undefined ? Number.POSITIVE_INFINITY : this.now() + budget.timeMs;
    this.maxDepth = Math.min(budget.maxDepth ?? DEFAULT_MAX_DEPTH, MAX_PLY - 2);
    this.history = new Set(history);
    const entries = 1 << TT_BITS;
    this.ttKey = new Int32Array(entries);
    this.ttLock = new Int32Array(entries);
    this.ttDepth = new Int8Array(entries).fill(-1);
    this.ttFlag = new Uint8Array(entries);
    this.ttScore = new Int32Array(entries);
    this.ttMove = new Int32Array(entries).fill(-1);
    this.killers = new Int32Array(2 * MAX_PLY).fill(-1);
    this.generator = new MoveGenerator(board.size);
  }

  run(side: Side): SearchReport {
    const board = this.board;
    const rootHistory = board.moveCount;
    this.rootSide = side;
    this.line[0] = positionKey(board);
    const root = this.orderedMoves(side, -1, 0);
    // Equal moves are shuffled by the seed so that games differ; the sort below is stable.
    this.random.shuffle(root);
    root.sort((a, b) => b.key - a.key);
    let best = root[0]!.move;
    let bestScore = -WIN;
    let completed = 0;
    for (let depth = 1; depth <= this.maxDepth; depth++) {
      this.mayAbort = depth > 1;
      let alpha = -WIN - 1;
      let iterationBest = -1;
      let firstDone = false;
      try {
        for (let i = 0; i < root.length; i++) {
          const entry = root[i]!;
          board.play(side, entry.move);
          let score: number;
          if (i === 0) {
            score = -this.search(depth - 1, -WIN - 1, -alpha, 1);
          } else {
            score = -this.search(depth - 1, -alpha - 1, -alpha, 1);
            if (score > alpha) score = -this.search(depth - 1, -WIN - 1, -alpha, 1);
          }
          board.undo();
          entry.key = score;
          if (i === 0) firstDone = true;
          if (score > alpha) {
            alpha = score;
            iterationBest = i;
          }
        }
      } catch (error) {
        if (!(error instanceof SearchAborted)) throw error;
        while (board.moveCount > rootHistory) board.undo();
        // Moves searched completely before the stop beat the previous best (it was searched first).
        if (firstDone && iterationBest >= 0) {
          best = root[iterationBest]!.move;
          bestScore = alpha;
        }
        break;
      }
      best = root[iterationBest]!.move;
      bestScore = alpha;
      completed = depth;
      const chosen = root.splice(iterationBest, 1)[0]!;
      root.sort((a, b) => b.key - a.key);
      root.unshift(chosen);
      if (Math.abs(bestScore) >= WIN_THRESHOLD || root.length === 1) break;
    }
    return { move: best, score: bestScore, depth: completed, nodes: this.nodes };
  }

  private search(depth: number, alpha: number, beta: number, ply: number): number {
    this.nodes++;
    if (this.mayAbort && (this.nodes >= this.nodeLimit || ((this.nodes & TIME_CHECK_MASK) === 0 && this.now() > this.deadline))) {
      throw new SearchAborted();
    }
    const board = this.board;
    const side = board.turn;
    const winner = board.winner();
    if (winner !== null) return winner === side ? WIN - ply : -(WIN - ply);
    const [key, lock] = hashHalves(board);
    const full = (key >>> 0) * 0x200000 + (lock & 0x1fffff);
    if (this.isRepetition(full, ply)) return side === this.rootSide ? -this.weights.contempt : this.weights.contempt;
    if (depth <= 0 || ply >= MAX_PLY - 1) return this.evaluate(side);
    this.line[ply] = full;

    const slot = key & ((1 << TT_BITS) - 1);
    let ttMove = -1;
    if (this.ttLock[slot] === lock && this.ttKey[slot] === key) {
      ttMove = this.ttMove[slot]!;
      if (this.ttDepth[slot]! >= depth) {
        const stored = this.fromTable(this.ttScore[slot]!, ply);
        const flag = this.ttFlag[slot];
        if (flag === EXACT) return stored;
        if (flag === LOWER && stored >= beta) return stored;
        if (flag === UPPER && stored <= alpha) return stored;
      }
    }

    const moves = this.orderedMoves(side, ttMove, ply);
    moves.sort((a, b) => b.key - a.key);
    const originalAlpha = alpha;
    let best = -WIN - 1;
    let bestMove = -1;
    for (let i = 0; i < moves.length; i++) {
      const move = moves[i]!.move;
      board.play(side, move);
      let score: number;
      if (i === 0) {
        score = -this.search(depth - 1, -beta, -alpha, ply + 1);
      } else {
        score = -this.search(depth - 1, -alpha - 1, -alpha, ply + 1);
        if (score > alpha && score < beta) score = -this.search(depth - 1, -beta, -alpha, ply + 1);
      }
      board.undo();
      if (score > best) {
        best = score;
        bestMove = move;
      }
      if (score > alpha) alpha = score;
      if (alpha >= beta) {
        if (move >= this.size * this.size && this.killers[2 * ply] !== move) {
          this.killers[2 * ply + 1] = this.killers[2 * ply]!;
          this.killers[2 * ply] = move;
        }
        break;
      }
    }
    const flag = best <= originalAlpha ? UPPER : best >= beta ? LOWER : EXACT;
    if (this.ttDepth[slot]! <= depth || this.ttKey[slot] !== key) {
      this.ttKey[slot] = key;
      this.ttLock[slot] = lock;
      this.ttDepth[slot] = depth;
      this.ttFlag[slot] = flag;
      this.ttScore[slot] = this.toTable(best, ply);
      this.ttMove[slot] = bestMove;
    }
    return best;
  }

  /** Mate scores are stored relative to the node, so they stay right at another ply. */
  private toTable(score: number, ply: number): number {
    if (score >= WIN_THRESHOLD) return score + ply;
    if (score <= -WIN_THRESHOLD) return score - ply;
    return score;
  }

  private fromTable(score: number, ply: number): number {
    if (score >= WIN_THRESHOLD) return score - ply;
    if (score <= -WIN_THRESHOLD) return score + ply;
    return score;
  }

  /** Whether the position occurred earlier in the game or on the line searched (same side to move). */
  private isRepetition(full: number, ply: number): boolean {
    for (let earlier = ply - 2; earlier >= 0; earlier -= 2) if (this.line[earlier] === full) return true;
    return this.history.has(full);
  }

  private evaluate(side: Side): number {
    return evaluatePosition(this.board, side, this.weights);
  }

  /** The generator's moves with the table move and killers moved to the front. */
  private orderedMoves(side: Side, ttMove: number, ply: number): ScoredMove[] {
    const moves = this.generator.generate(this.board, side, this.weights);
    const killerA = this.killers[2 * ply];
    const killerB = this.killers[2 * ply + 1];
    for (const entry of moves) {
      if (entry.move === ttMove) entry.key += 1e9;
      else if (entry.move === killerA) entry.key += 1e6;
      else if (entry.move === killerB) entry.key += 1e6 - 1;
    }
    return moves;
  }
}

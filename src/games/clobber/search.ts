import { performance } from 'node:perf_hooks';
import { Random } from '../../match/random.js';
import { BLACK, EMPTY, WHITE, type Color } from './rules.js';

/**
 * The server bot's search: negamax alpha-beta with iterative deepening, killer moves for ordering,
 * and an evaluation by stone counts in the groups of touching stones still in play. A pure function of its request (the
 * time budget aside) so the server can run it on a worker thread; tests give it a node budget,
 * which makes it deterministic.
 */
export interface SearchRequest {
  readonly columns: number;
  readonly rows: number;
  /** Cell codes (0 empty, 1 black, 2 white), row 1 first, as in Position.cells. */
  readonly cells: ArrayLike<number>;
  readonly toMove: Color;
  /** Stop after about this many nodes. */
  readonly maxNodes?: number;
  /** Stop after about this many milliseconds (serving only: it makes the result depend on speed). */
  readonly maxMillis?: number;
  /** Breaks ties between equally good moves. */
  readonly seed: number | string;
}

export interface SearchReply {
  /** The chosen move as square indices, or null when the side to move has none. */
  readonly move: { readonly from: number; readonly to: number } | null;
  /** From the mover's side: above WIN_THRESHOLD a proven win, below -WIN_THRESHOLD a proven loss. */
  readonly score: number;
  /** The deepest iteration completed. */
  readonly depth: number;
  readonly nodes: number;
}

const WIN = 1_000_000;
export const WIN_THRESHOLD = WIN - 10_000;
/** Deepest iteration tried; a board has at most 26 * 26 stones, so no game is longer. */
const MAX_DEPTH = 700;
const TIME_CHECK_INTERVAL = 1024;

class OutOfBudget extends Error {}

/** Move lists are encoded as from * MOVE_BASE + to; squares are below 26 * 26 = 676. */
const MOVE_BASE = 1024;

class Searcher {
  private readonly cells: Uint8Array;
  private readonly size: number;
  /** Four neighbour squares per square, -1 off the board. */
  private readonly neighbours: Int16Array;
  private readonly moveLists: Int32Array[] = [];
  private readonly killers: Int32Array;
  nodes = 0;
  private readonly maxNodes: number;
  private readonly deadline: number;

  constructor(request: SearchRequest) {
    const { columns, rows } = request;
    this.size = columns * rows;
    this.cells = Uint8Array.from(request.cells);
    this.neighbours = new Int16Array(this.size * 4).fill(-1);
    for (let square = 0; square < this.size; square++) {
      const column = square % columns;
      const base = square * 4;
      if (square >= columns) this.neighbours[base] = square - columns;
      if (column > 0) this.neighbours[base + 1] = square - 1;
      if (column < columns - 1) this.neighbours[base + 2] = square + 1;
      if (square + columns < this.size) this.neighbours[base + 3] = square + columns;
    }
    this.reachedIn = new Int32Array(this.size);
    this.stack = new Int32Array(this.size);
    this.killers = new Int32Array((MAX_DEPTH + 2) * 2).fill(-1);
    this.maxNodes = request.maxNodes ?? Number.POSITIVE_INFINITY;
    this.deadline = request.maxMillis === undefined ? Number.POSITIVE_INFINITY : performance.now() + request.maxMillis;
  }

  /** Writes the moves of `own` into the list for `ply`; returns how many. */
  generate(own: number, ply: number): number {
    let list = this.moveLists[ply];
    if (!list) {
      list = new Int32Array(this.size * 4);
      this.moveLists[ply] = list;
    }
    const theirs = 3 - own;
    const { cells, neighbours, size } = this;
    let count = 0;
    for (let from = 0; from < size; from++) {
      if (cells[from] !== own) continue;
      const base = from * 4;
      for (let k = 0; k < 4; k++) {
        const to = neighbours[base + k]!;
        if (to >= 0 && cells[to] === theirs) list[count++] = from * MOVE_BASE + to;
      }
    }
    return count;
  }

  list(ply: number): Int32Array {
    return this.moveLists[ply]!;
  }

  /** Per square, the flood-fill pass that last reached it (so no clearing between passes). */
  private readonly reachedIn: Int32Array;
  private readonly stack: Int32Array;
  private pass = 0;

  /**
   * The evaluation, from `own`'s side: over each group of touching stones that holds both
   * colours, own stones minus opponent stones. Move counts cannot serve (every capture one player
   * can make, the other can make the other way round, so both always have as many moves); stone
   * counts can: in `x x o` black wins whoever starts, in `x o` whoever moves wins, and groups of
   * one colour are dead.
   */
  private evaluate(own: number): number {
    const { cells, neighbours, size, reachedIn, stack } = this;
    const pass = ++this.pass;
    let total = 0;
    for (let start = 0; start < size; start++) {
      if (cells[start] === EMPTY || reachedIn[start] === pass) continue;
      let top = 0;
      stack[top++] = start;
      reachedIn[start] = pass;
      let mine = 0;
      let other = 0;
      while (top > 0) {
        const square = stack[--top]!;
        if (cells[square] === own) mine++;
        else other++;
        const base = square * 4;
        for (let k = 0; k < 4; k++) {
          const next = neighbours[base + k]!;
          if (next >= 0 && cells[next] !== EMPTY && reachedIn[next] !== pass) {
            reachedIn[next] = pass;
            stack[top++] = next;
          }
        }
      }
      if (mine > 0 && other > 0) total += mine - other;
    }
    return total;
  }

  private tick(): void {
    this.nodes++;
    if (this.nodes >= this.maxNodes) throw new OutOfBudget();
    if (this.nodes % TIME_CHECK_INTERVAL === 0 && performance.now() >= this.deadline) throw new OutOfBudget();
  }

  negamax(own: number, depth: number, alpha: number, beta: number, ply: number): number {
    this.tick();
    const count = this.generate(own, ply);
    if (count === 0) return -WIN + ply;
    if (depth === 0) return this.evaluate(own);
    const list = this.list(ply);
    // Killer moves first: a move that refuted a sibling often refutes here too.
    for (let slot = 0, front = 0; slot < 2; slot++) {
      const killer = this.killers[ply * 2 + slot]!;
      for (let i = front; i < count; i++) {
        if (list[i] === killer) {
          list[i] = list[front]!;
          list[front++] = killer;
          break;
        }
      }
    }
    const theirs = 3 - own;
    const { cells } = this;
    let best = -Infinity;
    for (let i = 0; i < count; i++) {
      const encoded = list[i]!;
      const from = (encoded / MOVE_BASE) | 0;
      const to = encoded - from * MOVE_BASE;
      // No try/finally: when the budget runs out the board is abandoned with the searcher.
      cells[to] = own;
      cells[from] = EMPTY;
      const score = -this.negamax(theirs, depth - 1, -beta, -alpha, ply + 1);
      cells[from] = own;
      cells[to] = theirs;
      if (score > best) best = score;
      if (score > alpha) alpha = score;
      if (alpha >= beta) {
        if (this.killers[ply * 2] !== encoded) {
          this.killers[ply * 2 + 1] = this.killers[ply * 2]!;
          this.killers[ply * 2] = encoded;
        }
        break;
      }
    }
    return best;
  }

  /** The score of one root move for the side to move, searched `depth` plies deep in total. */
  playAndScore(own: number, encoded: number, depth: number, alpha: number, beta: number): number {
    const from = (encoded / MOVE_BASE) | 0;
    const to = encoded - from * MOVE_BASE;
    const theirs = 3 - own;
    this.cells[to] = own;
    this.cells[from] = EMPTY;
    const score = -this.negamax(theirs, depth - 1, -beta, -alpha, 1);
    this.cells[from] = own;
    this.cells[to] = theirs;
    return score;
  }
}

/** Chooses a move for the side to move within the node and/or time budget. */
export function searchClobber(request: SearchRequest): SearchReply {
  const searcher = new Searcher(request);
  const own = request.toMove === 'black' ? BLACK : WHITE;
  const count = searcher.generate(own, 0);
  if (count === 0) return { move: null, score: -WIN, depth: 0, nodes: 0 };
  // Root moves in a seeded random order, so that equal scores do not always pick the same move.
  const root = Random.fromSeed(request.seed).shuffle(Array.from(searcher.list(0).subarray(0, count)));
  let bestMove = root[0]!;
  let bestScore = -Infinity;
  let completed = 0;
  let alpha = -Infinity;
  let iterationBest = root[0]!;
  try {
    for (let depth = 1; depth <= MAX_DEPTH; depth++) {
      alpha = -Infinity;
      iterationBest = root[0]!;
      for (const encoded of root) {
        const score = searcher.playAndScore(own, encoded, depth, alpha, Infinity);
        if (score > alpha) {
          alpha = score;
          iterationBest = encoded;
        }
      }
      bestMove = iterationBest;
      bestScore = alpha;
      completed = depth;
      // The best move first in the next iteration gives the tightest window soonest.
      root.splice(root.indexOf(bestMove), 1);
      root.unshift(bestMove);
      if (Math.abs(bestScore) >= WIN_THRESHOLD) break;
    }
  } catch (error) {
    if (!(error instanceof OutOfBudget)) throw error;
    // The unfinished iteration searched the previous best move first with a full window, so a
    // move that beat it there is better at the deeper depth.
    if (alpha > -Infinity && iterationBest !== bestMove) {
      bestMove = iterationBest;
      bestScore = alpha;
    }
  }
  const from = (bestMove / MOVE_BASE) | 0;
  return {
    move: { from, to: bestMove - from * MOVE_BASE },
    score: completed === 0 ? 0 : bestScore,
    depth: completed,
    nodes: searcher.nodes,
  };
}

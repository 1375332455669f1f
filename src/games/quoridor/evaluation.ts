import type { QuoridorBoard } from './board.js';
import { HORIZONTAL, VERTICAL, other, slotAt, wallMove, type Move, type Side } from './geometry.js';

/**
 * What the search knows about Quoridor: the evaluation (shortest-path difference, walls in hand,
 * tempo, races decided once a side has no walls) and which moves are worth trying.
 */
export const PATH_WEIGHT = 100;
/** A race nobody can stop any more is worth this much (less than any win). */
const RACE_DECIDED = 20_000;

/** The evaluation's tunable weights, in hundredths of a path step (tuned by self-play, see bench). */
export interface EvalWeights {
  /** Value of a wall in hand. */
  readonly wall: number;
  /**
   * Value of a wall in hand once the opponent has none left: nothing can answer it any more, and
   * each such wall lengthens the opponent's way by a step or two.
   */
  readonly unanswered: number;
  /** The side to move is about half a step ahead in a race. */
  readonly tempo: number;
  /**
   * What the searching side gives up by repeating a position: engines facing each other behind
   * their walls would otherwise both wait forever; with contempt the searching side looks for a
   * way forward unless it is clearly worse.
   */
  readonly contempt: number;
}

export const DEFAULT_WEIGHTS: EvalWeights = { wall: 90, unanswered: 150, tempo: 50, contempt: 100 };

/** The position's value for `side`, who is to move, in hundredths of a path step. */
export function evaluatePosition(board: QuoridorBoard, side: Side, weights: EvalWeights = DEFAULT_WEIGHTS): number {
  const opponent = other(side);
  const mine = board.distance(side);
  const theirs = board.distance(opponent);
  const myWalls = board.wallsLeft[side]!;
  const theirWalls = board.wallsLeft[opponent]!;
  const myWallValue = theirWalls === 0 ? weights.unanswered : weights.wall;
  const theirWallValue = myWalls === 0 ? weights.unanswered : weights.wall;
  let score = PATH_WEIGHT * (theirs - mine) + myWallValue * Math.min(myWalls, 10) - theirWallValue * Math.min(theirWalls, 10) + weights.tempo;
  // With no walls left to stop a runner, the race is decided by the distances alone.
  if (theirWalls === 0 && mine <= theirs) score += RACE_DECIDED;
  else if (myWalls === 0 && theirs < mine) score -= RACE_DECIDED;
  return score;
}

export interface ScoredMove {
  readonly move: Move;
  /** Ordering key, higher first. */
  key: number;
}

/**
 * The moves worth trying for a side: every pawn move, and the walls that lengthen the opponent's
 * shortest path (only a wall cutting an edge of the path found can do that), each with an
 * ordering key. Keeps scratch space for one board size.
 */
export class MoveGenerator {
  private readonly candidateStamp: Int32Array;
  private stamp = 0;
  private readonly targets = new Int32Array(8);

  constructor(private readonly size: number) {
    this.candidateStamp = new Int32Array(2 * (size - 1) * (size - 1));
  }

  generate(board: QuoridorBoard, side: Side, weights: EvalWeights = DEFAULT_WEIGHTS): ScoredMove[] {
    const size = this.size;
    const opponent = other(side);
    const moves: ScoredMove[] = [];
    const mine = board.distance(side);
    const goal = board.goalRow(side);
    const count = board.pawnTargets(side, this.targets);
    for (let i = 0; i < count; i++) {
      const target = this.targets[i]!;
      const after = Math.floor(target / size) === goal ? 0 : board.distanceFrom(target, goal);
      moves.push({ move: target, key: after === 0 ? 1e8 : PATH_WEIGHT * (mine - after) });
    }
    if (board.wallsLeft[side]! <= 0) return moves;
    const theirs = board.distance(opponent);
    const stamp = ++this.stamp;
    let from = board.pawns[opponent]!;
    for (const to of board.shortestPath(opponent)) {
      for (const wall of this.wallsCutting(from, to)) {
        if (this.candidateStamp[wall] === stamp) continue;
        this.candidateStamp[wall] = stamp;
        const slot = wall >> 1;
        const orientation = wall & 1;
        if (!board.wallFits(slot, orientation)) continue;
        const mayCut = board.wallMayCut(slot, orientation);
        const move = wallMove(size, slot, orientation);
        board.play(side, move);
        const longer = board.distance(opponent);
        const legal = longer >= 0 && (!mayCut || board.hasPath(side));
        board.undo();
        if (!legal || longer <= theirs) continue;
        moves.push({ move, key: PATH_WEIGHT * (longer - theirs) - weights.wall });
      }
      from = to;
    }
    return moves;
  }

  /** The (up to two) wall slots, as slot * 2 + orientation, that block the step between two squares. */
  private wallsCutting(from: number, to: number): number[] {
    const size = this.size;
    const walls: number[] = [];
    const column = from % size;
    const row = Math.floor(from / size);
    if (to === from + size || to === from - size) {
      // A vertical step is cut by a horizontal wall whose north-west square is above the line.
      const upper = Math.max(row, Math.floor(to / size));
      for (const c of [column - 1, column]) {
        const slot = slotAt(size, c, upper);
        if (slot >= 0) walls.push(slot * 2 + HORIZONTAL);
      }
    } else {
      const left = Math.min(column, to % size);
      for (const r of [row, row + 1]) {
        const slot = slotAt(size, left, r);
        if (slot >= 0) walls.push(slot * 2 + VERTICAL);
      }
    }
    return walls;
  }
}

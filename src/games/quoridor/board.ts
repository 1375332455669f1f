import {
  BLACK,
  FIRST_SIDE,
  HORIZONTAL,
  VERTICAL,
  WHITE,
  defaultWalls,
  isValidSize,
  other,
  type Move,
  type Side,
} from './geometry.js';
import { BarrierGraph } from './barriers.js';

/** Direction bits of `blocked`: north (row + 1), east, south, west. */
const NORTH = 1;
const EAST = 2;
const SOUTH = 4;
const WEST = 8;

/** A position as plain data, for worker threads and for rebuilding a board. */
export interface BoardSnapshot {
  readonly size: number;
  readonly wallsPerPlayer: number;
  /** Square of the white pawn, then of the black one. */
  readonly pawns: readonly [number, number];
  readonly wallsLeft: readonly [number, number];
  /** Per wall slot: 0 empty, 1 horizontal, 2 vertical. */
  readonly slots: readonly number[];
  readonly turn: Side;
}

/**
 * The rules of Quoridor on an N x N board (odd N from 3 to 25), as one mutable position with
 * make/undo, because perft and search walk millions of positions. `clone()` makes copies explicit.
 *
 * Data: per square a bit mask of the directions a pawn cannot leave by (walls and the board's
 * edge), per wall slot its occupant, and the barrier graph (barriers.ts), which tells the few
 * walls that could cut a pawn off its goal, so that only those need a path search.
 */
export class QuoridorBoard {
  readonly size: number;
  /** Walls each player had at the start. */
  readonly wallsPerPlayer: number;
  readonly pawns: Int32Array;
  readonly wallsLeft: Int32Array;
  /** 0 empty, 1 horizontal wall, 2 vertical wall; index = slot. */
  readonly slots: Uint8Array;
  /** Directions blocked per square (NORTH | EAST | SOUTH | WEST bits). */
  readonly blocked: Uint8Array;
  /** Walls and edge as a graph on the lattice points (x + y * (size + 1)). */
  private readonly barriers: BarrierGraph;
  /** Side to move next: the opposite of the last mover, black at the start. */
  turn: Side = FIRST_SIDE;
  private readonly historySide: Side[] = [];
  private readonly historyMove: Move[] = [];
  private readonly historyFrom: number[] = [];
  private readonly historyTurn: Side[] = [];
  private readonly delta: Int32Array;
  private readonly queue: Int32Array;
  private readonly seen: Int32Array;
  private readonly depthOf: Int32Array;
  private stamp = 0;

  private constructor(size: number, wallsPerPlayer: number) {
    this.size = size;
    this.wallsPerPlayer = wallsPerPlayer;
    const squares = size * size;
    this.pawns = new Int32Array(2);
    this.wallsLeft = new Int32Array(2);
    this.slots = new Uint8Array((size - 1) * (size - 1));
    this.blocked = new Uint8Array(squares);
    this.barriers = new BarrierGraph(size);
    this.delta = Int32Array.from([size, 1, -size, -1]);
    this.queue = new Int32Array(squares);
    this.seen = new Int32Array(squares);
    this.depthOf = new Int32Array(squares);
  }

  /** The starting position: white in the middle of row 1, black in the middle of the top row. */
  static start(size: number, walls: number = defaultWalls(size)): QuoridorBoard {
    if (!isValidSize(size)) throw new RangeError(`board size must be odd, from 3 to 25: ${size}`);
    if (!Number.isInteger(walls) || walls < 0) throw new RangeError(`walls must be a non-negative integer: ${walls}`);
    const board = new QuoridorBoard(size, walls);
    const middle = (size - 1) >> 1;
    board.pawns[WHITE] = middle;
    board.pawns[BLACK] = (size - 1) * size + middle;
    board.wallsLeft[WHITE] = walls;
    board.wallsLeft[BLACK] = walls;
    for (let column = 0; column < size; column++) {
      board.blocked[column] |= SOUTH;
      board.blocked[(size - 1) * size + column] |= NORTH;
    }
    for (let row = 0; row < size; row++) {
      board.blocked[row * size] |= WEST;
      board.blocked[row * size + size - 1] |= EAST;
    }
    return board;
  }

  /** Rebuilds a position from a snapshot (no history: it cannot be undone past this point). */
  static fromSnapshot(snapshot: BoardSnapshot): QuoridorBoard {
    const board = QuoridorBoard.start(snapshot.size, snapshot.wallsPerPlayer);
    board.slots.forEach((_, slot) => {
      const occupant = snapshot.slots[slot] ?? 0;
      if (occupant !== 0) board.setWall(slot, occupant - 1, true);
    });
    board.pawns[WHITE] = snapshot.pawns[0];
    board.pawns[BLACK] = snapshot.pawns[1];
    board.wallsLeft[WHITE] = snapshot.wallsLeft[0];
    board.wallsLeft[BLACK] = snapshot.wallsLeft[1];
    board.turn = snapshot.turn;
    return board;
  }

  snapshot(): BoardSnapshot {
    return {
      size: this.size,
      wallsPerPlayer: this.wallsPerPlayer,
      pawns: [this.pawns[WHITE]!, this.pawns[BLACK]!],
      wallsLeft: [this.wallsLeft[WHITE]!, this.wallsLeft[BLACK]!],
      slots: Array.from(this.slots),
      turn: this.turn,
    };
  }

  /** An independent copy, history included. */
  clone(): QuoridorBoard {
    const copy = new QuoridorBoard(this.size, this.wallsPerPlayer);
    copy.pawns.set(this.pawns);
    copy.wallsLeft.set(this.wallsLeft);
    copy.slots.set(this.slots);
    copy.blocked.set(this.blocked);
    copy.barriers.copyFrom(this.barriers);
    copy.turn = this.turn;
    copy.historySide.push(...this.historySide);
    copy.historyMove.push(...this.historyMove);
    copy.historyFrom.push(...this.historyFrom);
    copy.historyTurn.push(...this.historyTurn);
    return copy;
  }

  /** Moves played (and not undone) since the start or the snapshot. */
  get moveCount(): number {
    return this.historyMove.length;
  }

  /** The moves played so far, oldest first, as [side, move]. */
  history(): [Side, Move][] {
    return this.historyMove.map((move, i) => [this.historySide[i]!, move]);
  }

  goalRow(side: Side): number {
    return side === WHITE ? this.size - 1 : 0;
  }

  /** The side whose pawn stands on its goal row, or null while the game goes on. */
  winner(): Side | null {
    if (Math.floor(this.pawns[WHITE]! / this.size) === this.size - 1) return WHITE;
    if (this.pawns[BLACK]! < this.size) return BLACK;
    return null;
  }

  isOver(): boolean {
    return this.winner() !== null;
  }

  // ---- pawn moves ----

  /** Writes the squares `side`'s pawn may move to into `out`; returns how many. */
  pawnTargets(side: Side, out: Int32Array | number[]): number {
    const from = this.pawns[side]!;
    const opponent = this.pawns[1 - side]!;
    const blocked = this.blocked;
    const delta = this.delta;
    const here = blocked[from]!;
    let count = 0;
    for (let d = 0; d < 4; d++) {
      if (here & (1 << d)) continue;
      const next = from + delta[d]!;
      if (next !== opponent) {
        out[count++] = next;
        continue;
      }
      const there = blocked[next]!;
      if (!(there & (1 << d))) {
        out[count++] = next + delta[d]!;
        continue;
      }
      // The straight jump is walled off or leaves the board: step beside the opponent instead.
      const left = (d + 3) & 3;
      const right = (d + 1) & 3;
      if (!(there & (1 << left))) out[count++] = next + delta[left]!;
      if (!(there & (1 << right))) out[count++] = next + delta[right]!;
    }
    return count;
  }

  isPawnMoveLegal(side: Side, target: number): boolean {
    if (this.isOver()) return false;
    const targets: number[] = [];
    const count = this.pawnTargets(side, targets);
    for (let i = 0; i < count; i++) if (targets[i] === target) return true;
    return false;
  }

  // ---- walls ----

  /** Whether `side` may place a wall at `slot` with `orientation` (0 horizontal, 1 vertical). */
  isWallLegal(side: Side, slot: number, orientation: number): boolean {
    if (this.wallsLeft[side]! <= 0 || this.isOver()) return false;
    if (!Number.isInteger(slot) || slot < 0 || slot >= this.slots.length) return false;
    if (orientation !== HORIZONTAL && orientation !== VERTICAL) return false;
    if (!this.wallFits(slot, orientation)) return false;
    return !this.wallMayCut(slot, orientation) || this.wallKeepsPaths(slot, orientation);
  }

  /** No wall on the same slot (crossing or equal) and none overlapping along the same line. */
  wallFits(slot: number, orientation: number): boolean {
    const slots = this.slots;
    if (slots[slot] !== 0) return false;
    const span = this.size - 1;
    if (orientation === HORIZONTAL) {
      const column = slot % span;
      if (column > 0 && slots[slot - 1] === 1) return false;
      if (column < span - 1 && slots[slot + 1] === 1) return false;
    } else {
      const row = Math.floor(slot / span) + 1;
      if (row > 1 && slots[slot - span] === 2) return false;
      if (row < span && slots[slot + span] === 2) return false;
    }
    return true;
  }

  /** Whether the wall closes a loop of barriers (only then can it cut a pawn off its goal). */
  wallMayCut(slot: number, orientation: number): boolean {
    return this.barriers.closesLoop(this.firstPoint(slot, orientation), orientation === HORIZONTAL ? 1 : this.size + 1);
  }

  /** Blocks the wall's edges for a moment and checks that both pawns can still reach their goals. */
  wallKeepsPaths(slot: number, orientation: number): boolean {
    this.toggleBlocking(slot, orientation);
    const fine = this.hasPath(WHITE) && this.hasPath(BLACK);
    this.toggleBlocking(slot, orientation);
    return fine;
  }

  /**
   * Adds a wall, or removes the most recently added one (walls come off in reverse order); the
   * caller keeps the rules (fit, paths, counts).
   */
  private setWall(slot: number, orientation: number, on: boolean): void {
    this.toggleBlocking(slot, orientation);
    const first = this.firstPoint(slot, orientation);
    const step = orientation === HORIZONTAL ? 1 : this.size + 1;
    if (on) this.barriers.add(first, step);
    else this.barriers.removeLast(first, step);
    this.slots[slot] = on ? orientation + 1 : 0;
  }

  private toggleBlocking(slot: number, orientation: number): void {
    const size = this.size;
    const span = size - 1;
    const column = slot % span;
    const row = Math.floor(slot / span) + 1;
    const square = row * size + column;
    const blocked = this.blocked;
    if (orientation === HORIZONTAL) {
      blocked[square] ^= SOUTH;
      blocked[square + 1] ^= SOUTH;
      blocked[square - size] ^= NORTH;
      blocked[square - size + 1] ^= NORTH;
    } else {
      blocked[square] ^= EAST;
      blocked[square - size] ^= EAST;
      blocked[square + 1] ^= WEST;
      blocked[square + 1 - size] ^= WEST;
    }
  }

  /**
   * The wall's first lattice point; its others follow at a stride of 1 (horizontal, left to
   * right along line y = row) or size + 1 (vertical, upwards along line x = column + 1).
   */
  private firstPoint(slot: number, orientation: number): number {
    const span = this.size - 1;
    const points = this.size + 1;
    const column = slot % span;
    const row = Math.floor(slot / span) + 1;
    return orientation === HORIZONTAL ? row * points + column : (row - 1) * points + column + 1;
  }

  // ---- paths ----

  /** Whether `side`'s pawn can reach its goal row, pawns ignored. */
  hasPath(side: Side): boolean {
    return this.distance(side) >= 0;
  }

  /** Length of `side`'s shortest path to its goal row, pawns ignored; -1 when there is none. */
  distance(side: Side): number {
    return this.distanceFrom(this.pawns[side]!, this.goalRow(side));
  }

  /** Breadth-first search from `start` to any square of `goalRow`; -1 when unreachable. */
  distanceFrom(start: number, goalRow: number): number {
    const size = this.size;
    const goalLow = goalRow * size;
    const goalHigh = goalLow + size;
    if (start >= goalLow && start < goalHigh) return 0;
    const stamp = ++this.stamp;
    const seen = this.seen;
    const queue = this.queue;
    const depthOf = this.depthOf;
    const blocked = this.blocked;
    const delta = this.delta;
    seen[start] = stamp;
    depthOf[start] = 0;
    queue[0] = start;
    let head = 0;
    let tail = 1;
    while (head < tail) {
      const square = queue[head++]!;
      const walls = blocked[square]!;
      const depth = depthOf[square]! + 1;
      for (let d = 0; d < 4; d++) {
        if (walls & (1 << d)) continue;
        const next = square + delta[d]!;
        if (seen[next] === stamp) continue;
        if (next >= goalLow && next < goalHigh) return depth;
        seen[next] = stamp;
        depthOf[next] = depth;
        queue[tail++] = next;
      }
    }
    return -1;
  }

  /**
   * One shortest path of `side` to its goal, as the list of squares after the start (empty when
   * already there or when there is no path).
   */
  shortestPath(side: Side): number[] {
    const size = this.size;
    const start = this.pawns[side]!;
    const goalLow = this.goalRow(side) * size;
    const goalHigh = goalLow + size;
    if (start >= goalLow && start < goalHigh) return [];
    const stamp = ++this.stamp;
    const seen = this.seen;
    const queue = this.queue;
    const parent = this.depthOf;
    const blocked = this.blocked;
    const delta = this.delta;
    seen[start] = stamp;
    parent[start] = -1;
    queue[0] = start;
    let head = 0;
    let tail = 1;
    while (head < tail) {
      const square = queue[head++]!;
      const walls = blocked[square]!;
      for (let d = 0; d < 4; d++) {
        if (walls & (1 << d)) continue;
        const next = square + delta[d]!;
        if (seen[next] === stamp) continue;
        seen[next] = stamp;
        parent[next] = square;
        if (next >= goalLow && next < goalHigh) {
          const path: number[] = [];
          for (let at = next; at !== start; at = parent[at]!) path.push(at);
          return path.reverse();
        }
        queue[tail++] = next;
      }
    }
    return [];
  }

  // ---- moves ----

  /** Every legal move of `side` (pawn moves first, then walls by slot and orientation). */
  legalMoves(side: Side): Move[] {
    const moves: Move[] = [];
    if (this.isOver()) return moves;
    const count = this.pawnTargets(side, moves);
    moves.length = count;
    if (this.wallsLeft[side]! > 0) {
      const base = this.size * this.size;
      for (let slot = 0; slot < this.slots.length; slot++) {
        if (this.slots[slot] !== 0) continue;
        for (let orientation = HORIZONTAL; orientation <= VERTICAL; orientation++) {
          if (!this.wallFits(slot, orientation)) continue;
          if (this.wallMayCut(slot, orientation) && !this.wallKeepsPaths(slot, orientation)) continue;
          moves.push(base + slot * 2 + orientation);
        }
      }
    }
    return moves;
  }

  /** How many legal moves `side` has, without listing them (perft's last ply, so inlined). */
  countLegalMoves(side: Side): number {
    if (this.isOver()) return 0;
    let count = this.pawnTargets(side, this.queue);
    if (this.wallsLeft[side]! <= 0) return count;
    const size = this.size;
    const span = size - 1;
    const points = size + 1;
    const slots = this.slots;
    const barriers = this.barriers;
    let slot = 0;
    for (let row = 1; row < size; row++) {
      for (let column = 0; column < span; column++, slot++) {
        if (slots[slot] !== 0) continue;
        if ((column === 0 || slots[slot - 1] !== 1) && (column === span - 1 || slots[slot + 1] !== 1)) {
          if (!barriers.closesLoop(row * points + column, 1) || this.wallKeepsPaths(slot, HORIZONTAL)) count++;
        }
        if ((row === 1 || slots[slot - span] !== 2) && (row === span || slots[slot + span] !== 2)) {
          if (!barriers.closesLoop((row - 1) * points + column + 1, points) || this.wallKeepsPaths(slot, VERTICAL)) count++;
        }
      }
    }
    return count;
  }

  isLegal(side: Side, move: Move): boolean {
    const squares = this.size * this.size;
    if (!Number.isInteger(move) || move < 0) return false;
    if (move < squares) return this.isPawnMoveLegal(side, move);
    const index = move - squares;
    return this.isWallLegal(side, index >> 1, index & 1);
  }

  /** Plays a move already known to be legal for `side`; the next side to move is the other one. */
  play(side: Side, move: Move): void {
    const squares = this.size * this.size;
    this.historySide.push(side);
    this.historyMove.push(move);
    this.historyTurn.push(this.turn);
    if (move < squares) {
      this.historyFrom.push(this.pawns[side]!);
      this.pawns[side] = move;
    } else {
      this.historyFrom.push(-1);
      const index = move - squares;
      this.setWall(index >> 1, index & 1, true);
      this.wallsLeft[side]!--;
    }
    this.turn = other(side);
  }

  /** Takes back the last move; false when there is none. */
  undo(): boolean {
    const move = this.historyMove.pop();
    if (move === undefined) return false;
    const side = this.historySide.pop()!;
    const from = this.historyFrom.pop()!;
    this.turn = this.historyTurn.pop()!;
    if (from >= 0) {
      this.pawns[side] = from;
    } else {
      const index = move - this.size * this.size;
      this.setWall(index >> 1, index & 1, false);
      this.wallsLeft[side]!++;
    }
    return true;
  }
}

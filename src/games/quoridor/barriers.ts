/**
 * The walls and the board's edge seen as one planar graph on the lattice points (the corners
 * between squares). Squares fall apart into separate regions only when a barrier closes a loop, and
 * a new wall closes a loop exactly when two of its three points already belong to the same barrier
 * component. So a wall that does not close a loop can never cut a pawn off its goal, and most
 * wall checks need no path search at all.
 *
 * Components are kept in a union-find without path compression (union by rank), so that removing
 * the most recent wall is an exact rollback: walls must be removed in the reverse order of adding.
 */
export class BarrierGraph {
  /** Lattice points per row: size + 1. */
  readonly stride: number;
  private readonly parent: Int32Array;
  private readonly rank: Uint8Array;
  /** Per point: how many barriers touch it (the edge counts 1). */
  private readonly touch: Uint8Array;
  /** Roots attached by unions, most recent last, and whether the other root's rank grew. */
  private readonly attached: Int32Array;
  private readonly grew: Uint8Array;
  private unions = 0;
  /** Per added wall, how many unions it made. */
  private readonly unionsPerWall: Uint8Array;
  private walls = 0;

  constructor(size: number) {
    this.stride = size + 1;
    const points = this.stride * this.stride;
    this.parent = new Int32Array(points);
    this.rank = new Uint8Array(points);
    this.touch = new Uint8Array(points);
    this.attached = new Int32Array(2 * size * size + 8);
    this.grew = new Uint8Array(this.attached.length);
    this.unionsPerWall = new Uint8Array(size * size + 1);
    for (let i = 0; i < points; i++) this.parent[i] = i;
    // The edge is one permanent component; its unions are never rolled back.
    const last = size;
    for (let i = 0; i <= size; i++) {
      for (const point of [i, last * this.stride + i, i * this.stride, i * this.stride + last]) {
        this.touch[point] = 1;
        const root = this.find(point);
        if (root !== 0) this.parent[root] = 0;
      }
    }
    this.rank[0] = 1;
  }

  copyFrom(source: BarrierGraph): void {
    this.parent.set(source.parent);
    this.rank.set(source.rank);
    this.touch.set(source.touch);
    this.attached.set(source.attached);
    this.grew.set(source.grew);
    this.unionsPerWall.set(source.unionsPerWall);
    this.unions = source.unions;
    this.walls = source.walls;
  }

  find(point: number): number {
    const parent = this.parent;
    while (parent[point] !== point) point = parent[point]!;
    return point;
  }

  /**
   * Whether a wall through `first`, `first + step` and `first + 2 * step` would close a loop of
   * barriers (and so possibly enclose squares).
   */
  closesLoop(first: number, step: number): boolean {
    const touch = this.touch;
    const second = first + step;
    const third = second + step;
    const contacts = (touch[first]! > 0 ? 1 : 0) + (touch[second]! > 0 ? 1 : 0) + (touch[third]! > 0 ? 1 : 0);
    if (contacts < 2) return false;
    const a = this.find(first);
    const b = this.find(second);
    const c = this.find(third);
    return a === b || b === c || a === c;
  }

  add(first: number, step: number): void {
    let made = 0;
    for (let point = first, i = 0; i < 3; i++, point += step) this.touch[point]!++;
    if (this.union(first, first + step)) made++;
    if (this.union(first + step, first + 2 * step)) made++;
    this.unionsPerWall[this.walls++] = made;
  }

  /** Removes the most recently added wall, which must be the one through these points. */
  removeLast(first: number, step: number): void {
    for (let point = first, i = 0; i < 3; i++, point += step) this.touch[point]!--;
    let made = this.unionsPerWall[--this.walls]!;
    while (made-- > 0) {
      const child = this.attached[--this.unions]!;
      const root = this.parent[child]!;
      if (this.grew[this.unions]) this.rank[root]!--;
      this.parent[child] = child;
    }
  }

  private union(a: number, b: number): boolean {
    let ra = this.find(a);
    let rb = this.find(b);
    if (ra === rb) return false;
    if (this.rank[ra]! < this.rank[rb]!) [ra, rb] = [rb, ra];
    this.parent[rb] = ra;
    const grew = this.rank[ra] === this.rank[rb];
    if (grew) this.rank[ra]!++;
    this.attached[this.unions] = rb;
    this.grew[this.unions] = grew ? 1 : 0;
    this.unions++;
    return true;
  }
}

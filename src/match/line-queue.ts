/** Who takes the next line (or the end, null). */
export type LineTaker = (line: string | null) => void;

/**
 * Lines waiting to be read by one reader: the lines a server bot receives (match/bot-connection.ts)
 * and a replayed seat's (match/replay-seat.ts). A player's seat keeps its own queue in its fields,
 * the same way, so that a line on the match's hot path touches one object (match/seat.ts).
 *
 * A read is a promise (`next`) or a callback (`take`), which costs no promise and is called at
 * once when the line is already there.
 */
export class LineQueue {
  private readonly lines: string[] = [];
  private head = 0;
  private waiter: LineTaker | null = null;
  private ended = false;

  /** `onTake` is told of each line (or the end, null) as the reader takes it. */
  constructor(private readonly onTake: ((line: string | null) => void) | null = null) {}

  /** Whether a read is waiting for a line. */
  get waiting(): boolean {
    return this.waiter !== null;
  }

  push(line: string): void {
    if (this.ended) return;
    if (this.waiter) return this.hand(line);
    this.lines.push(line);
  }

  /** No more lines will come; a waiting or later read gets null once the queue is drained. */
  end(): void {
    if (this.ended) return;
    this.ended = true;
    if (this.waiter && this.head >= this.lines.length) this.hand(null);
  }

  /** Drops the lines not read yet and ends the queue. */
  close(): void {
    this.lines.length = 0;
    this.head = 0;
    this.end();
  }

  /** The next line, or null at the end. One read at a time. */
  next(): Promise<string | null> {
    const line = this.poll();
    if (line !== undefined) return Promise.resolve(line);
    return new Promise((resolve) => {
      this.waiter = resolve;
    });
  }

  /**
   * Gives the next line (or null at the end) to `taker`: now, before returning, if it is there
   * already, else when it comes. One read at a time, as with `next`.
   */
  take(taker: LineTaker): void {
    const line = this.poll();
    if (line !== undefined) taker(line);
    else this.waiter = taker;
  }

  /** The next line or null (the end), taken; undefined when the reader must wait. */
  private poll(): string | null | undefined {
    if (this.waiter) throw new Error('LineQueue has one reader; a read is already waiting');
    if (this.head < this.lines.length) {
      const line = this.lines[this.head++]!;
      if (this.head > 1024 && this.head * 2 > this.lines.length) {
        this.lines.splice(0, this.head);
        this.head = 0;
      }
      this.onTake?.(line);
      return line;
    }
    if (this.ended) {
      this.onTake?.(null);
      return null;
    }
    return undefined;
  }

  private hand(line: string | null): void {
    const take = this.waiter!;
    this.waiter = null;
    this.onTake?.(line);
    take(line);
  }
}

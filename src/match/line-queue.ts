/**
 * Lines waiting to be read by one reader. Used for the lines a player sends to the game and for
 * the lines a server bot receives.
 */
export class LineQueue {
  private readonly lines: string[] = [];
  private head = 0;
  private waiter: ((line: string | null) => void) | null = null;
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
    if (this.waiter) throw new Error('LineQueue has one reader; a read is already waiting');
    if (this.head < this.lines.length) {
      const line = this.lines[this.head++]!;
      if (this.head > 1024 && this.head * 2 > this.lines.length) {
        this.lines.splice(0, this.head);
        this.head = 0;
      }
      this.onTake?.(line);
      return Promise.resolve(line);
    }
    if (this.ended) {
      this.onTake?.(null);
      return Promise.resolve(null);
    }
    return new Promise((resolve) => {
      this.waiter = resolve;
    });
  }

  private hand(line: string | null): void {
    const wake = this.waiter!;
    this.waiter = null;
    this.onTake?.(line);
    wake(line);
  }
}

/**
 * Lines waiting to be read by one reader, with an optional deadline per read. Used for the lines a
 * player sends to the game and for the lines a server bot receives.
 */
export class LineQueue {
  private readonly lines: string[] = [];
  private head = 0;
  private waiter: ((line: string | null) => void) | null = null;
  private ended = false;

  push(line: string): void {
    if (this.ended) return;
    if (this.waiter) {
      const wake = this.waiter;
      this.waiter = null;
      wake(line);
      return;
    }
    this.lines.push(line);
  }

  /** No more lines will come; a waiting or later read gets null once the queue is drained. */
  end(): void {
    if (this.ended) return;
    this.ended = true;
    if (this.waiter && this.head >= this.lines.length) {
      const wake = this.waiter;
      this.waiter = null;
      wake(null);
    }
  }

  /** Drops the lines not read yet and ends the queue. */
  close(): void {
    this.lines.length = 0;
    this.head = 0;
    this.end();
  }

  /**
   * The next line, or null at the end. `onDeadline` gives the wait a limit: it is called with
   * a function that ends this wait with null.
   */
  next(arm?: (expire: () => void) => () => void): Promise<string | null> {
    if (this.waiter) throw new Error('LineQueue has one reader; a read is already waiting');
    if (this.head < this.lines.length) {
      const line = this.lines[this.head++]!;
      if (this.head > 1024 && this.head * 2 > this.lines.length) {
        this.lines.splice(0, this.head);
        this.head = 0;
      }
      return Promise.resolve(line);
    }
    if (this.ended) return Promise.resolve(null);
    return new Promise((resolve) => {
      let disarm: () => void = () => {};
      this.waiter = (line) => {
        disarm();
        resolve(line);
      };
      if (arm) {
        disarm = arm(() => {
          if (this.waiter) {
            this.waiter = null;
            resolve(null);
          }
        });
      }
    });
  }
}

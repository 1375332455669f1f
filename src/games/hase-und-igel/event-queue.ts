/** An unbounded-in-type but bounded-in-practice queue with one async reader (the room loop). */
export class EventQueue<T> {
  private readonly items: T[] = [];
  private waiter: ((item: T) => void) | null = null;

  push(item: T): void {
    const waiter = this.waiter;
    if (waiter) {
      this.waiter = null;
      waiter(item);
    } else {
      this.items.push(item);
    }
  }

  next(): Promise<T> {
    const item = this.items.shift();
    if (item !== undefined) return Promise.resolve(item);
    return new Promise((resolve) => (this.waiter = resolve));
  }
}

import { connect, type Socket } from 'node:net';

/** Sends raw bytes and gathers the answer as text, as it arrives. */
export class RawHttp {
  readonly socket: Socket;
  private received = '';
  private readonly waiters = new Set<() => void>();
  readonly closed: Promise<void>;

  constructor(port: number) {
    this.socket = connect(port, '127.0.0.1');
    this.socket.setEncoding('latin1');
    this.socket.on('data', (text: string) => {
      this.received += text;
      for (const wake of this.waiters) wake();
    });
    this.socket.on('error', () => {});
    this.closed = new Promise((resolve) => this.socket.once('close', () => resolve()));
    void this.closed.then(() => {
      for (const wake of this.waiters) wake();
    });
  }

  /** Waits until what arrived contains `text` (or the connection closed); returns all of it. */
  async until(text: string): Promise<string> {
    while (!this.received.includes(text) && !this.socket.destroyed) {
      await new Promise<void>((resolve) => {
        const wake = (): void => {
          this.waiters.delete(wake);
          resolve();
        };
        this.waiters.add(wake);
      });
    }
    return this.received;
  }
}

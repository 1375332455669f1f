import WebSocket from 'ws';

/** A WebSocket client that records every frame as it arrived, for byte-exact protocol checks. */
export class RawClient {
  readonly frames: { text: string | null; bytes: Buffer }[] = [];
  readonly closed: Promise<number>;
  private waiters: (() => void)[] = [];

  private constructor(readonly ws: WebSocket) {
    ws.on('message', (data, isBinary) => {
      const bytes = Buffer.from(data as Buffer);
      this.frames.push({ text: isBinary ? null : bytes.toString('utf8'), bytes });
      for (const wake of this.waiters.splice(0)) wake();
    });
    this.closed = new Promise((resolve) => ws.once('close', (code) => {
      for (const wake of this.waiters.splice(0)) wake();
      resolve(code);
    }));
  }

  /** Connects to `url`, from `localAddress` if given (on Linux any of 127.0.0.0/8 reaches a server on 127.0.0.1). */
  static async open(url: string, localAddress?: string): Promise<RawClient> {
    const ws = new WebSocket(url, localAddress === undefined ? {} : { localAddress });
    await new Promise((resolve, reject) => {
      ws.once('open', resolve);
      ws.once('error', reject);
    });
    return new RawClient(ws);
  }

  send(text: string): void {
    this.ws.send(text);
  }

  /** Waits until `count` frames have arrived in total (or the socket closed). */
  async frame(index: number): Promise<{ text: string | null; bytes: Buffer } | undefined> {
    while (this.frames.length <= index && this.ws.readyState !== WebSocket.CLOSED) {
      await new Promise<void>((resolve) => this.waiters.push(resolve));
    }
    return this.frames[index];
  }

  /** Waits until the frames so far satisfy `done`; throws if the socket closes first. */
  async until(done: (frames: readonly { text: string | null; bytes: Buffer }[]) => boolean): Promise<void> {
    while (!done(this.frames)) {
      if (this.ws.readyState === WebSocket.CLOSED) throw new Error(`closed before the awaited frame; frames: ${JSON.stringify(this.frames.map((f) => f.text))}`);
      await new Promise<void>((resolve) => this.waiters.push(resolve));
    }
  }

  /** Sends a request and returns the text of the next frame. */
  async ask(text: string): Promise<string | null | undefined> {
    const index = this.frames.length;
    this.send(text);
    return (await this.frame(index))?.text;
  }

  close(): void {
    this.ws.close();
  }
}

/**
 * Splits a byte stream into lines. A state machine fed with chunks (no sockets), so it is tested
 * with raw bytes. Lines end with LF; one CR before the LF is dropped (programs written on Windows).
 * A line longer than `maxLineBytes` or not valid UTF-8 is the peer's fault: the splitter stops and
 * reports a stable error code, checked before the bytes are buffered.
 */
export type LineError = 'line/too-long' | 'line/invalid-utf8';

export interface LineSplitterEvents {
  /**
   * A line, without its LF and CR, as text and as the bytes it was decoded from (for who keeps the
   * bytes, as a seat's transcript does). The bytes may be a view into the chunk pushed: they are
   * valid during the call only.
   */
  line(text: string, bytes: Uint8Array): void;
  error(code: LineError): void;
}

const LF = 0x0a;
const CR = 0x0d;

export class LineSplitter {
  private pending: Buffer[] = [];
  private pendingBytes = 0;
  private failed = false;
  private readonly decoder = new TextDecoder('utf-8', { fatal: true });

  constructor(
    private readonly maxLineBytes: number,
    private readonly events: LineSplitterEvents,
  ) {}

  push(chunk: Uint8Array): void {
    if (this.failed) return;
    let start = 0;
    while (start < chunk.length) {
      const lf = chunk.indexOf(LF, start);
      const end = lf === -1 ? chunk.length : lf;
      if (this.pendingBytes + (end - start) > this.maxLineBytes) {
        this.fail('line/too-long');
        return;
      }
      if (lf === -1) {
        this.pending.push(Buffer.from(chunk.subarray(start)));
        this.pendingBytes += chunk.length - start;
        return;
      }
      let bytes: Uint8Array = chunk.subarray(start, end);
      if (this.pendingBytes > 0) {
        this.pending.push(Buffer.from(bytes));
        bytes = Buffer.concat(this.pending, this.pendingBytes + bytes.length);
        this.pending = [];
        this.pendingBytes = 0;
      }
      if (bytes.length > 0 && bytes[bytes.length - 1] === CR) bytes = bytes.subarray(0, bytes.length - 1);
      let text: string;
      try {
        text = this.decoder.decode(bytes);
      } catch {
        this.fail('line/invalid-utf8');
        return;
      }
      start = lf + 1;
      this.events.line(text, bytes);
      if (this.failed) return;
    }
  }

  /**
   * End of input. A final line without LF is delivered as a line, as programs that forget the
   * last newline expect.
   */
  end(): void {
    if (this.failed || this.pendingBytes === 0) return;
    const bytes = Buffer.concat(this.pending, this.pendingBytes);
    this.pending = [];
    this.pendingBytes = 0;
    const trimmed = bytes[bytes.length - 1] === CR ? bytes.subarray(0, bytes.length - 1) : bytes;
    try {
      this.events.line(this.decoder.decode(trimmed), trimmed);
    } catch {
      this.fail('line/invalid-utf8');
    }
  }

  private fail(code: LineError): void {
    this.failed = true;
    this.pending = [];
    this.pendingBytes = 0;
    this.events.error(code);
  }
}

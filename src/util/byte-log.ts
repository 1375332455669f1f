/** The chunk of a log nothing was appended to yet; it has no room, so nothing is ever written into it. */
const NO_CHUNK = Buffer.alloc(0);
/** Bytes `appendRange` copies one by one rather than through a view (a line of a board, a move). */
const SHORT_RANGE = 64;

/**
 * An append-only byte log kept outside the JavaScript heap: written into fixed-size chunks, read
 * back whole. A server with a thousand matches keeps every match's spectator stream and
 * visualizer events until the match ends; as many small strings or Buffers they would be millions
 * of heap objects for the garbage collector to visit, as chunks they are a few hundred.
 */
export class ByteLog {
  private readonly full: Buffer[] = [];
  /** NO_CHUNK until the first append: a log made for a match that never starts costs no chunk. */
  private chunk: Buffer = NO_CHUNK;
  private used = 0;
  private bytes = 0;

  /** Chunks start small (most logs are short) and double up to `maxChunkBytes`. */
  constructor(
    private readonly firstChunkBytes = 1024,
    private readonly maxChunkBytes = 64 * 1024,
  ) {}

  get length(): number {
    return this.bytes;
  }

  /** Bytes of chunks this log holds, written or not. */
  get reservedBytes(): number {
    return this.full.reduce((sum, chunk) => sum + chunk.length, this.chunk.length);
  }

  append(data: string | Uint8Array): void {
    if (this.chunk === NO_CHUNK) this.chunk = Buffer.allocUnsafe(this.firstChunkBytes);
    if (typeof data === 'string') {
      // Most appends are short and fit the current chunk: written in place, without a copy.
      if (data.length * 3 <= this.chunk.length - this.used) {
        const written = this.chunk.write(data, this.used, 'utf8');
        this.used += written;
        this.bytes += written;
        return;
      }
      data = Buffer.from(data, 'utf8');
    } else if (data.length <= this.chunk.length - this.used) {
      this.chunk.set(data, this.used);
      this.used += data.length;
      this.bytes += data.length;
      return;
    }
    let offset = 0;
    while (offset < data.length) {
      if (this.used === this.chunk.length) this.seal();
      const count = Math.min(data.length - offset, this.chunk.length - this.used);
      this.chunk.set(data.subarray(offset, offset + count), this.used);
      this.used += count;
      offset += count;
    }
    this.bytes += data.length;
  }

  /**
   * `data[start..end)`, as `append(data.subarray(start, end))` but without making the view when the
   * bytes fit the current chunk: a block of many lines is appended a line at a time (transcripts).
   */
  appendRange(data: Uint8Array, start: number, end: number): void {
    const count = end - start;
    if (this.chunk === NO_CHUNK || count > this.chunk.length - this.used) return this.append(data.subarray(start, end));
    // A short line is copied byte by byte; a long one is worth its view.
    if (count > SHORT_RANGE) this.chunk.set(data.subarray(start, end), this.used);
    else for (let i = start, at = this.used; i < end; i++) this.chunk[at++] = data[i]!;
    this.used += count;
    this.bytes += count;
  }

  /** One byte (0 to 255), without the cost of a buffer or a string. */
  appendByte(byte: number): void {
    if (this.used === this.chunk.length) {
      if (this.chunk === NO_CHUNK) this.chunk = Buffer.allocUnsafe(this.firstChunkBytes);
      else this.seal();
    }
    this.chunk[this.used++] = byte;
    this.bytes++;
  }

  /** Everything appended so far, as one new buffer. */
  toBuffer(): Buffer {
    const whole = Buffer.allocUnsafe(this.bytes);
    this.copyTo(whole, 0);
    return whole;
  }

  /** Everything appended so far, as views of the chunks in order (valid until the next append). */
  chunks(): Buffer[] {
    return [...this.full, this.chunk.subarray(0, this.used)];
  }

  /** Copies everything appended so far into `target` at `offset`; returns the bytes copied. */
  copyTo(target: Uint8Array, offset: number): number {
    let at = offset;
    for (const chunk of this.full) {
      target.set(chunk, at);
      at += chunk.length;
    }
    target.set(this.chunk.subarray(0, this.used), at);
    return at + this.used - offset;
  }

  private seal(): void {
    this.full.push(this.chunk);
    this.chunk = Buffer.allocUnsafe(Math.min(this.maxChunkBytes, this.chunk.length * 2));
    this.used = 0;
  }
}

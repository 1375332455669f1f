/**
 * The first bytes of a game's stream that a front door already wrote to its client ahead of the
 * game (the Software-Challenge port answers `join` and `observe` at once, long before the room
 * begins, and the room then opens its stream with the same bytes). `strip` passes the game's stream
 * on without them, so the client sees each byte once. If the stream turns out not to begin with
 * them, everything is passed, the bytes held back so far included.
 */
export class SentPrefix {
  private readonly prefix: Uint8Array;
  /** How many bytes of the prefix the stream has matched so far (held back, not passed). */
  private matched = 0;
  private done: boolean;

  constructor(prefix: string | Uint8Array) {
    this.prefix = typeof prefix === 'string' ? Buffer.from(prefix, 'utf8') : prefix;
    this.done = this.prefix.length === 0;
  }

  /** The part of `bytes` to write to the client. */
  strip(bytes: Uint8Array): Uint8Array {
    if (this.done) return bytes;
    let i = 0;
    while (this.matched < this.prefix.length && i < bytes.length && bytes[i] === this.prefix[this.matched]) {
      i++;
      this.matched++;
    }
    if (this.matched === this.prefix.length) {
      this.done = true;
      return bytes.subarray(i);
    }
    if (i === bytes.length) return bytes.subarray(bytes.length);
    // A different stream: give back what was held and pass the rest unchanged.
    this.done = true;
    return Buffer.concat([this.prefix.subarray(0, this.matched), bytes.subarray(i)]);
  }
}

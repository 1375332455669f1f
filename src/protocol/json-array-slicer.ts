/**
 * Cuts the text of one JSON array (UTF-8 bytes) into runs of whole elements, without parsing
 * them: a replay sends the visualizer events as they are stored, a slice at a time, and finding
 * where an element ends needs only the brackets and braces outside strings. The scan goes as far
 * as the slice asked for and no further, so that each slice costs time in proportion to its size.
 */
export interface ArraySlice {
  /** Byte offsets of the elements' text in the array, commas between them, without the outer ones. */
  readonly start: number;
  readonly end: number;
  /** How many elements it holds (at least one). */
  readonly count: number;
}

const OPEN_ARRAY = 0x5b; // [
const CLOSE_ARRAY = 0x5d; // ]
const OPEN_OBJECT = 0x7b; // {
const CLOSE_OBJECT = 0x7d; // }
const COMMA = 0x2c;
const QUOTE = 0x22;
const BACKSLASH = 0x5c;

export class JsonArraySlicer {
  /** Where the next element starts; past the end once the closing bracket was met. */
  private at: number;
  private done = false;

  constructor(private readonly json: Uint8Array) {
    const open = skipSpace(json, 0);
    if (json[open] !== OPEN_ARRAY) throw new Error('not a JSON array');
    this.at = skipSpace(json, open + 1);
    if (json[this.at] === CLOSE_ARRAY) this.done = true;
  }

  /** Whether every element has been given out. */
  get finished(): boolean {
    return this.done;
  }

  /**
   * The next `maxElements` elements at most, fewer when the slice reaches `maxBytes` (it ends at
   * the first element boundary at or past it, so one element larger than that is still given
   * whole). Null when the array has no more.
   */
  next(maxElements: number, maxBytes: number): ArraySlice | null {
    if (this.done) return null;
    const json = this.json;
    const start = this.at;
    let count = 0;
    let depth = 0;
    let i = start;
    for (; i < json.length; i++) {
      const byte = json[i]!;
      if (byte === QUOTE) {
        i = stringEnd(json, i);
      } else if (byte === OPEN_ARRAY || byte === OPEN_OBJECT) {
        depth++;
      } else if (byte === CLOSE_ARRAY || byte === CLOSE_OBJECT) {
        if (depth > 0) {
          depth--;
          continue;
        }
        // The array's own closing bracket: the last element ends here.
        this.done = true;
        return { start, end: trimEnd(json, start, i), count: count + 1 };
      } else if (byte === COMMA && depth === 0) {
        count++;
        if (count >= maxElements || i - start >= maxBytes) {
          this.at = i + 1;
          return { start, end: i, count };
        }
      }
    }
    throw new Error('the JSON array does not end');
  }
}

/** The offset of the quote that closes the string opening at `open`. */
function stringEnd(json: Uint8Array, open: number): number {
  let from = open + 1;
  for (;;) {
    const quote = json.indexOf(QUOTE, from);
    if (quote < 0) throw new Error('a JSON string does not end');
    // Escaped when an odd number of backslashes comes right before it.
    let backslashes = 0;
    while (json[quote - 1 - backslashes] === BACKSLASH) backslashes++;
    if (backslashes % 2 === 0) return quote;
    from = quote + 1;
  }
}

function isSpace(byte: number | undefined): boolean {
  return byte === 0x20 || byte === 0x0a || byte === 0x0d || byte === 0x09;
}

function skipSpace(json: Uint8Array, from: number): number {
  while (isSpace(json[from])) from++;
  return from;
}

function trimEnd(json: Uint8Array, start: number, end: number): number {
  while (end > start && isSpace(json[end - 1])) end--;
  return end;
}

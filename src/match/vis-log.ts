import type { PreparedShape, VisJsonOut } from '../protocol/vis-validate.js';
import { ByteLog } from '../util/byte-log.js';

export interface VisLogLimits {
  /**
   * Distinct prepared shapes one log keeps a reference to. A game that prepares a few shapes and
   * draws them every round uses a handful; one that prepares new shapes all the time would make the
   * table grow with the match, so past this its shapes are copied into the log as bytes.
   */
  readonly maxSharedShapes: number;
}

export const VIS_LOG_LIMITS: VisLogLimits = { maxSharedShapes: 4096 };

/**
 * Marks a reference to a shared shape in the log: a byte that UTF-8 text (and so JSON) never
 * holds. It is followed by the shape's index in the table, times two, plus one if a comma comes
 * before the shape, as an unsigned LEB128 number.
 */
const SHARED = 0xff;

/** Pending text is written out once it is this long (a game without prepared shapes never refers). */
const PENDING_CHARS = 4096;

/**
 * The JSON text of a match's visualizer events (the elements of one array, comma separated), kept
 * compact: a prepared shape's JSON is not copied into the log each time an event holds it but
 * referred to, its bytes kept once in a table of the log's own (most of a round's event is the
 * same prepared shapes again). Reading gives the text with the references put back, byte for byte
 * what writing the events' JSON whole would have given.
 *
 * Text is collected in a string until a shape or a read comes, so that a round's events (a log
 * line, a destroy, the head of the next create) cost one write into the log, not one each.
 */
export class VisLog implements VisJsonOut {
  private readonly log = new ByteLog();
  private readonly index = new Map<Uint8Array, number>();
  private readonly shared: Uint8Array[] = [];
  private pending = '';
  /** Whether the next piece starts an event, and whether one was written (the next comes after a comma). */
  private atEventStart = true;
  private started = false;
  /** Bytes of the JSON text written to `log` with the references put back. */
  private expanded = 0;

  constructor(private readonly limits: VisLogLimits = VIS_LOG_LIMITS) {}

  /** Bytes of the JSON text so far (the events, comma separated, without the brackets). */
  get jsonLength(): number {
    this.flush();
    return this.expanded;
  }

  /** Bytes the log itself holds (without the table, whose bytes the prepared shapes hold). */
  get compactLength(): number {
    this.flush();
    return this.log.length;
  }

  text(json: string): void {
    this.separate();
    this.pending += json;
  }

  shape(shape: PreparedShape, comma: boolean): void {
    this.separate();
    const head = shape.jsonHead;
    if (head !== '') {
      this.pending += comma ? `,${head}` : head;
      comma = false;
    }
    this.flush();
    const bytes = shape.sharedJson;
    let at = this.index.get(bytes);
    if (at === undefined) {
      if (this.shared.length >= this.limits.maxSharedShapes) {
        if (comma) this.log.appendByte(0x2c); // ,
        this.log.append(bytes);
        this.expanded += bytes.length + (comma ? 1 : 0);
        return;
      }
      at = this.shared.length;
      this.shared.push(bytes);
      this.index.set(bytes, at);
    }
    this.log.appendByte(SHARED);
    let number = at * 2 + (comma ? 1 : 0);
    while (number >= 0x80) {
      this.log.appendByte((number & 0x7f) | 0x80);
      number >>>= 7;
    }
    this.log.appendByte(number);
    this.expanded += bytes.length + (comma ? 1 : 0);
  }

  end(): void {
    this.atEventStart = true;
    if (this.pending.length >= PENDING_CHARS) this.flush();
  }

  /** Copies the JSON text into `target` at `offset` (room for `jsonLength` bytes); returns the bytes copied. */
  copyJsonTo(target: Uint8Array, offset: number): number {
    this.flush();
    const compact = this.log.toBuffer();
    let at = offset;
    let from = 0;
    for (;;) {
      const marker = compact.indexOf(SHARED, from);
      const end = marker < 0 ? compact.length : marker;
      target.set(compact.subarray(from, end), at);
      at += end - from;
      if (marker < 0) return at - offset;
      let number = 0;
      let scale = 1;
      for (from = marker + 1; ; scale *= 0x80) {
        const part = compact[from++]!;
        number += (part & 0x7f) * scale;
        if (part < 0x80) break;
      }
      if (number % 2 === 1) target[at++] = 0x2c; // ,
      const bytes = this.shared[(number - (number % 2)) / 2]!;
      target.set(bytes, at);
      at += bytes.length;
    }
  }

  private separate(): void {
    if (!this.atEventStart) return;
    this.atEventStart = false;
    if (this.started) this.pending += ',';
    this.started = true;
  }

  private flush(): void {
    if (this.pending === '') return;
    const before = this.log.length;
    this.log.append(this.pending);
    this.expanded += this.log.length - before;
    this.pending = '';
  }
}

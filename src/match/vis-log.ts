import type { VisJsonOut } from '../protocol/vis-json.js';
import type { PreparedShape } from '../protocol/vis-shape.js';
import { ByteLog } from '../util/byte-log.js';

export interface VisLogLimits {
  /**
   * Bytes of JSON kept once and referred to (runs of prepared shapes), for every match of the
   * server together. The built-in games draw the same few shapes in every match and need a few
   * KiB; a game that combined them anew all the time would make the table grow, so past this the
   * shapes are copied into the logs.
   */
  readonly maxSharedBytes: number;
}

export const VIS_LOG_LIMITS: VisLogLimits = { maxSharedBytes: 1 << 20 };

/**
 * Marks a reference to shared JSON in the log: a byte that UTF-8 text (and so JSON) never holds.
 * It is followed by the index of the JSON in the table, times two, plus one if a comma comes
 * before it, as an unsigned LEB128 number.
 */
const SHARED = 0xff;

/** Pending text is written out once it is this long (a game without prepared shapes never refers). */
const PENDING_CHARS = 4096;

/** Runs of shapes met so far, by their shapes' bytes in order; `index` where the run is kept. */
interface Run {
  readonly next: Map<Uint8Array, Run>;
  index: number;
}

/**
 * The JSON text of a match's visualizer events (the elements of one array, comma separated), kept
 * compact: prepared shapes are not copied into the log each time an event holds them but referred
 * to, their bytes kept once in a table of the log's own (most of a round's event is the same
 * prepared shapes again). What is referred to is a run of shapes one after another in an event
 * (a round's few gestures, say), so that reading, which puts the runs back in place, copies a few
 * pieces a round rather than one a shape. Reading gives, byte for byte, the text writing the
 * events' JSON whole would have given.
 *
 * Text is collected in a string until a shape or a read comes, so that a round's events (a log
 * line, a destroy, the head of the next create) cost one write into the log, not one each.
 */
export class VisLog implements VisJsonOut {
  /** The shapes of the run being written, and whether a comma comes before it. */
  private readonly run: Uint8Array[] = [];
  private runComma = false;
  private pending = '';
  /** Whether the next piece starts an event, and whether one was written (the next comes after a comma). */
  private atEventStart = true;
  private started = false;
  /** Bytes of the JSON text written to `log` with the references put back. */
  private expanded = 0;

  constructor(
    /** Where the runs are kept: the server's one table, shared by every match (a test gives its own). */
    private readonly table: SharedRuns = SHARED_RUNS,
    /** Where the compact text goes (a test gives one of tiny chunks, to split references). */
    private readonly log: ByteLog = new ByteLog(),
  ) {}

  /** Bytes of the JSON text so far (the events, comma separated, without the brackets). */
  get jsonLength(): number {
    this.flush();
    return this.expanded;
  }

  /** Bytes the log itself holds (without the table of shared JSON, at most `maxSharedBytes`). */
  get compactLength(): number {
    this.flush();
    return this.log.length;
  }

  text(json: string): void {
    this.separate();
    this.endRun();
    this.pending += json;
  }

  shape(shape: PreparedShape, comma: boolean): void {
    this.separate();
    const head = shape.jsonHead;
    if (head !== '') {
      this.endRun();
      this.pending += comma ? `,${head}` : head;
      comma = false;
    }
    if (this.run.length > 0 && !comma) this.endRun();
    if (this.run.length === 0) {
      this.flushText();
      this.runComma = comma;
    }
    this.run.push(shape.sharedJson);
  }

  end(): void {
    this.atEventStart = true;
    if (this.pending.length >= PENDING_CHARS) this.flush();
  }

  /** Copies the JSON text into `target` at `offset` (room for `jsonLength` bytes); returns the bytes copied. */
  copyJsonTo(target: Uint8Array, offset: number): number {
    this.flush();
    let at = offset;
    // Read in place, chunk by chunk (a copy of the whole log first would cost fresh memory); a
    // reference may begin in one chunk and end in the next.
    let inReference = false;
    let number = 0;
    let scale = 1;
    for (const chunk of this.log.chunks()) {
      let from = 0;
      while (from < chunk.length) {
        if (inReference) {
          const part = chunk[from++]!;
          number += (part & 0x7f) * scale;
          scale *= 0x80;
          if (part >= 0x80) continue;
          if (number % 2 === 1) target[at++] = 0x2c; // ,
          const bytes = this.table.bytes((number - (number % 2)) / 2);
          target.set(bytes, at);
          at += bytes.length;
          inReference = false;
          number = 0;
          scale = 1;
          continue;
        }
        const marker = chunk.indexOf(SHARED, from);
        const end = marker < 0 ? chunk.length : marker;
        // A plain view costs less than a Buffer's subarray (which runs Buffer's constructor).
        target.set(new Uint8Array(chunk.buffer, chunk.byteOffset + from, end - from), at);
        at += end - from;
        from = end + 1;
        inReference = marker >= 0;
      }
    }
    return at - offset;
  }

  /** Writes the run of shapes being written: a reference to it, or its bytes past the table's limit. */
  private endRun(): void {
    const run = this.run;
    if (run.length === 0) return;
    let length = run.length - 1; // the commas between the shapes
    for (let i = 0; i < run.length; i++) length += run[i]!.length;
    const index = this.table.indexOf(run, length);
    if (index < 0) {
      this.log.append(joinRun(run, length, this.runComma));
    } else {
      this.log.appendByte(SHARED);
      let number = index * 2 + (this.runComma ? 1 : 0);
      while (number >= 0x80) {
        this.log.appendByte((number & 0x7f) | 0x80);
        number >>>= 7;
      }
      this.log.appendByte(number);
    }
    this.expanded += length + (this.runComma ? 1 : 0);
    run.length = 0;
  }

  private separate(): void {
    if (!this.atEventStart) return;
    this.atEventStart = false;
    // A run ends with its event: the comma between the events comes after it.
    this.endRun();
    if (this.started) this.pending += ',';
    this.started = true;
  }

  private flush(): void {
    this.endRun();
    this.flushText();
  }

  private flushText(): void {
    if (this.pending === '') return;
    const before = this.log.length;
    this.log.append(this.pending);
    this.expanded += this.log.length - before;
    this.pending = '';
  }
}

/** The shapes' JSON with commas between them (`length` bytes), after a comma if `comma`. */
function joinRun(run: readonly Uint8Array[], length: number, comma = false): Uint8Array {
  const joined = new Uint8Array(length + (comma ? 1 : 0));
  let at = 0;
  for (const bytes of run) {
    if (at > 0 || comma) joined[at++] = 0x2c; // ,
    joined.set(bytes, at);
    at += bytes.length;
  }
  return joined;
}

/**
 * Runs of prepared shapes kept once, for every log that refers to them. One table serves the whole
 * server: the runs of a game are the same in all its matches, and a table per match would learn
 * them again in each, and spread over a thousand matches its lookups would miss the processor's
 * caches on every round.
 */
export class SharedRuns {
  /** Runs met so far, by their shapes' bytes in order (a trie); `index` where the run is kept. */
  private readonly runs = new Map<Uint8Array, Run>();
  private readonly shared: Uint8Array[] = [];
  private sharedBytes = 0;

  constructor(private readonly limits: VisLogLimits = VIS_LOG_LIMITS) {}

  /** The index of `run` (its JSON `length` bytes), kept now if it is new and there is room; -1 past the limit. */
  indexOf(run: readonly Uint8Array[], length: number): number {
    let node: Run | undefined;
    let next = this.runs;
    for (let i = 0; i < run.length; i++) {
      node = next.get(run[i]!);
      if (node === undefined) {
        node = { next: new Map(), index: -1 };
        next.set(run[i]!, node);
      }
      next = node.next;
    }
    if (node!.index < 0 && this.sharedBytes + length <= this.limits.maxSharedBytes) {
      node!.index = this.shared.length;
      this.shared.push(joinRun(run, length));
      this.sharedBytes += length;
    }
    // Past the limit: forgotten again (the trie holds only runs kept in the table).
    if (node!.index < 0) this.forget(run);
    return node!.index;
  }

  /** The JSON of the run kept at `index`, with commas between its shapes. */
  bytes(index: number): Uint8Array {
    return this.shared[index]!;
  }

  /** Removes the trie nodes of `run` that lead to no kept run. */
  private forget(run: readonly Uint8Array[]): void {
    const path: Map<Uint8Array, Run>[] = [this.runs];
    for (const bytes of run) path.push(path[path.length - 1]!.get(bytes)!.next);
    for (let i = run.length - 1; i >= 0; i--) {
      const node = path[i]!.get(run[i]!)!;
      if (node.index >= 0 || node.next.size > 0) return;
      path[i]!.delete(run[i]!);
    }
  }
}

/** The server's table of shared runs. */
const SHARED_RUNS = new SharedRuns();

import { ByteLog } from '../util/byte-log.js';

export const TRANSCRIPT_LIMITS = {
  /**
   * Bytes of one seat's transcript as text; what comes after is left out, and the transcript says
   * so. The records kept meanwhile take at most 10/9 of the text they render (see SeatTranscript).
   */
  maxBytes: 4 << 20,
  /**
   * Characters of a line still waiting for its newline; past it the piece is written as a line of
   * its own that says it goes on, so a peer that never sends a newline cannot grow it.
   */
  maxPendingChars: 16 * 1024,
} as const;

/** `<` the player received it from the game, `>` the player sent it, `#` the runtime's note. */
const KINDS = ['<', '>', '#'] as const;
type Kind = (typeof KINDS)[number];
type Direction = Exclude<Kind, '#'>;
const KIND_CODES: Readonly<Record<Kind, number>> = { '<': 0, '>': 1, '#': 2 };
const KIND_BYTES = KINDS.map((kind) => kind.charCodeAt(0));

/** How a line's text ends: as it came, or with why it has no newline (always ASCII). */
const ENDINGS = ['', ' (no newline)', ' (the line goes on)'] as const;
const AS_IT_CAME = 0;
const NO_NEWLINE = 1;
const GOES_ON = 2;

/** In a record's tag: a float64 time follows (the record's time differs from the one before). */
const NEW_TIME = 0x10;
const LF = 0x0a;
const NEWLINE = Uint8Array.of(LF);

/**
 * What passed between the game and one seat, line by line in the order it happened, each line
 * stamped with the match time: the first thing a bot's author reads when a match went wrong.
 *
 *     # seat 0, alice: "<" received from the game, ">" sent by the player; seconds since the start
 *     0.000 < alice
 *     0.012 > ROCK
 *
 * A line is written when it is complete; text without a final newline is written at the end.
 *
 * Nothing reads the transcript before the match ends, so a line is kept as the bytes that passed,
 * in a record turned into its text only by `text()`: on the server's hot path a line costs two or
 * three byte copies instead of formatting its time and encoding a string. A record is
 *
 *     tag (kind | ending << 2 | NEW_TIME) · time (float64, when NEW_TIME) · the line's bytes · LF
 *
 * The line's bytes never hold a LF (lines are cut there), so the LF ends the record. A record
 * takes at most one byte more than its text (a stamp is at least 5 characters, " < " 3 more; the
 * tag and the time 9 bytes), and a line of text at least 9 bytes: the records of a full transcript
 * take at most 10/9 of TRANSCRIPT_LIMITS.maxBytes.
 */
export class SeatTranscript {
  private readonly log = new ByteLog();
  private readonly header: string;
  /** Bytes of the text the records render, header included: what the limit counts. */
  private textBytes: number;
  private readonly pending: Record<Direction, PendingLine> = { '<': new PendingLine(), '>': new PendingLine() };
  private full = false;
  /** The time of the last record; a record at the same time leaves its time out. */
  private lastTime = NaN;
  /** A record's tag and time, written here before they are appended. */
  private readonly head = Buffer.alloc(9);
  private readonly tagAlone = this.head.subarray(0, 1);

  constructor(
    header: string,
    private readonly now: () => number,
    /** Told once, when the transcript fills up (TRANSCRIPT_LIMITS.maxBytes): what it holds is all it will hold. */
    private readonly onFull: (() => void) | null = null,
  ) {
    this.header = `# ${header}: "<" received from the game, ">" sent by the player; seconds since the match started\n`;
    this.textBytes = Buffer.byteLength(this.header);
  }

  /** Text the game sent to the player (as the bytes sent, or as text). */
  fromGame(data: Uint8Array | string): void {
    this.add('<', bytesOf(data));
  }

  /** Text the player sent to the game (as the bytes received, or as text). */
  fromPlayer(data: Uint8Array | string): void {
    this.add('>', bytesOf(data));
  }

  /**
   * One line the player sent, its newline already taken off (as the bytes received, or as text):
   * it holds no LF, as the line splitter cuts lines there.
   */
  lineFromPlayer(line: Uint8Array | string): void {
    if (this.full) return;
    const bytes = bytesOf(line);
    this.lineFromPlayerRange(bytes, 0, bytes.length);
  }

  /**
   * As `lineFromPlayer`, for the line `bytes[start..end)` where the seat cut it from what it
   * received: no view of the line is made (match/seat.ts).
   */
  lineFromPlayerRange(bytes: Uint8Array, start: number, end: number): void {
    if (this.full) return;
    if (this.begin('>', AS_IT_CAME, this.now(), end - start)) {
      this.log.appendRange(bytes, start, end);
      this.log.appendByte(LF);
    }
  }

  /** Something the runtime saw happen to the seat (closed, and why); a line break starts another note. */
  note(text: string): void {
    const time = this.now();
    for (const line of text.split('\n')) {
      const bytes = Buffer.from(line, 'utf8');
      if (!this.begin('#', AS_IT_CAME, time, bytes.length)) return;
      this.log.append(bytes);
      this.log.append(NEWLINE);
    }
  }

  /**
   * The first `count` lines the player sent (fewer if the transcript holds fewer), as the game read
   * them: what a replay of the match gives the game (match/vis-replay.ts). Reads the records
   * without changing them, so it may be called while the match goes on.
   */
  playerLines(count: number): string[] {
    const lines: string[] = [];
    if (count === 0) return lines;
    this.forPlayerRecords((records, start, end, asItCame) => {
      if (asItCame) lines.push(records.toString('utf8', start, end));
      return lines.length < count;
    });
    return lines;
  }

  /**
   * What the player sent so far, for a game that reads text as it arrives (`text` framing), as the
   * pieces the transcript holds: a line with its newline, or a piece without one (the line goes on,
   * or it is the unfinished end, however much of it came). What a replay following the match is
   * given first (match.ts), cut where the game had read to (`firstCodeUnits`).
   */
  playerPieces(): string[] {
    const pieces: string[] = [];
    this.forPlayerRecords((records, start, end, asItCame) => pieces.push(records.toString('utf8', start, asItCame ? end + 1 : end)) > 0);
    const pending = this.pending['>'];
    if (pending.bytes > 0) pieces.push(pending.text());
    return pieces;
  }

  /**
   * Calls `visit` with each record of what the player sent, in order (its text is
   * `records[start..end)`, and `records[end]` its LF; `asItCame` when the line ended with a
   * newline), while it returns true. Reads the records without changing them.
   */
  private forPlayerRecords(visit: (records: Buffer, start: number, end: number, asItCame: boolean) => boolean): void {
    const records = this.log.toBuffer();
    let read = 0;
    while (read < records.length) {
      const tag = records[read++]!;
      if (tag & NEW_TIME) read += 8;
      const end = records.indexOf(LF, read);
      if ((tag & 3) === KIND_CODES['>'] && !visit(records, read, end, ((tag >> 2) & 3) === AS_IT_CAME)) return;
      read = end + 1;
    }
  }

  /** The transcript so far, with any unfinished line; never more than TRANSCRIPT_LIMITS.maxBytes. */
  text(): string {
    for (const direction of ['<', '>'] as const) {
      if (this.pending[direction].bytes > 0) this.writePending(direction, NO_NEWLINE);
    }
    return this.render();
  }

  private add(direction: Direction, bytes: Uint8Array): void {
    if (this.full) return;
    const pending = this.pending[direction];
    let newline = bytes.indexOf(LF);
    // The common case, one whole line: its bytes with their LF are the end of the record.
    if (newline !== -1 && newline === bytes.length - 1 && pending.bytes === 0) {
      if (this.begin(direction, AS_IT_CAME, this.now(), bytes.length - 1)) this.log.append(bytes);
      return;
    }
    if (newline === -1) {
      pending.add(bytes);
      if (pending.chars > TRANSCRIPT_LIMITS.maxPendingChars) this.writePending(direction, GOES_ON);
      return;
    }
    const time = this.now();
    let start = 0;
    while (newline !== -1) {
      if (this.begin(direction, AS_IT_CAME, time, pending.bytes + newline - start)) {
        pending.writeTo(this.log);
        this.log.appendRange(bytes, start, newline + 1);
      }
      pending.clear();
      start = newline + 1;
      newline = bytes.indexOf(LF, start);
    }
    pending.add(bytes.subarray(start));
  }

  /** Writes the unfinished line as a line of its own, saying why it has no newline. */
  private writePending(direction: Direction, ending: number): void {
    const pending = this.pending[direction];
    if (this.begin(direction, ending, this.now(), pending.bytes)) {
      pending.writeTo(this.log);
      this.log.append(NEWLINE);
    }
    pending.clear();
  }

  /**
   * Starts the record of a line of `contentBytes` bytes, unless the transcript is full or the
   * line's text would pass the limit (then it is full). The caller appends the bytes and the LF.
   */
  private begin(kind: Kind, ending: number, time: number, contentBytes: number): boolean {
    if (this.full) return false;
    const lineBytes = stampLength(time) + 3 + contentBytes + ENDINGS[ending]!.length + 1;
    if (this.textBytes + lineBytes > TRANSCRIPT_LIMITS.maxBytes) {
      this.full = true;
      this.onFull?.();
      return false;
    }
    this.textBytes += lineBytes;
    const tag = KIND_CODES[kind] | (ending << 2);
    // Equal times have equal stamps (0 and -0 too); NaN is never equal, so it is always written.
    if (time === this.lastTime) {
      this.tagAlone[0] = tag;
      this.log.append(this.tagAlone);
    } else {
      this.head[0] = tag | NEW_TIME;
      this.head.writeDoubleLE(time, 1);
      this.log.append(this.head);
      this.lastTime = time;
    }
    return true;
  }

  /** The records as text: `textBytes` bytes, then the closing line of a full transcript. */
  private render(): string {
    const records = this.log.toBuffer();
    const closing = this.full ? `# the transcript stops here: it reached ${TRANSCRIPT_LIMITS.maxBytes} bytes\n` : '';
    const text = Buffer.allocUnsafe(this.textBytes + closing.length);
    let at = text.write(this.header, 0, 'utf8');
    let stamp = '';
    let read = 0;
    while (read < records.length) {
      const tag = records[read++]!;
      if (tag & NEW_TIME) {
        stamp = records.readDoubleLE(read).toFixed(3);
        read += 8;
      }
      const end = records.indexOf(LF, read);
      // Byte by byte where the pieces are short: a call into Buffer's copy costs more than a few bytes.
      for (let i = 0; i < stamp.length; i++) text[at++] = stamp.charCodeAt(i);
      text[at++] = 0x20;
      text[at++] = KIND_BYTES[tag & 3]!;
      text[at++] = 0x20;
      if (end - read > 32) at += records.copy(text, at, read, end);
      else while (read < end) text[at++] = records[read++]!;
      const ending = (tag >> 2) & 3;
      if (ending !== AS_IT_CAME) at += text.write(ENDINGS[ending]!, at, 'latin1');
      text[at++] = LF;
      read = end + 1;
    }
    at += text.write(closing, at, 'latin1');
    return text.toString('utf8', 0, at);
  }
}

/** A line still waiting for its newline, as the pieces of it that came. */
class PendingLine {
  private pieces: Buffer[] = [];
  bytes = 0;
  /** UTF-16 code units, as the JavaScript strings the limit was first written for count them. */
  chars = 0;

  add(bytes: Uint8Array): void {
    if (bytes.length === 0) return;
    // A copy: the caller's bytes may be a view into a buffer that is used again.
    this.pieces.push(Buffer.from(bytes));
    this.bytes += bytes.length;
    this.chars += utf16Length(bytes);
  }

  writeTo(log: ByteLog): void {
    for (const piece of this.pieces) log.append(piece);
  }

  text(): string {
    return Buffer.concat(this.pieces).toString('utf8');
  }

  clear(): void {
    if (this.bytes === 0) return;
    this.pieces = [];
    this.bytes = 0;
    this.chars = 0;
  }
}

function bytesOf(data: Uint8Array | string): Uint8Array {
  return typeof data === 'string' ? Buffer.from(data, 'utf8') : data;
}

/** UTF-16 code units of valid UTF-8: a character of four bytes takes two, any other one. */
function utf16Length(bytes: Uint8Array): number {
  let units = 0;
  for (const byte of bytes) {
    if ((byte & 0xc0) !== 0x80) units += byte >= 0xf0 ? 2 : 1;
  }
  return units;
}

/**
 * Characters of `seconds.toFixed(3)`, without formatting it: the digits before the point, the
 * point and three decimals. Formatted only near a power of ten, where rounding may carry into
 * another digit, and for what is not a plain non-negative number.
 */
export function stampLength(seconds: number): number {
  let digits = 1;
  let power = 10;
  while (seconds >= power && digits < 21) {
    power *= 10;
    digits++;
  }
  if (seconds >= 0 && seconds < power - 0.001) return digits + 4;
  return seconds.toFixed(3).length;
}

/**
 * The first `count` lines the player sent, read from a transcript's text (the artifact
 * `transcript-N.txt` of a finished match): the text of its `>` lines, as `playerLines` gives them.
 */
export function playerLinesOf(transcript: string, count: number): string[] {
  const lines: string[] = [];
  if (count > 0) forPlayerLines(transcript, (line) => lines.push(line) < count);
  return lines;
}

/**
 * What the player sent, read from its transcript's text, for a game that reads text as it arrives:
 * as `playerPieces` gives it, a line with its newline, a piece whose line goes on or that ended
 * without one without. A line the player sent that itself ends with those words (" (no newline)")
 * reads as such a piece: the text format cannot tell them apart.
 */
export function playerPiecesOf(transcript: string): string[] {
  const pieces: string[] = [];
  forPlayerLines(transcript, (line) => {
    const ending = ENDINGS.findIndex((words, index) => index !== AS_IT_CAME && line.endsWith(words));
    pieces.push(ending === -1 ? `${line}\n` : line.slice(0, line.length - ENDINGS[ending]!.length));
    return true;
  });
  return pieces;
}

/** Calls `take` with the text of each `>` line of a transcript's text, in order, while it returns true. */
function forPlayerLines(transcript: string, take: (line: string) => boolean): void {
  let start = 0;
  while (start < transcript.length) {
    let end = transcript.indexOf('\n', start);
    if (end < 0) end = transcript.length;
    // `0.012 > ROCK`: a stamp without spaces, the direction, the line (the header starts with `# `).
    const space = transcript.indexOf(' ', start);
    if (space >= 0 && space < end && transcript.startsWith('> ', space + 1) && !take(transcript.slice(space + 3, end))) return;
    start = end + 1;
  }
}

/** The first `count` UTF-16 code units of `pieces`, as pieces (the last one cut where the count ends). */
export function firstCodeUnits(pieces: readonly string[], count: number): string[] {
  const first: string[] = [];
  let left = count;
  for (const piece of pieces) {
    if (left <= 0) break;
    first.push(piece.length <= left ? piece : piece.slice(0, left));
    left -= piece.length;
  }
  return first;
}

/**
 * The runtime's code for a seat's closing (`timeout`, `removed`...) read from its transcript (the
 * artifact `transcript-N.txt` of a finished match), or null when it was not closed before the end.
 */
export function closureReason(transcript: string): string | null {
  const line = transcript.split('\n').find((text) => /^\S+ # the seat was closed: /.test(text));
  return line === undefined ? null : line.replace(/^\S+ # the seat was closed: /, '');
}

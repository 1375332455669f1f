import type { LineError } from '../protocol/line-splitter.js';
import type { MatchClock } from './match-clock.js';
import type { SeatTranscript } from './seat-transcript.js';

/** What follows a seat's lines as the game takes them (a replay drawing the match: match/replay-seat.ts). */
export interface SeatFollower {
  push(line: string): void;
  /** The game read the end of the seat's input; `reason` is why the seat is closed, null when it is not yet (the player went away). */
  end(reason: SeatCloseReason | null): void;
}

/** The connection behind a seat: a WebSocket, a TCP socket, a child process or an in-process bot. */
export interface SeatTransport {
  /** Bytes from the game to the player, in order. */
  send(bytes: Uint8Array): void;
  /** The game is done with this player (match over, or the seat was closed). Called once. */
  close(reason: SeatCloseReason): void;
}

export type SeatCloseReason =
  | 'disconnected'
  | 'timeout'
  | LineError
  /** More unread input than SEAT_LIMITS.maxQueuedBytes: the player floods. */
  | 'flood'
  | 'removed'
  /** The server is stopping: the match ends early, no player's fault. */
  | 'shutdown'
  | 'match-over';

/**
 * How a game reads its players: `lines` (most games) or `text`, the pieces of text as they arrive,
 * for protocols whose messages need no line break (an XML stream).
 */
export type SeatFraming = 'lines' | 'text';

export const SEAT_LIMITS = {
  /** Input a player may have sent that the game has not read yet. */
  maxQueuedBytes: 1 << 20,
} as const;

export interface SeatOptions {
  readonly index: number;
  readonly name: string;
  readonly isBot: boolean;
  /** Default limit of one read, in seconds (the match's inactivity timeout). */
  readonly timeoutSeconds: number;
  readonly maxLineBytes: number;
  readonly clock: MatchClock;
  readonly framing?: SeatFraming;
  /** Where what passes through the seat is written down, if anywhere. */
  readonly transcript?: SeatTranscript;
  /** Told each time the game reads a line (or piece of text) from the player. */
  readonly onRead?: () => void;
  /**
   * Whether the game may still write to the player after a bad line closed its seat, until the game
   * closes the seat or the match ends (GameDefinition.answersBadLines); otherwise the connection is
   * closed at once.
   */
  readonly outputAfterBadLine?: boolean;
  /** Told once, when the seat closes (the live page's seats: VisSeats). */
  readonly onClose?: (reason: SeatCloseReason) => void;
}

/** How long a read may wait, and what the player is told when it waits too long. */
export interface ReadOptions {
  /** The read's limit in seconds (Infinity: none); the match's inactivity timeout by default. */
  readonly timeoutSeconds?: number;
  /**
   * Called when the read times out, just before the seat closes with 'timeout': the game's last
   * words to the player (a closed seat takes no more output), e.g. dama's "timed out". Make it once
   * per seat, not per read.
   */
  readonly beforeTimeOut?: () => void;
}

/** What a game sees of one player: a line stream in, a byte stream out. */
export interface PlayerSeat {
  readonly index: number;
  readonly name: string;
  readonly isBot: boolean;
  /** Whether the seat has been closed (the player left, timed out, misbehaved or was removed). */
  readonly closed: boolean;
  readonly closeReason: SeatCloseReason | null;
  /**
   * The next line the player sent (with `text` framing: the next piece of text as it arrived), or
   * null once the player is gone. A read that waits longer than the timeout (the match's by
   * default) closes the seat with reason 'timeout' and returns null.
   */
  readLine(options?: ReadOptions): Promise<string | null>;
  /**
   * As `readLine`, without a promise: `taker` gets the line (or null) before this returns if it
   * is there already, else when it comes, the player leaves or the read times out. For a game
   * that reads several players at once (match/each-reader.ts).
   */
  takeLine(taker: (line: string | null) => void, options?: ReadOptions): void;
  /** Sends text to the player as it is (add the newline yourself). Ignored once closed. */
  write(text: string): void;
  /**
   * As `write`, for text already encoded: a line a game sends again and again (a gesture, say),
   * encoded once. The bytes are sent and kept as they are, so they must never change.
   */
  writeBytes(bytes: Uint8Array): void;
  /** Removes the player from the game: no more input is read and the connection is closed. */
  close(reason?: SeatCloseReason): void;
}

/** Who takes a seat's next line (or the end, null): a read waiting for it. */
type LineTaker = (line: string | null) => void;

const LF = 0x0a;
const CR = 0x0d;
/** The first room for a line that came in pieces; it doubles up to the line limit as needed. */
const FIRST_PENDING_BYTES = 256;
/** Lines taken from the front of the queue before the array is compacted (as a ring would, without one). */
const COMPACT_AFTER = 1024;
/** The room of a long line that came in pieces is let go once the line is read; a room this size is kept. */
const MAX_KEPT_PENDING_BYTES = 4096;

/** Whether `bytes[start..end)` is ASCII, so that it decodes as Latin-1 without a check or a view. */
function isAscii(bytes: Uint8Array, start: number, end: number): boolean {
  for (let i = start; i < end; i++) if (bytes[i]! >= 0x80) return false;
  return true;
}

/**
 * One seat of a running match, joining a transport to the game's line protocol.
 *
 * A seat is the one object a line passes through on the match's hot path, from the transport's
 * bytes to the game: it cuts the bytes into lines itself (the LineSplitter's rules, kept in fields
 * here: the piece of a line still waiting for its newline is one buffer of the seat), writes each
 * line to its transcript as a range of the bytes received, and keeps the lines the game has not read
 * in its own queue, handing a line straight to a waiting read. In steady state the seat makes a
 * line's string and no other object for it: no view of the bytes, no closure, promise or event
 * object (a read through `readLine` still costs its promise; `takeLine` does not).
 */
export class Seat implements PlayerSeat {
  readonly index: number;
  readonly name: string;
  readonly isBot: boolean;
  /** Lines received and not read yet, from `head` on, and what each counted against the unread budget. */
  private readonly lines: string[] = [];
  private readonly lineSizes: number[] = [];
  private head = 0;
  /** The read waiting for a line, if any (one at a time). */
  private waiter: LineTaker | null = null;
  /** No more lines will be queued (the input ended or the seat was closed); the queue drains, then reads get null. */
  private queueEnded = false;
  /** `lines` framing: a line's bytes longer than this are the player's fault ('line/too-long'); 0 for `text` framing. */
  private readonly maxLineBytes: number;
  private readonly splitsLines: boolean;
  /** The bytes of a line still waiting for its newline: `pendingBytes` of `pending` (allocated when first needed). */
  private pending: Buffer | null = null;
  private pendingBytes = 0;
  /** The line splitting stopped at a bad line (too long, invalid UTF-8): nothing more is read. */
  private splitFailed = false;
  /** Decodes what is not ASCII (fatal: invalid UTF-8 is the player's fault); for `text` framing, in stream mode. */
  private readonly decoder: InstanceType<typeof TextDecoder>;
  private queuedBytes = 0;
  private readonly timeoutSeconds: number;
  private readonly clock: MatchClock;
  private readonly transcript: SeatTranscript | null;
  private readonly onRead: (() => void) | null;
  private readonly onClose: ((reason: SeatCloseReason) => void) | null;
  private transport: SeatTransport | null = null;
  private reason: SeatCloseReason | null = null;
  /**
   * Closed for a bad line (too long, invalid UTF-8): the lines the player sent before it can still
   * be read, as a program reading the stream line by line would have seen them.
   */
  private keepsEarlierLines = false;
  private readonly outputAfterBadLine: boolean;
  /** Closed for a bad line, and the game may still tell the player what came of it. */
  private writableAfterClose = false;
  /** Whether the transport has been told that the seat is closed. */
  private transportClosed = false;
  private inputEnded = false;
  /** Bytes sent by the game before a transport was attached. */
  private early: Uint8Array[] = [];
  /** When the waiting read gives up (the clock's monotonic milliseconds); Infinity when none waits. */
  private readDeadline = Infinity;
  /**
   * The timer behind `readDeadline`. It is armed by a read that waits and left running when the
   * read is answered; when it fires before the deadline of the read then waiting, it is armed again
   * for the rest. A player answering in time thus costs no timer per read.
   */
  private cancelDeadlineTimer: (() => void) | null = null;
  private deadlineTimerAt = Infinity;
  /** The waiting read's `ReadOptions.beforeTimeOut`. */
  private beforeTimeOut: (() => void) | null = null;
  /** Lines the game has read from this seat. */
  linesTaken = 0;
  /** UTF-16 code units of the lines (with `text` framing, the pieces of text) the game has read: a text replay's input (match/vis-replay.ts). */
  textTaken = 0;
  /** Whether the game has read the end of this seat's input. */
  endTaken = false;
  /** The seat of a replay following the match (match/vis-replay.ts): it gets each line the game reads, and the end. */
  follower: SeatFollower | null = null;

  constructor(options: SeatOptions) {
    this.index = options.index;
    this.name = options.name;
    this.isBot = options.isBot;
    this.timeoutSeconds = options.timeoutSeconds;
    this.clock = options.clock;
    this.transcript = options.transcript ?? null;
    this.onRead = options.onRead ?? null;
    this.onClose = options.onClose ?? null;
    this.outputAfterBadLine = options.outputAfterBadLine ?? false;
    this.splitsLines = (options.framing ?? 'lines') === 'lines';
    this.maxLineBytes = this.splitsLines ? options.maxLineBytes : 0;
    this.decoder = new TextDecoder('utf-8', { fatal: true });
  }

  get closed(): boolean {
    return this.reason !== null;
  }

  get closeReason(): SeatCloseReason | null {
    return this.reason;
  }

  /** Connects the player's transport; output written so far is sent first. */
  attach(transport: SeatTransport): void {
    this.transport = transport;
    for (const bytes of this.early) transport.send(bytes);
    this.early = [];
    if (this.transportClosed && this.reason) transport.close(this.reason);
  }

  /** Bytes from the player. */
  receive(chunk: Uint8Array): void {
    if (this.reason || this.inputEnded) return;
    if (this.splitsLines) return this.split(Buffer.isBuffer(chunk) ? chunk : Buffer.from(chunk.buffer, chunk.byteOffset, chunk.byteLength));
    let text: string;
    try {
      text = this.decoder.decode(chunk, { stream: true });
    } catch {
      return this.close('line/invalid-utf8');
    }
    if (text.length > 0) {
      this.transcript?.fromPlayer(text);
      this.enqueue(text, chunk.length);
    }
  }

  /**
   * Cuts `chunk` into lines with LineSplitter's rules and limits (protocol/line-splitter.ts): LF
   * ends a line and one CR before it is dropped; a line longer than `maxLineBytes` is refused
   * before its bytes are kept, and one that is not UTF-8 stops the reading. A line that lies whole
   * in the chunk is read where it lies; one that came in pieces is put together in `pending`.
   */
  private split(chunk: Buffer): void {
    if (this.splitFailed) return;
    let start = 0;
    while (start < chunk.length) {
      const lf = chunk.indexOf(LF, start);
      const end = lf === -1 ? chunk.length : lf;
      if (this.pendingBytes + (end - start) > this.maxLineBytes) return this.failSplit('line/too-long');
      if (lf === -1) return this.keepPending(chunk, start, end);
      const lineStart = start;
      start = lf + 1;
      if (this.pendingBytes === 0) {
        if (!this.cutLine(chunk, lineStart, end)) return;
        continue;
      }
      this.keepPending(chunk, lineStart, end);
      const bytes = this.pendingBytes;
      this.pendingBytes = 0;
      if (!this.cutLine(this.pending!, 0, bytes)) return;
      this.releaseLargePending();
    }
  }

  /**
   * The line `bytes[start..end)` (its LF taken off): decoded, written to the transcript and queued.
   * False when the reading stopped (the line is not UTF-8).
   */
  private cutLine(bytes: Buffer, start: number, end: number): boolean {
    if (end > start && bytes[end - 1] === CR) end--;
    let text: string;
    if (isAscii(bytes, start, end)) text = bytes.toString('latin1', start, end);
    else {
      try {
        text = this.decoder.decode(bytes.subarray(start, end));
      } catch {
        this.failSplit('line/invalid-utf8');
        return false;
      }
    }
    // Written down before the game sees it: the game may answer (and be written down) at once.
    this.transcript?.lineFromPlayerRange(bytes, start, end);
    // The line break counts: a flood of empty lines must fill the budget too.
    this.enqueue(text, end - start + 1);
    return true;
  }

  /** Keeps `chunk[start..end)`, a piece of a line still waiting for its newline. */
  private keepPending(chunk: Buffer, start: number, end: number): void {
    const needed = this.pendingBytes + (end - start);
    if (this.pending === null || needed > this.pending.length) {
      // At most maxLineBytes are ever kept (checked before), so the room never passes it.
      const room = Math.max(needed, Math.min(this.maxLineBytes, Math.max(FIRST_PENDING_BYTES, (this.pending?.length ?? 0) * 2)));
      const grown = Buffer.allocUnsafe(room);
      if (this.pending !== null) this.pending.copy(grown, 0, 0, this.pendingBytes);
      this.pending = grown;
    }
    chunk.copy(this.pending, this.pendingBytes, start, end);
    this.pendingBytes = needed;
  }

  /** A long line's room is not kept for the rest of the match: most lines are short. */
  private releaseLargePending(): void {
    if (this.pending !== null && this.pending.length > MAX_KEPT_PENDING_BYTES) this.pending = null;
  }

  private failSplit(code: LineError): void {
    this.splitFailed = true;
    this.pending = null;
    this.pendingBytes = 0;
    this.closeForBadLine(code);
  }

  private enqueue(text: string, bytes: number): void {
    this.queuedBytes += bytes;
    if (this.queuedBytes > SEAT_LIMITS.maxQueuedBytes) return this.close('flood');
    if (this.queueEnded) return;
    if (this.waiter !== null) {
      this.queuedBytes -= bytes;
      return this.hand(text);
    }
    this.lines.push(text);
    this.lineSizes.push(bytes);
  }

  /** The player's input ended (disconnect, end of file): the game sees the end after the last line. */
  receiveEnd(): void {
    if (this.inputEnded) return;
    this.inputEnded = true;
    if (!this.reason) this.transcript?.note('the player closed its end (disconnected or exited)');
    if (this.splitsLines) {
      // A final line without LF is a line, as programs that forget the last newline expect.
      if (!this.splitFailed && this.pendingBytes > 0) {
        const bytes = this.pendingBytes;
        this.pendingBytes = 0;
        this.cutLine(this.pending!, 0, bytes);
      }
    } else {
      try {
        const rest = this.decoder.decode();
        if (rest.length > 0) {
          this.transcript?.fromPlayer(rest);
          this.enqueue(rest, Buffer.byteLength(rest));
        }
      } catch {
        this.close('line/invalid-utf8');
      }
    }
    this.endQueue();
  }

  readLine(options?: ReadOptions): Promise<string | null> {
    if (this.reason && !this.keepsEarlierLines) {
      this.takeEnd();
      return Promise.resolve(null);
    }
    const line = this.poll();
    const read = line !== undefined ? Promise.resolve(line) : new Promise<string | null>((resolve) => (this.waiter = resolve));
    this.limitWait(options);
    return read;
  }

  takeLine(taker: (line: string | null) => void, options?: ReadOptions): void {
    if (this.reason && !this.keepsEarlierLines) {
      this.takeEnd();
      return taker(null);
    }
    const line = this.poll();
    if (line !== undefined) taker(line);
    else this.waiter = taker;
    this.limitWait(options);
  }

  /** A read that has to wait gives up after its timeout (the match's by default). */
  private limitWait(options: ReadOptions | undefined): void {
    if (this.waiter === null) return;
    const seconds = options?.timeoutSeconds ?? this.timeoutSeconds;
    if (!Number.isFinite(seconds)) return;
    this.beforeTimeOut = options?.beforeTimeOut ?? null;
    this.waitAtMost(seconds * 1000);
  }

  /** The next line or null (the end), taken; undefined when the reader must wait. One read at a time. */
  private poll(): string | null | undefined {
    if (this.waiter !== null) throw new Error('Seat has one reader; a read is already waiting');
    if (this.head < this.lines.length) {
      const line = this.lines[this.head]!;
      this.queuedBytes -= this.lineSizes[this.head]!;
      this.head++;
      if (this.head > COMPACT_AFTER && this.head * 2 > this.lines.length) {
        this.lines.splice(0, this.head);
        this.lineSizes.splice(0, this.head);
        this.head = 0;
      }
      this.taken(line);
      return line;
    }
    if (this.queueEnded) {
      this.takenEnd();
      return null;
    }
    return undefined;
  }

  /** Gives the waiting read its line, or the end (null). */
  private hand(line: string | null): void {
    const take = this.waiter!;
    this.waiter = null;
    if (line === null) this.takenEnd();
    else this.taken(line);
    take(line);
  }

  /** No more lines will be queued; a waiting or later read gets null once the queue is drained. */
  private endQueue(): void {
    if (this.queueEnded) return;
    this.queueEnded = true;
    if (this.waiter !== null && this.head >= this.lines.length) this.hand(null);
  }

  /** Drops the lines not read yet and ends the queue. */
  private closeQueue(): void {
    this.lines.length = 0;
    this.lineSizes.length = 0;
    this.head = 0;
    this.endQueue();
  }

  /** The reader takes a line. */
  private taken(line: string): void {
    this.readDeadline = Infinity;
    this.beforeTimeOut = null;
    this.linesTaken++;
    this.textTaken += line.length;
    this.follower?.push(line);
    this.onRead?.();
  }

  /** The reader takes the end of the input. */
  private takenEnd(): void {
    this.readDeadline = Infinity;
    this.beforeTimeOut = null;
    this.takeEnd();
    // After the reader has seen the end, as a program reading its input would.
    if (!this.reason) {
      queueMicrotask(() => {
        if (!this.reason) this.close('disconnected');
      });
    }
  }

  /** The game read the end of this seat's input. */
  private takeEnd(): void {
    this.endTaken = true;
    this.follower?.end(this.reason);
  }

  private waitAtMost(ms: number): void {
    this.readDeadline = this.clock.monotonic() + ms;
    if (this.cancelDeadlineTimer !== null && this.deadlineTimerAt <= this.readDeadline) return;
    this.cancelDeadlineTimer?.();
    this.armDeadlineTimer(ms);
  }

  private armDeadlineTimer(ms: number): void {
    this.deadlineTimerAt = this.clock.monotonic() + ms;
    this.cancelDeadlineTimer = this.clock.after(ms, () => {
      this.cancelDeadlineTimer = null;
      if (this.readDeadline === Infinity) return;
      const left = this.readDeadline - this.clock.monotonic();
      if (left > 0) return this.armDeadlineTimer(left);
      this.readDeadline = Infinity;
      const lastWords = this.beforeTimeOut;
      this.beforeTimeOut = null;
      lastWords?.();
      this.close('timeout');
    });
  }

  write(text: string): void {
    if (this.reason && !this.writableAfterClose) return;
    this.writeBytes(Buffer.from(text, 'utf8'));
  }

  writeBytes(bytes: Uint8Array): void {
    if (this.reason && !this.writableAfterClose) return;
    this.transcript?.fromGame(bytes);
    if (this.transport) this.transport.send(bytes);
    else this.early.push(bytes);
  }

  /**
   * Closes the seat: no more input is read. The transport is told now, unless `tellTransport` is
   * false: then it is told by `release()` (the match is over, but its record is not kept yet).
   */
  close(reason: SeatCloseReason = 'removed', tellTransport = true): void {
    if (this.reason) {
      // Closed for a bad line and now removed by the game (or the match ended): nothing more to read.
      if (this.keepsEarlierLines) {
        this.keepsEarlierLines = false;
        this.closeQueue();
      }
      if (this.writableAfterClose) {
        this.writableAfterClose = false;
        if (tellTransport) this.release();
      }
      return;
    }
    this.reason = reason;
    this.transcript?.note(reason === 'match-over' ? 'the match is over' : `the seat was closed: ${reason}`);
    this.stopDeadlineTimer();
    this.closeQueue();
    if (tellTransport) this.release();
    this.onClose?.(reason);
  }

  private stopDeadlineTimer(): void {
    this.readDeadline = Infinity;
    this.beforeTimeOut = null;
    this.cancelDeadlineTimer?.();
    this.cancelDeadlineTimer = null;
  }

  /**
   * A bad line closes the seat at once (the player is told, unless the game answers bad lines), but the lines before it stay
   * readable: a player whose good lines and bad line arrive in one chunk loses nothing it sent
   * in good form. The game reads them, then the end.
   */
  private closeForBadLine(code: LineError): void {
    if (this.reason) return;
    this.keepsEarlierLines = true;
    this.reason = code;
    this.transcript?.note(`the seat was closed: ${code}`);
    this.stopDeadlineTimer();
    this.endQueue();
    // A game that answers bad lines closes the connection itself (or the match's end does), after its answer.
    this.writableAfterClose = this.outputAfterBadLine;
    if (!this.writableAfterClose) this.release();
    this.onClose?.(code);
  }

  /** Tells the transport that the seat is closed (once), if it is. */
  release(): void {
    if (!this.reason || this.transportClosed) return;
    this.transportClosed = true;
    this.transport?.close(this.reason);
  }
}

import { LineSplitter, type LineError } from '../protocol/line-splitter.js';
import { LineQueue } from './line-queue.js';
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
  readLine(options?: { timeoutSeconds?: number }): Promise<string | null>;
  /**
   * As `readLine`, without a promise: `taker` gets the line (or null) before this returns if it
   * is there already, else when it comes, the player leaves or the read times out. For a game
   * that reads several players at once (match/each-reader.ts).
   */
  takeLine(taker: (line: string | null) => void, options?: { timeoutSeconds?: number }): void;
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

/** One seat of a running match, joining a transport to the game's line protocol. */
export class Seat implements PlayerSeat {
  readonly index: number;
  readonly name: string;
  readonly isBot: boolean;
  private readonly input = new LineQueue((line) => this.taken(line));
  private readonly splitter: LineSplitter | null;
  private readonly textDecoder: InstanceType<typeof TextDecoder> | null;
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
  /** Lines the game has read from this seat. */
  linesTaken = 0;
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
    const framing = options.framing ?? 'lines';
    this.splitter =
      framing === 'lines'
        ? new LineSplitter(options.maxLineBytes, {
            line: (text, bytes) => {
              this.transcript?.lineFromPlayer(bytes);
              // The line break counts: a flood of empty lines must fill the budget too.
              this.enqueue(text, bytes.length + 1);
            },
            error: (code) => this.closeForBadLine(code),
          })
        : null;
    this.textDecoder = framing === 'text' ? new TextDecoder('utf-8', { fatal: true }) : null;
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
    if (this.splitter) return this.splitter.push(chunk);
    let text: string;
    try {
      text = this.textDecoder!.decode(chunk, { stream: true });
    } catch {
      return this.close('line/invalid-utf8');
    }
    if (text.length > 0) {
      this.transcript?.fromPlayer(text);
      this.enqueue(text, chunk.length);
    }
  }

  private enqueue(text: string, bytes: number): void {
    this.queuedBytes += bytes;
    if (this.queuedBytes > SEAT_LIMITS.maxQueuedBytes) return this.close('flood');
    this.input.push(text);
  }

  /** The player's input ended (disconnect, end of file): the game sees the end after the last line. */
  receiveEnd(): void {
    if (this.inputEnded) return;
    this.inputEnded = true;
    if (!this.reason) this.transcript?.note('the player closed its end (disconnected or exited)');
    if (this.splitter) this.splitter.end();
    else {
      try {
        const rest = this.textDecoder!.decode();
        if (rest.length > 0) {
          this.transcript?.fromPlayer(rest);
          this.enqueue(rest, Buffer.byteLength(rest));
        }
      } catch {
        this.close('line/invalid-utf8');
      }
    }
    this.input.end();
  }

  readLine(options?: { timeoutSeconds?: number }): Promise<string | null> {
    if (this.reason && !this.keepsEarlierLines) {
      this.takeEnd();
      return Promise.resolve(null);
    }
    const read = this.input.next();
    this.limitWait(options);
    return read;
  }

  takeLine(taker: (line: string | null) => void, options?: { timeoutSeconds?: number }): void {
    if (this.reason && !this.keepsEarlierLines) {
      this.takeEnd();
      return taker(null);
    }
    this.input.take(taker);
    this.limitWait(options);
  }

  /** A read that has to wait gives up after its timeout (the match's by default). */
  private limitWait(options: { timeoutSeconds?: number } | undefined): void {
    if (!this.input.waiting) return;
    const seconds = options?.timeoutSeconds ?? this.timeoutSeconds;
    if (Number.isFinite(seconds)) this.waitAtMost(seconds * 1000);
  }

  /** The reader takes a line, or the end (null). */
  private taken(line: string | null): void {
    this.readDeadline = Infinity;
    if (line === null) {
      this.takeEnd();
      // After the reader has seen the end, as a program reading its input would.
      if (!this.reason) {
        queueMicrotask(() => {
          if (!this.reason) this.close('disconnected');
        });
      }
      return;
    }
    this.queuedBytes = Math.max(0, this.queuedBytes - Buffer.byteLength(line) - (this.splitter ? 1 : 0));
    this.linesTaken++;
    this.follower?.push(line);
    this.onRead?.();
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
        this.input.close();
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
    this.input.close();
    if (tellTransport) this.release();
    this.onClose?.(reason);
  }

  private stopDeadlineTimer(): void {
    this.readDeadline = Infinity;
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
    this.input.end();
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

import { ByteLog } from '../util/byte-log.js';

export const TRANSCRIPT_LIMITS = {
  /** Bytes of one seat's transcript; what comes after is left out, and the transcript says so. */
  maxBytes: 4 << 20,
  /**
   * Characters of a line still waiting for its newline; past it the piece is written as a line of
   * its own that says it goes on, so a peer that never sends a newline cannot grow it.
   */
  maxPendingChars: 16 * 1024,
} as const;

/** `<` the player received it from the game, `>` the player sent it. */
type Direction = '<' | '>';

/**
 * What passed between the game and one seat, line by line in the order it happened, each line
 * stamped with the match time: the first thing a bot's author reads when a match went wrong.
 *
 *     # seat 0, alice: "<" received from the game, ">" sent by the player; seconds since the start
 *     0.000 < alice
 *     0.012 > ROCK
 *
 * A line is written when it is complete; text without a final newline is written at the end.
 */
export class SeatTranscript {
  private readonly log = new ByteLog();
  private readonly pending = { '<': '', '>': '' };
  private full = false;

  constructor(
    header: string,
    private readonly now: () => number,
  ) {
    this.log.append(`# ${header}: "<" received from the game, ">" sent by the player; seconds since the match started\n`);
  }

  /** Text the game sent to the player. */
  fromGame(text: string): void {
    this.add('<', text);
  }

  /** Text the player sent to the game. */
  fromPlayer(text: string): void {
    this.add('>', text);
  }

  /** One line the player sent, its newline already taken off. */
  lineFromPlayer(line: string): void {
    if (this.full) return;
    this.line(`${this.stamp()} > ${line}\n`);
  }

  /** Something the runtime saw happen to the seat (closed, and why). */
  note(text: string): void {
    if (this.full) return;
    this.line(`${this.stamp()} # ${text}\n`);
  }

  /** The transcript so far, with any unfinished line; never more than TRANSCRIPT_LIMITS.maxBytes. */
  text(): string {
    for (const direction of ['<', '>'] as const) {
      if (this.pending[direction] !== '') this.line(`${this.stamp()} ${direction} ${this.pending[direction]} (no newline)\n`);
      this.pending[direction] = '';
    }
    return this.log.toBuffer().toString('utf8');
  }

  private add(direction: Direction, text: string): void {
    if (this.full) return;
    let start = 0;
    let newline = text.indexOf('\n');
    // The common case, one whole line: written as it is.
    if (newline === text.length - 1 && this.pending[direction] === '') return this.line(`${this.stamp()} ${direction} ${text}`);
    if (newline === -1) {
      this.pending[direction] += text;
      if (this.pending[direction].length > TRANSCRIPT_LIMITS.maxPendingChars) {
        this.line(`${this.stamp()} ${direction} ${this.pending[direction]} (the line goes on)\n`);
        this.pending[direction] = '';
      }
      return;
    }
    const time = this.stamp();
    while (newline !== -1) {
      const line = this.pending[direction] + text.slice(start, newline);
      this.pending[direction] = '';
      this.line(`${time} ${direction} ${line}\n`);
      start = newline + 1;
      newline = text.indexOf('\n', start);
    }
    this.pending[direction] = text.slice(start);
  }

  private line(text: string): void {
    if (this.full) return;
    // Characters times 3 bounds the UTF-8 size: the exact size is needed only near the limit.
    if (this.log.length + 3 * text.length > TRANSCRIPT_LIMITS.maxBytes && this.log.length + Buffer.byteLength(text) > TRANSCRIPT_LIMITS.maxBytes) {
      this.full = true;
      this.log.append(`# the transcript stops here: it reached ${TRANSCRIPT_LIMITS.maxBytes} bytes\n`);
      return;
    }
    this.log.append(text);
  }

  private stamp(): string {
    return this.now().toFixed(3);
  }
}

/**
 * The runtime's code for a seat's closing (`timeout`, `removed`...) read from its transcript (the
 * artifact `transcript-N.txt` of a finished match), or null when it was not closed before the end.
 */
export function closureReason(transcript: string): string | null {
  const line = transcript.split('\n').find((text) => /^\S+ # the seat was closed: /.test(text));
  return line === undefined ? null : line.replace(/^\S+ # the seat was closed: /, '');
}

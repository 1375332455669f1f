import { isChessRecord } from '../chess-record.js';
import type { Player } from '../player.js';
import type { MatchInfo } from '../wire.js';
import { chessPace, chessTimeNotes } from './record-details.js';

/** The chess players' names come first in the stream: past this many characters it is not a chess stream's head. */
const CHESS_HEAD_CHARS = 4096;

/**
 * A chess match's times while it runs, before its record says the seats: the stream's first two
 * lines name White and Black (notes/chess.md), and each side's time on its latest move comes from
 * the picture's log (chessTimeNotes, as on the replay page), of the match's per-move timeout. The
 * notes go by name, as the live legend lists who joined without seat numbers.
 */
export class LiveChessTimes {
  private head = '';
  private readonly decoder = new TextDecoder();
  private sides: { readonly white: string; readonly black: string } | null = null;
  private info: MatchInfo | null = null;
  private paceAsked = false;
  private pace: number | null = null;
  private stopped = false;
  private current: ReadonlyMap<string, string> = new Map();

  constructor(
    private readonly player: Player,
    private readonly show: (notes: ReadonlyMap<string, string>) => void,
  ) {
    player.onStepShown((step) => this.update(step));
  }

  /** The notes by player name (empty until there is something to say). */
  get notes(): ReadonlyMap<string, string> {
    return this.current;
  }

  /** The match as the lobby tells it: for the game, its pace and its timeout. */
  matchInfo(info: MatchInfo): void {
    this.info = info;
    if (!isChessRecord(info) || this.paceAsked) return;
    this.paceAsked = true;
    void chessPace(info).then((pace) => (this.pace = pace));
  }

  /** Bytes of the spectator stream, in order: the names are read from its head. */
  streamBytes(bytes: Uint8Array): void {
    if (this.sides !== null || this.head.length > CHESS_HEAD_CHARS) return;
    this.head += this.decoder.decode(bytes, { stream: true });
    const [white, black, rest] = this.head.split('\n');
    if (white !== undefined && black !== undefined && rest !== undefined) this.sides = { white, black };
  }

  /** The record is known: its seats and times take over (record-details.ts). */
  stop(): void {
    this.stopped = true;
  }

  private update(step: number): void {
    const info = this.info;
    if (this.stopped || info === null || !isChessRecord(info) || this.sides === null || this.pace === null) return;
    const times = chessTimeNotes(this.player.timeline.logs, this.pace, info.timeout, step);
    this.current = new Map([
      [this.sides.white, times.white],
      [this.sides.black, times.black],
    ]);
    this.show(this.current);
  }
}

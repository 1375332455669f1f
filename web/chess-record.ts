/**
 * A chess match read back from its record, for what lichess offers beside a game: the moves in SAN,
 * the result, a PGN export, and each side's time per move. Pure (chessops and the stream's own
 * notation, no DOM), so that it is tested under Node.
 *
 * The source is the spectator stream as the server sent it (notes/chess.md): the white player's
 * name, the black player's, then `OK <e2> <e4>` per move and the result lines. chessops replays
 * the moves and writes each in SAN. Times come from the visualizer log, whose move lines
 * (`1. e4`, `1... e5`) carry the match time.
 */
import { Chess } from 'chessops/chess';
import { ChildNode, defaultGame, makePgn, type PgnNodeData } from 'chessops/pgn';
import { makeSan } from 'chessops/san';
import { readEcho } from '../src/games/chess/notation.js';
import { timestampMs } from './format.js';

export type PgnResult = '1-0' | '0-1' | '1/2-1/2' | '*';

export interface ChessGameRecord {
  readonly white: string;
  readonly black: string;
  /** The moves in SAN, White's first. */
  readonly sans: readonly string[];
  readonly result: PgnResult;
}

/** What of the match record the PGN's headers say. */
export interface PgnFacts {
  readonly name: string;
  readonly id: string;
  readonly players: readonly string[];
  readonly scores: readonly number[] | null;
  readonly reason: string;
  readonly startedAt: unknown;
  /** Where the match can be seen (the replay page's address): the PGN's Site. */
  readonly site: string;
}

const DRAW_ENDINGS = /^DRAW <(ACCEPTED|STALEMATE|REPETITION|FIFTY-MOVES|INSUFFICIENT-MATERIAL)>$/;

/**
 * The game in the stream. The result is the stream's when it says one (`WINNER <X>`, a draw); a
 * forfeit says only `RETIRE`, and then the scores tell, by the players' names.
 */
export function readChessStream(stream: string, players: readonly string[] = [], scores: readonly number[] | null = null): ChessGameRecord | null {
  const lines = stream.split('\n');
  const [white, black] = lines;
  if (white === undefined || black === undefined || lines.length < 3) return null;
  const position = Chess.default();
  const sans: string[] = [];
  let result: PgnResult = '*';
  for (const line of lines.slice(2)) {
    const move = readEcho(position, line);
    if (move) {
      sans.push(makeSan(position, move));
      position.play(move);
    } else if (line === 'WINNER <WHITE>') result = '1-0';
    else if (line === 'WINNER <BLACK>') result = '0-1';
    else if (DRAW_ENDINGS.test(line)) result = '1/2-1/2';
  }
  if (result === '*' && scores && white !== black) {
    const whiteScore = scores[players.indexOf(white)];
    const blackScore = scores[players.indexOf(black)];
    if (whiteScore !== undefined && blackScore !== undefined) result = whiteScore > blackScore ? '1-0' : whiteScore < blackScore ? '0-1' : '1/2-1/2';
  }
  return { white, black, sans, result };
}

/** `2026.11.28` for a time the record gives (unix seconds, milliseconds or ISO text); `????.??.??` when unknown. */
export function pgnDate(value: unknown): string {
  const ms = timestampMs(value);
  if (!Number.isFinite(ms)) return '????.??.??';
  const date = new Date(ms);
  const two = (n: number): string => String(n).padStart(2, '0');
  return `${date.getUTCFullYear()}.${two(date.getUTCMonth() + 1)}.${two(date.getUTCDate())}`;
}

/** The PGN of the game: the Seven Tag Roster, then the moves with the result's reason as the last comment. */
export function chessPgn(game: ChessGameRecord, facts: PgnFacts): string {
  const pgn = defaultGame<PgnNodeData>(
    () =>
      new Map([
        ['Event', facts.name || `Code Colosseum match ${facts.id}`],
        ['Site', facts.site],
        ['Date', pgnDate(facts.startedAt)],
        ['Round', '-'],
        ['White', game.white],
        ['Black', game.black],
        ['Result', game.result],
      ]),
  );
  let node = pgn.moves;
  let last: ChildNode<PgnNodeData> | null = null;
  for (const san of game.sans) {
    last = new ChildNode<PgnNodeData>({ san });
    node.children.push(last);
    node = last;
  }
  if (facts.reason !== '') {
    if (last) last.data.comments = [facts.reason];
    else pgn.comments = [facts.reason];
  }
  return makePgn(pgn);
}

/** The log lines of a chess picture that are moves, and whose: `12. Nf3` White's, `12... Nc6` Black's. */
const MOVE_LINE = /^\d+\.(\.\.)? \S/;

export interface MoveTime {
  /** The index of the move's line among the log lines (step = index + 1). */
  readonly line: number;
  readonly color: 'white' | 'black';
  /** Seconds the mover took: from when the server began waiting for the move to when it came. */
  readonly seconds: number;
}

/**
 * Each move's time, from the log lines' times. The server waits for a move from the end of the
 * previous one's pace (`pace` seconds after it began waiting for that one, or at once if that move
 * took longer: notes/chess.md, section 9), so the time a mover took is its line's time less when
 * that wait began. The first wait begins with the game (its first log line, the players' names).
 */
export function moveTimes(logs: readonly { readonly t: number; readonly line: string }[], pace: number): MoveTime[] {
  const times: MoveTime[] = [];
  let waitFrom: number | null = null;
  let lastMove: number | null = null;
  logs.forEach((log, index) => {
    if (waitFrom === null) waitFrom = log.t;
    const m = MOVE_LINE.exec(log.line);
    if (!m) return;
    const from: number = lastMove === null ? waitFrom : Math.max(lastMove, waitFrom + pace);
    times.push({ line: index, color: m[1] ? 'black' : 'white', seconds: Math.max(0, log.t - from) });
    waitFrom = from;
    lastMove = log.t;
  });
  return times;
}

/** Each side's latest move time shown at `step` (the first `step` log lines shown), or null before its first move. */
export function latestMoveTimes(times: readonly MoveTime[], step: number): Record<'white' | 'black', MoveTime | null> {
  const latest: Record<'white' | 'black', MoveTime | null> = { white: null, black: null };
  for (const time of times) {
    if (time.line >= step) break;
    latest[time.color] = time;
  }
  return latest;
}

/** The built-in chess (src/games/chess): the one game whose records have a PGN and move times. */
export const CHESS_GAME = 'chess';

export function isChessRecord(match: { readonly game: string }): boolean {
  return match.game === CHESS_GAME;
}

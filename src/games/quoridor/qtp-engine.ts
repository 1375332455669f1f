import type { BotIO } from '../../match/game.js';
import type { Readable, Writable } from 'node:stream';
import { QuoridorBoard, type BoardSnapshot } from './board.js';
import { DEFAULT_SIZE, colorSide, defaultWalls, isValidSize, type Move, type Side } from './geometry.js';
import { formatMove, looksLikeVertex, parseColor, parseMove, parseOrientation } from './notation.js';
import { preprocessCommand, QtpLineReader } from './qtp-lines.js';
import { historyKeys, searchMove, type SearchBudget, type SearchReport } from './search.js';
import { drawBoard } from './showboard.js';

/**
 * Our Quoridor engine behind the Quoridor Text Protocol (specs/quoridor-text-protocol.md).
 * `QtpEngine` turns one command line into one response; `runQtpEngine` runs it over a pair of
 * byte streams (a process's stdin/stdout, or a test's streams); the server bot runs it over a seat.
 *
 * Framing: `= result` or `? message`, each followed by an empty line. A GTP-style numeric id before
 * the command is echoed (`=7 E2`), as GTP controllers expect; QTP controllers send none.
 */
export const QTP_COMMANDS = [
  'name',
  'known_command',
  'list_commands',
  'quit',
  'boardsize',
  'clear_board',
  'walls',
  'playmove',
  'playwall',
  'genmove',
  'undo',
  'winner',
  'showboard',
] as const;
export type QtpCommand = (typeof QTP_COMMANDS)[number];

export const DEFAULT_ENGINE_NAME = 'Code Colosseum Quoridor';

/** What genmove asks the search for; plain data, so it can cross to a worker thread. */
export interface SearchRequest {
  readonly snapshot: BoardSnapshot;
  readonly side: Side;
  readonly budget: SearchBudget;
  readonly seed: string;
  /** Keys of the earlier positions of the game, for repetition checks. */
  readonly history: readonly number[];
}

export type Searcher = (request: SearchRequest) => Promise<SearchReport> | SearchReport;

export interface QtpEngineOptions {
  readonly name?: string;
  readonly budget: SearchBudget;
  /** Seeds the search's choice among equal moves. */
  readonly seed?: string;
  /** How genmove searches; by default in this thread. */
  readonly search?: Searcher;
}

const searchInThread: Searcher = (request) => searchMove(request.snapshot, request.side, request.budget, request.seed, request.history);

type Reply = { readonly ok: boolean; readonly text: string };
const success = (text = ''): Reply => ({ ok: true, text });
const failure = (text: string): Reply => ({ ok: false, text });
const SYNTAX_ERROR = 'syntax error';
const ILLEGAL_MOVE = 'illegal move';

/** A QTP int: an unsigned decimal integer up to 2^31 - 1. */
function parseInt31(text: string | undefined): number | null {
  if (text === undefined || !/^\d{1,10}$/.test(text)) return null;
  const value = Number(text);
  return value <= 2 ** 31 - 1 ? value : null;
}

export class QtpEngine {
  private size = DEFAULT_SIZE;
  private walls = defaultWalls(DEFAULT_SIZE);
  private board = QuoridorBoard.start(DEFAULT_SIZE);
  private finished = false;
  private readonly name: string;
  private readonly search: Searcher;

  constructor(private readonly options: QtpEngineOptions) {
    this.name = options.name ?? DEFAULT_ENGINE_NAME;
    this.search = options.search ?? searchInThread;
  }

  /** Whether `quit` was answered: nothing more should be read. */
  get hasQuit(): boolean {
    return this.finished;
  }

  /** The current position (for tests and tools). */
  get position(): QuoridorBoard {
    return this.board;
  }

  /** Answers one raw input line; null when the line is empty or a comment (no response). */
  async execute(raw: string): Promise<string | null> {
    const text = preprocessCommand(raw);
    if (text === null) return null;
    const words = text.split(' ').filter((word) => word !== '');
    const id = /^\d+$/.test(words[0]!) ? words.shift()! : '';
    const reply = words.length === 0 ? failure('unknown command') : await this.dispatch(words[0]!, words.slice(1));
    return frame(reply, id);
  }

  private async dispatch(command: string, args: string[]): Promise<Reply> {
    switch (command as QtpCommand) {
      case 'name':
        return success(this.name);
      case 'known_command':
        return success((QTP_COMMANDS as readonly string[]).includes(args[0] ?? '') ? 'true' : 'false');
      case 'list_commands':
        return success(QTP_COMMANDS.join('\n'));
      case 'quit':
        this.finished = true;
        return success();
      case 'boardsize':
        return this.boardsize(args);
      case 'clear_board':
        this.board = QuoridorBoard.start(this.size, this.walls);
        return success();
      case 'walls':
        return this.setWalls(args);
      case 'playmove':
        return this.play(args, false);
      case 'playwall':
        return this.play(args, true);
      case 'genmove':
        return this.genmove(args);
      case 'undo':
        return this.undo(args);
      case 'winner': {
        const winner = this.board.winner();
        return success(winner === null ? 'false' : `true ${winner === 0 ? 'white' : 'black'}`);
      }
      case 'showboard':
        return success(`\n${drawBoard(this.board).join('\n')}`);
      default:
        return failure('unknown command');
    }
  }

  private boardsize(args: string[]): Reply {
    const size = parseInt31(args[0]);
    if (size === null || args.length !== 1) return failure(SYNTAX_ERROR);
    if (!isValidSize(size)) return failure('unacceptable size');
    this.size = size;
    this.walls = defaultWalls(size);
    this.board = QuoridorBoard.start(size, this.walls);
    return success();
  }

  private setWalls(args: string[]): Reply {
    const walls = parseInt31(args[0]);
    if (walls === null || args.length !== 1) return failure(SYNTAX_ERROR);
    this.walls = walls;
    this.board.wallsLeft[0] = walls;
    this.board.wallsLeft[1] = walls;
    return success();
  }

  /** playmove COLOR VERTEX / playwall COLOR VERTEX ORIENTATION. */
  private play(args: string[], wall: boolean): Reply {
    if (args.length !== (wall ? 3 : 2)) return failure(SYNTAX_ERROR);
    const color = parseColor(args[0]!);
    if (color === null || !looksLikeVertex(args[1]!)) return failure(SYNTAX_ERROR);
    if (wall && parseOrientation(args[2]!) === null) return failure(SYNTAX_ERROR);
    const parsed = parseMove(this.size, args.slice(1));
    if (!parsed.ok) return failure(ILLEGAL_MOVE);
    const side = colorSide(color);
    if (!this.board.isLegal(side, parsed.value)) return failure(ILLEGAL_MOVE);
    this.board.play(side, parsed.value);
    return success();
  }

  private async genmove(args: string[]): Promise<Reply> {
    const color = args.length === 1 ? parseColor(args[0]!) : null;
    if (color === null) return failure(SYNTAX_ERROR);
    if (this.board.isOver()) return failure('game is over');
    const side = colorSide(color);
    const report = await this.search({
      snapshot: this.board.snapshot(),
      side,
      budget: this.options.budget,
      seed: `${this.options.seed ?? 'qtp'}:${this.board.moveCount}`,
      history: historyKeys(this.board),
    });
    const move: Move = report.move;
    // The search runs on a copy, possibly elsewhere; trust nothing it returns.
    if (!this.board.isLegal(side, move)) return failure('internal error: the search returned an illegal move');
    this.board.play(side, move);
    return success(formatMove(this.size, move));
  }

  private undo(args: string[]): Reply {
    const times = args.length === 0 ? 1 : parseInt31(args[0]);
    if (times === null || args.length > 1) return failure(SYNTAX_ERROR);
    if (this.board.moveCount === 0 || times > this.board.moveCount) return failure('cannot undo');
    for (let i = 0; i < times; i++) this.board.undo();
    return success();
  }
}

/** `=id result\n\n` or `?id message\n\n`; an empty result gives `=\n\n`. */
function frame(reply: Reply, id: string): string {
  const head = `${reply.ok ? '=' : '?'}${id}`;
  if (reply.text === '') return `${head}\n\n`;
  return reply.text.startsWith('\n') ? `${head}${reply.text}\n\n` : `${head} ${reply.text}\n\n`;
}

/** Answers the commands read from an in-process line stream (a server bot, a test's engine) until `quit` or its end. */
export async function serveQtpLines(engine: QtpEngine, io: Pick<BotIO, 'readLine' | 'write'>): Promise<void> {
  for (;;) {
    const line = await io.readLine();
    if (line === null) return;
    const response = await engine.execute(line);
    if (response !== null) io.write(response);
    if (engine.hasQuit) return;
  }
}

/**
 * Runs the engine over a pair of streams until `quit` or the end of the input. Commands are
 * answered one at a time and in order; reading waits while a response is being computed or the
 * output is full, so a fast controller cannot make us buffer without bound.
 */
export async function runQtpEngine(input: Readable, output: Writable, options: QtpEngineOptions): Promise<void> {
  const engine = new QtpEngine(options);
  const reader = new QtpLineReader();
  const write = (text: string): Promise<void> =>
    new Promise((resolve, reject) => {
      output.write(text, 'latin1', (error) => (error ? reject(error) : resolve()));
    });
  const answer = async (lines: ReturnType<QtpLineReader['push']>): Promise<boolean> => {
    for (const line of lines) {
      const response = line.kind === 'too-long' ? '? command too long\n\n' : await engine.execute(line.text);
      if (response !== null) await write(response);
      if (engine.hasQuit) return true;
    }
    return false;
  };
  for await (const chunk of input) {
    if (await answer(reader.push(typeof chunk === 'string' ? Buffer.from(chunk, 'latin1') : (chunk as Uint8Array)))) return;
  }
  await answer(reader.end());
}

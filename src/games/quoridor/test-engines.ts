import type { BotIO } from '../../match/game.js';
import type { LocalMatchOptions, LocalPlayer } from '../../match/local-match.js';
import type { Match } from '../../match/match.js';
import { Random } from '../../match/random.js';
import { QuoridorBoard } from './board.js';
import { colorSide, isValidSize, isWallMove, type Move, type Side } from './geometry.js';
import { formatMove, parseColor, parseMove } from './notation.js';
import { QtpEngine, serveQtpLines } from './qtp-engine.js';
import { preprocessCommand } from './qtp-lines.js';
import type { SearchBudget } from './search.js';

/**
 * Small QTP engines for tests, run in-process as LocalPlayers: our real engine, and fakes that
 * play simply and can mimic the ways real engines deviate from the spec.
 */

/**
 * A match of three games on a 5x5 board that the server stops (as its shutdown does) when Alice,
 * black in game 1, is asked for her second move: nobody left the game.
 */
export function matchStoppedMidGame(game: LocalMatchOptions['game']): LocalMatchOptions {
  let running: Match<unknown> | null = null;
  const stopsServer = fakeEngine({
    genmoveAnswer: (_board, _side, count) => {
      if (count === 2) running!.abort('server shutdown');
      return undefined;
    },
  });
  return {
    game,
    params: { args: { pace: '0', size: '5', games: '3' } },
    players: [
      { name: 'Alice', play: stopsServer },
      { name: 'Bob', play: fakeEngine() },
    ],
    made: (match) => (running = match),
  };
}

/** Our engine, answering over the player's line stream. */
export function builtInEngine(budget: SearchBudget, seed = 'engine'): LocalPlayer {
  return async (io) => {
    await serveQtpLines(new QtpEngine({ budget, seed }), io);
  };
}

export interface Deviations {
  /** `? false` to known_command and to commands it does not know (such as `name`). */
  readonly falseForUnknown?: boolean;
  /** `= ` and `= E2 ` with a trailing space. */
  readonly trailingSpace?: boolean;
  /** Refuses vertices written in lower case. */
  readonly upperCaseOnly?: boolean;
  /** Refuses `h` and `v`. */
  readonly fullWordsOnly?: boolean;
  /** Prints other lines (a board drawing) before the answer. */
  readonly chatterFirst?: boolean;
  /** Leaves out the blank line after each answer. */
  readonly noBlankLine?: boolean;
  /** Prints `#` comment lines and blank lines before answers. */
  readonly comments?: boolean;
  /** Answers genmove in lower case with one-letter orientations (`e2`, `e3 h`). */
  readonly lowerCaseAnswers?: boolean;
  /** Ends lines with CR LF. */
  readonly crlf?: boolean;
  /** Separates `=` and the answer with a tab. */
  readonly tabs?: boolean;
}

export type FakeStyle =
  /** Walks a shortest path; places its first `walls` walls at random first. */
  | { readonly kind: 'forward'; readonly walls?: number }
  /** Any legal move, uniformly. */
  | { readonly kind: 'random' }
  /** Steps sideways and back forever (to reach the move limit). */
  | { readonly kind: 'shuffle' };

export interface FakeEngineOptions {
  readonly style?: FakeStyle;
  readonly seed?: string;
  readonly deviations?: Deviations;
  /**
   * Replaces the answer to genmove (count starts at 1 for the engine's first genmove): the exact
   * text to write, null to say nothing, undefined to play normally.
   */
  readonly genmoveAnswer?: (board: QuoridorBoard, side: Side, count: number) => string | null | undefined;
  /** Every `?` the fake answered, for tests to inspect. */
  readonly refusals?: string[];
  /** Awaited before the answer to `quit` (a remote engine whose answer takes its time). */
  readonly beforeQuitAnswer?: () => Promise<void>;
}

export function fakeEngine(options: FakeEngineOptions = {}): LocalPlayer {
  const style = options.style ?? { kind: 'forward' };
  const deviations = options.deviations ?? {};
  return async (io: BotIO) => {
    const random = Random.fromSeed(options.seed ?? 'fake');
    let size = 9;
    let walls = 10;
    let board = QuoridorBoard.start(size, walls);
    let placed = 0;
    let genmoves = 0;
    const newline = deviations.crlf ? '\r\n' : '\n';
    const reply = (ok: boolean, text = ''): void => {
      let out = '';
      if (deviations.comments) out += `# thinking${newline}${newline}`;
      if (deviations.chatterFirst) out += `  +---+---+${newline}  |   | W |${newline}`;
      const separator = deviations.tabs ? '\t' : ' ';
      const body = text === '' ? (deviations.trailingSpace ? ' ' : '') : `${separator}${text}${deviations.trailingSpace ? ' ' : ''}`;
      out += `${ok ? '=' : '?'}${body}${newline}`;
      if (!deviations.noBlankLine) out += newline;
      if (!ok) options.refusals?.push(text);
      io.write(out);
    };
    const chooseMove = (side: Side): Move => {
      const moves = board.legalMoves(side);
      const pawnMoves = moves.filter((move) => !isWallMove(size, move));
      if (style.kind === 'random') return random.pick(moves);
      if (style.kind === 'shuffle') return pawnMoves.find((move) => Math.floor(move / size) === Math.floor(board.pawns[side]! / size)) ?? pawnMoves[0]!;
      const wallMoves = moves.filter((move) => isWallMove(size, move));
      if (placed < (style.walls ?? 0) && wallMoves.length > 0) {
        placed++;
        return random.pick(wallMoves);
      }
      const goal = board.goalRow(side);
      let best = pawnMoves[0]!;
      let bestDistance = Number.POSITIVE_INFINITY;
      for (const move of pawnMoves) {
        const distance = Math.floor(move / size) === goal ? 0 : board.distanceFrom(move, goal);
        if (distance >= 0 && distance < bestDistance) {
          best = move;
          bestDistance = distance;
        }
      }
      return best;
    };
    for (;;) {
      const raw = await io.readLine();
      if (raw === null) return;
      const line = preprocessCommand(raw);
      if (line === null) continue;
      const [command, ...args] = line.trim().split(/ +/);
      switch (command) {
        case 'boardsize': {
          const value = Number(args[0]);
          if (!isValidSize(value)) {
            reply(false, 'unacceptable size');
            break;
          }
          size = value;
          board = QuoridorBoard.start(size, walls);
          reply(true);
          break;
        }
        case 'clear_board':
          board = QuoridorBoard.start(size, walls);
          placed = 0;
          reply(true);
          break;
        case 'walls':
          walls = Number(args[0]);
          board = QuoridorBoard.start(size, walls);
          reply(true);
          break;
        case 'playmove':
        case 'playwall': {
          const color = parseColor(args[0] ?? '');
          const vertex = args[1] ?? '';
          const orientation = args[2] ?? '';
          if (deviations.upperCaseOnly && vertex !== vertex.toUpperCase()) {
            reply(false, 'illegal move');
            break;
          }
          if (deviations.fullWordsOnly && command === 'playwall' && !/^(horizontal|vertical)$/i.test(orientation)) {
            reply(false, 'illegal move');
            break;
          }
          const parsed = parseMove(size, args.slice(1));
          if (color === null || !parsed.ok || !board.isLegal(colorSide(color), parsed.value)) {
            reply(false, 'illegal move');
            break;
          }
          board.play(colorSide(color), parsed.value);
          reply(true);
          break;
        }
        case 'genmove': {
          const color = parseColor(args[0] ?? '');
          if (color === null) {
            reply(false, 'syntax error');
            break;
          }
          const side = colorSide(color);
          genmoves++;
          const scripted = options.genmoveAnswer?.(board, side, genmoves);
          if (scripted !== undefined) {
            if (scripted !== null) io.write(scripted);
            break;
          }
          const move = chooseMove(side);
          board.play(side, move);
          let text = formatMove(size, move);
          if (deviations.lowerCaseAnswers) text = text.toLowerCase().replace('horizontal', 'h').replace('vertical', 'v');
          reply(true, text);
          break;
        }
        case 'winner': {
          const winner = board.winner();
          reply(true, winner === null ? 'false' : `true ${winner === 0 ? 'white' : 'black'}`);
          break;
        }
        case 'known_command':
          if (deviations.falseForUnknown) reply(false, 'false');
          else reply(true, ['boardsize', 'clear_board', 'walls', 'playmove', 'playwall', 'genmove', 'winner', 'quit'].includes(args[0] ?? '') ? 'true' : 'false');
          break;
        case 'name':
          if (deviations.falseForUnknown) reply(false, 'false');
          else reply(true, 'Fake');
          break;
        case 'quit':
          await options.beforeQuitAnswer?.();
          reply(true);
          return;
        default:
          reply(false, deviations.falseForUnknown ? 'false' : 'unknown command');
      }
    }
  };
}

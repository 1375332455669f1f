import { readFileSync } from 'node:fs';
import type { Color } from 'chessops/types';
import { makeSan } from 'chessops/san';
import type { GameDefinition, MatchContext, MatchResult } from '../../match/game.js';
import type { PlayerSeat, SeatCloseReason } from '../../match/seat.js';
import { ok } from '../../util/result.js';
import { configureMatch, paceArg, paceArgSpec } from '../game-params.js';
import { playChessBot, type ChessBotBudget } from './bot.js';
import { echo, readCommand } from './notation.js';
import { ChessGame, type Ending } from './rules.js';
import { ChessVis } from './vis.js';

export interface ChessConfig {
  /** Minimum seconds from the start of one move's wait to the start of the next. */
  readonly pace: number;
  /** What the server bot may spend per move. */
  readonly botBudget: ChessBotBudget;
}

const DEFAULT_TIMEOUT = 90;
const DEFAULT_PACE = 1.5;
/** The server bot thinks at most this long per move, and never more than a quarter of the timeout. */
const BOT_MILLIS = 1000;
/**
 * Longest move line. The reference reads lines of any length and trims them, so a move followed by
 * thousands of spaces is a move; past this a line is invalid input, as garbage is.
 */
const MAX_LINE_BYTES = 8192;
/** How much of a refused line the result's reason quotes. */
const QUOTE_LIMIT = 40;

const ARGS = { pace: paceArgSpec(DEFAULT_PACE) };
const COLOR_WORD: Readonly<Record<Color, string>> = { white: 'WHITE', black: 'BLACK' };

/** What came of waiting for one line of a player. */
type Read =
  | { readonly kind: 'line'; readonly line: string }
  /**
   * No line within the timeout (the seat is closed, its result line sent: readTurn), or bytes that
   * are not UTF-8 (the reference treats both alike).
   */
  | { readonly kind: 'timeout'; readonly why: string }
  /** Disconnected, or a line the seat refused (too long, a flood): like an invalid move. */
  | { readonly kind: 'gone'; readonly why: string };

async function play(ctx: MatchContext, config: ChessConfig): Promise<MatchResult> {
  // Colours are drawn, so a server bot (always the last seat) plays both sides over many matches.
  const whiteIndex = ctx.random.bit();
  const seat: Readonly<Record<Color, PlayerSeat>> = { white: ctx.seats[whiteIndex]!, black: ctx.seats[1 - whiteIndex]! };
  const everyone = (line: string): void => {
    seat.white.write(`${line}\n`);
    seat.black.write(`${line}\n`);
    ctx.spectators.write(`${line}\n`);
  };
  const names = `${seat.white.name}\n${seat.black.name}\n`;
  seat.white.write(`${names}0\n`);
  seat.black.write(`${names}1\n`);
  ctx.spectators.write(names);
  const game = new ChessGame();
  const vis = ctx.drawing ? new ChessVis((event) => ctx.vis(event), { white: seat.white.name, black: seat.black.name }, config.pace) : null;

  const scores = (winner: Color | null): number[] => {
    const out = ctx.seats.map(() => 0);
    if (winner === null) {
      out[seat.white.index] = 0.5;
      out[seat.black.index] = 0.5;
    } else out[seat[winner].index] = 1;
    return out;
  };
  const ended = (winner: Color | null, reason: string): MatchResult => {
    vis?.end(reason);
    return { scores: scores(winner), reason };
  };
  /**
   * A player gave up or ran out of time: RETIRE to the others, then the winner to everyone (a
   * player that ran out of time was told before its seat closed: readTurn).
   */
  const retired = (loser: Color, why: string): MatchResult => {
    const winner = other(loser);
    seat[winner].write('RETIRE\n');
    ctx.spectators.write('RETIRE\n');
    everyone(winnerLine(winner));
    return ended(winner, `${seat[winner].name} wins: ${seat[loser].name} ${why}`);
  };
  /** Invalid input or a lost connection: RETIRE to the others and no result line, as the reference. */
  const forfeited = (loser: Color, why: string): MatchResult => {
    const winner = other(loser);
    seat[loser].close('removed');
    seat[winner].write('RETIRE\n');
    ctx.spectators.write('RETIRE\n');
    return ended(winner, `${seat[winner].name} wins: ${seat[loser].name} ${why}`);
  };
  const byRule = (ending: Ending): MatchResult => {
    if (ending.kind === 'checkmate') {
      everyone(winnerLine(ending.winner));
      return ended(ending.winner, `${seat[ending.winner].name} wins by checkmate`);
    }
    everyone(`DRAW <${ending.why}>`);
    return ended(null, `draw: ${DRAW_WORDS[ending.why]}`);
  };

  for (;;) {
    const ending = game.ending();
    if (ending) return byRule(ending);
    const color = game.position.turn;
    const mover = seat[color];
    const turnStarted = ctx.elapsed();
    const read = await readTurn(ctx, mover, color);
    if (read.kind === 'timeout') return retired(color, read.why);
    if (read.kind === 'gone') return forfeited(color, read.why);
    const command = readCommand(game.position, read.line);
    if (!command.ok) return forfeited(color, `sent ${command.error === 'syntax' ? 'an unreadable line' : 'an illegal move'} ${quote(read.line)}`);
    const { value } = command;
    if (value.kind === 'retire') return retired(color, 'retired');
    if (value.kind === 'draw') {
      // The opponent's next line is the answer: DRAW accepts, anything else refuses and is dropped.
      everyone('DRAW <PROPOSED>');
      const answerer = seat[other(color)];
      const answer = await readTurn(ctx, answerer, other(color));
      if (answer.kind === 'timeout') return retired(other(color), answer.why);
      if (answer.kind === 'gone') return forfeited(other(color), answer.why);
      if (answer.line.trim() === 'DRAW') {
        mover.write('DRAW <ACCEPTED>\n');
        ctx.spectators.write('DRAW <ACCEPTED>\n');
        return ended(null, 'draw agreed');
      }
      mover.write('DRAW <REFUSED>\n');
      ctx.spectators.write('DRAW <REFUSED>\n');
      vis?.note(`${answerer.name} refuses the draw`);
      continue;
    }
    // The position before the move and its SAN are for the drawing only (makeSan generates the legal moves again).
    const drawn = vis && { before: game.position.clone(), san: makeSan(game.position, value.move) };
    game.play(value.move);
    everyone(echo(value.words));
    if (vis && drawn) vis.move(drawn.before, value.move, drawn.san, game.position);
    await ctx.sleep(config.pace - (ctx.elapsed() - turnStarted));
  }
}

const DRAW_WORDS: Readonly<Record<Extract<Ending, { kind: 'draw' }>['why'], string>> = {
  STALEMATE: 'stalemate',
  REPETITION: 'threefold repetition',
  'FIFTY-MOVES': 'fifty moves without a capture or a pawn move',
  'INSUFFICIENT-MATERIAL': 'insufficient material',
};

const GONE_WORDS: Partial<Record<SeatCloseReason, string>> = {
  disconnected: 'disconnected',
  'line/too-long': `sent an unreadable line (over ${MAX_LINE_BYTES} bytes)`,
  flood: 'sent more than the server keeps unread',
};

function other(color: Color): Color {
  return color === 'white' ? 'black' : 'white';
}

function quote(line: string): string {
  return JSON.stringify(line.length > QUOTE_LIMIT ? `${line.slice(0, QUOTE_LIMIT)}...` : line);
}

function winnerLine(winner: Color): string {
  return `WINNER <${COLOR_WORD[winner]}>`;
}

/**
 * Waits for the next line of the player of `color`, at most the match's timeout. One that runs out
 * of time is told the result before its seat closes for the timeout (a closed seat sends nothing),
 * as dama's is: the live page's seats (VisSeats) show it timed out at once, its transcript says so,
 * and a replay of the record reads the timeout as the end of its input.
 */
async function readTurn(ctx: MatchContext, seat: PlayerSeat, color: Color): Promise<Read> {
  ctx.toMove?.(seat.index, ctx.timeout);
  const line = await seat.readLine({ timeoutSeconds: ctx.timeout, beforeTimeOut: () => seat.write(`${winnerLine(other(color))}\n`) });
  if (line !== null) return { kind: 'line', line };
  if (seat.closeReason === 'timeout') return { kind: 'timeout', why: 'did not move in time' };
  if (seat.closeReason === 'line/invalid-utf8') return { kind: 'timeout', why: 'sent bytes that are not UTF-8' };
  return { kind: 'gone', why: GONE_WORDS[seat.closeReason ?? 'disconnected'] ?? `was removed (${seat.closeReason})` };
}

export const chess: GameDefinition<ChessConfig> = {
  name: 'chess',
  description: readFileSync(new URL('./description.md', import.meta.url), 'utf8'),
  args: ARGS,
  maxLineBytes: MAX_LINE_BYTES,
  // Drawn only when someone wants to see it: otherwise a move builds no event.
  visFromInput: true,
  // Invalid UTF-8 is a timeout, and the sender still gets its WINNER line, as on the reference.
  answersBadLines: true,
  configure: (params) => {
    const timeout = params.timeout ?? DEFAULT_TIMEOUT;
    return configureMatch(params, { minPlayers: 2, maxPlayers: 2, defaultPlayers: 2, maxBots: 1, defaultTimeout: DEFAULT_TIMEOUT }, ARGS, (args) => {
      const pace = paceArg(args, DEFAULT_PACE);
      if (!pace.ok) return pace;
      return ok({ pace: pace.value, botBudget: { maxMillis: Math.min(BOT_MILLIS, timeout * 250) } });
    });
  },
  play,
  playBot: (io, config, env) => playChessBot(io, config.botBudget, env),
};

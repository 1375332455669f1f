import { readFileSync } from 'node:fs';
import type { GameDefinition, MatchContext, MatchResult } from '../../match/game.js';
import type { PlayerSeat, ReadOptions, SeatCloseReason } from '../../match/seat.js';
import { ok } from '../../util/result.js';
import { configureMatch, paceArg, paceArgSpec } from '../game-params.js';
import { opponent, type Color } from './board.js';
import { playDamaBot } from './bot.js';
import { judgeMoveLine } from './refusal.js';
import { applyMove, legalMoves, outcome, startPosition, QUIET_MOVE_LIMIT, type Move, type Outcome, type Position } from './rules.js';
import type { SearchBudget } from './search.js';
import {
  START_LINE,
  TURN_LINE,
  WAIT_LINE,
  YOU_ARE,
  boardBlockBytes,
  coloursLine,
  drawBlock,
  echoLine,
  gameOverBlock,
  leftBlock,
  moverTurnBlock,
  promptBlock,
  refusalBlock,
  timedOutBlock,
  tooManyInvalidLinesBlock,
  winBlocks,
} from './stream.js';
import { DamaVis } from './vis.js';

export interface DamaConfig {
  /** Minimum seconds from the start of one turn to the start of the next (or to the result). */
  readonly pace: number;
  /** What the server bot may spend per move. */
  readonly botBudget: SearchBudget;
  /** The position the match starts from (the standard one unless a test or tool sets another). */
  readonly start?: Position;
}

/**
 * Invalid lines a player may send in one turn. The reference allows any number, each answered and
 * each restarting the inactivity timeout, so without a limit a program could hold a match forever;
 * the line that reaches the limit ends the game as that player's fault.
 */
export const MAX_INVALID_LINES_PER_TURN = 100;
/** The server bot thinks at most this long per move, and never more than a quarter of the timeout. */
const BOT_MILLIS = 1000;
const DEFAULT_TIMEOUT = 90;

const ARGS = { pace: paceArgSpec(1.5) };

type MoveRead =
  | { readonly kind: 'move'; readonly move: Move }
  | { readonly kind: 'left'; readonly why: string };

async function play(ctx: MatchContext, config: DamaConfig): Promise<MatchResult> {
  // Colours are drawn, so a server bot (always the last seat) plays both sides over many matches.
  const whiteIndex = ctx.random.bit();
  const seat: Readonly<Record<Color, PlayerSeat>> = { white: ctx.seats[whiteIndex]!, black: ctx.seats[1 - whiteIndex]! };
  const names = { white: seat.white.name, black: seat.black.name };
  /** The same bytes to both players and the spectators, encoded once. */
  const everyone = (text: string | Buffer): void => {
    const bytes = typeof text === 'string' ? Buffer.from(text) : text;
    seat.white.writeBytes(bytes);
    seat.black.writeBytes(bytes);
    ctx.spectators.write(bytes);
  };
  /** Each seat's read options, made once: a player who times out is told so before its seat closes (a closed seat takes no more output). */
  const timedOut: readonly ReadOptions[] = ctx.seats.map((player) => ({ timeoutSeconds: ctx.timeout, beforeTimeOut: () => player.write(timedOutBlock()) }));
  // Drawn only when someone wants to see it (GameDefinition.visFromInput): otherwise a move builds no event.
  const vis = ctx.drawing ? new DamaVis((event) => ctx.vis(event)) : null;
  let position = config.start ?? startPosition();

  everyone(`${names.white}\n${names.black}\n${START_LINE}\n`);
  everyone(boardBlockBytes(position.board));
  seat.white.write(`${YOU_ARE.white}\n`);
  seat.black.write(`${YOU_ARE.black}\n`);
  ctx.spectators.write(coloursLine(names));
  vis?.start(position, names);

  for (;;) {
    // Generated once a turn: the outcome and every line the mover sends are judged against them.
    const moves = legalMoves(position);
    const state = outcome(position, moves);
    if (state) return finish(state);
    const turnStarted = ctx.elapsed();
    const color = position.turn;
    const mover = seat[color];
    const waiting = seat[opponent(color)];
    mover.write(moverTurnBlock(color));
    waiting.write(`${WAIT_LINE}\n`);
    ctx.spectators.write(`${TURN_LINE[color]}\n`);

    const read = await readMove(ctx, mover, position, moves, timedOut);
    if (read.kind === 'left') {
      // As the reference: the result goes to the opponent only; the spectators get the end marker.
      waiting.write(leftBlock(color));
      ctx.spectators.write(gameOverBlock());
      const winner = opponent(color);
      const reason = `${names[winner]} (${winner}) wins: ${names[color]} (${color}) ${read.why}`;
      vis?.end(reason);
      return { scores: scoresFor(winner), reason };
    }
    vis?.move(read.move, color, mover.name);
    position = applyMove(position, read.move);
    // Only the waiting player is told the move in words; everyone sees the board.
    waiting.write(echoLine(read.move.path));
    everyone(boardBlockBytes(position.board));
    // The pace runs from the start of the turn, so a slow mover adds no wait; the next turn, or the
    // result if the game is over, waits for it.
    const wait = config.pace - (ctx.elapsed() - turnStarted);
    if (wait > 0) await ctx.sleep(wait);
  }

  function scoresFor(winner: Color | null): number[] {
    return ctx.seats.map((s) => (winner === null ? 0.5 : s === seat[winner] ? 1 : 0));
  }

  function finish(state: Outcome): MatchResult {
    if (state.kind === 'draw') {
      everyone(drawBlock());
      const reason = `draw: ${QUIET_MOVE_LIMIT} moves by each side without a capture or a man move`;
      vis?.end(reason);
      return { scores: scoresFor(null), reason };
    }
    const loser = opponent(state.winner);
    const blocks = winBlocks(state.winner, state.reason);
    seat[loser].write(blocks.loser);
    seat[state.winner].write(blocks.others);
    ctx.spectators.write(blocks.others);
    const why = state.reason === 'no-pieces' ? 'has no pieces left' : 'has no legal move';
    const reason = `${names[state.winner]} (${state.winner}) wins: ${names[loser]} (${loser}) ${why}`;
    vis?.end(reason);
    return { scores: scoresFor(state.winner), reason };
  }
}

/**
 * Reads the mover's move. An invalid line is answered with the reference's message and the prompt,
 * and the inactivity timeout starts again for the next line, as on the reference server; only
 * MAX_INVALID_LINES_PER_TURN bounds a turn. The timeout is the seat's read limit (no timer of the
 * game's own per line), with the "timed out" block as its last words (`timedOut`, per seat).
 */
async function readMove(ctx: MatchContext, mover: PlayerSeat, position: Position, moves: readonly Move[], timedOut: readonly ReadOptions[]): Promise<MoveRead> {
  const readOptions = timedOut[mover.index]!;
  for (let invalid = 0; ; ) {
    ctx.toMove?.(mover.index, ctx.timeout);
    const line = await mover.readLine(readOptions);
    if (line === null) {
      // The reference treats invalid UTF-8 as a timeout, at once, and tells the sender so.
      if (mover.closeReason === 'line/invalid-utf8') mover.write(timedOutBlock());
      return { kind: 'left', why: describeLeave(mover.closeReason) };
    }
    const judged = judgeMoveLine(position, line, moves);
    if (judged.ok) return { kind: 'move', move: judged.value };
    if (++invalid >= MAX_INVALID_LINES_PER_TURN) {
      mover.write(tooManyInvalidLinesBlock(MAX_INVALID_LINES_PER_TURN));
      mover.close('removed');
      return { kind: 'left', why: `sent ${MAX_INVALID_LINES_PER_TURN} invalid lines in one turn` };
    }
    mover.write(refusalBlock(judged.error, position.turn) + promptBlock());
  }
}

function describeLeave(reason: SeatCloseReason | null): string {
  switch (reason) {
    case 'timeout':
      return 'did not move in time';
    case 'line/too-long':
      return 'sent a line too long';
    case 'line/invalid-utf8':
      return 'sent invalid UTF-8';
    case 'removed':
    case 'match-over':
      return 'was removed';
    default:
      return 'disconnected';
  }
}

export const dama: GameDefinition<DamaConfig> = {
  name: 'dama',
  description: readFileSync(new URL('./description.md', import.meta.url), 'utf8'),
  args: ARGS,
  maxLineBytes: 1024,
  answersBadLines: true,
  // Its pictures follow from the colours drawn and the moves read, on a logical clock; a player who
  // left is drawn with why its seat was closed, which the record's note keeps.
  visFromInput: true,
  configure: (params) => {
    const timeout = params.timeout ?? DEFAULT_TIMEOUT;
    return configureMatch(params, { minPlayers: 2, maxPlayers: 2, defaultPlayers: 2, maxBots: 1, defaultTimeout: DEFAULT_TIMEOUT }, ARGS, (args) => {
      const pace = paceArg(args, 1.5);
      if (!pace.ok) return pace;
      return ok({ pace: pace.value, botBudget: { maxMillis: Math.min(BOT_MILLIS, timeout * 250) } });
    });
  },
  play,
  playBot: (io, config, env) => playDamaBot(io, config.botBudget, env),
};

import { readFileSync } from 'node:fs';
import type { GameDefinition, MatchContext, MatchResult } from '../../match/game.js';
import type { PlayerSeat, SeatCloseReason } from '../../match/seat.js';
import { ok } from '../../util/result.js';
import { configureMatch, paceArg, paceArgSpec } from '../game-params.js';
import { opponent, type Color } from './board.js';
import { playDamaBot } from './bot.js';
import { parseMoveLine } from './notation.js';
import { applyMove, findMove, outcome, startPosition, QUIET_MOVE_LIMIT, type Move, type Outcome, type Position } from './rules.js';
import type { SearchBudget } from './search.js';
import {
  DRAW_LINE,
  START_LINE,
  TURN_LINE,
  WIN_LINE,
  YOU_ARE,
  boardBlock,
  invalidMoveBlock,
  moverTurnBlock,
} from './stream.js';
import { DamaVis } from './vis.js';

export interface DamaConfig {
  /** Minimum seconds between the starts of two turns. */
  readonly pace: number;
  /** What the server bot may spend per move. */
  readonly botBudget: SearchBudget;
  /** The position the match starts from (the standard one unless a test or tool sets another). */
  readonly start?: Position;
}

/** Invalid move lines a player may send in one turn; the last one loses the game. */
export const MAX_MOVE_ATTEMPTS = 10;
/** The server bot thinks at most this long per move, and never more than a quarter of the timeout. */
const BOT_MILLIS = 1000;
const DEFAULT_TIMEOUT = 90;

const ARGS = { pace: paceArgSpec(1.5) };

type MoveRead =
  | { readonly kind: 'move'; readonly move: Move }
  | { readonly kind: 'gone'; readonly why: string };

async function play(ctx: MatchContext, config: DamaConfig): Promise<MatchResult> {
  // Colours are drawn, so a server bot (always the last seat) plays both sides over many matches.
  const whiteIndex = ctx.random.bit();
  const seat: Readonly<Record<Color, PlayerSeat>> = { white: ctx.seats[whiteIndex]!, black: ctx.seats[1 - whiteIndex]! };
  const names = { white: seat.white.name, black: seat.black.name };
  const everyone = (text: string): void => {
    seat.white.write(text);
    seat.black.write(text);
    ctx.spectators.write(text);
  };
  const vis = new DamaVis((event) => ctx.vis(event));
  let position = config.start ?? startPosition();

  everyone(`${names.white}\n${names.black}\n${START_LINE}\n`);
  everyone(boardBlock(position.board));
  seat.white.write(`${YOU_ARE.white}\n`);
  seat.black.write(`${YOU_ARE.black}\n`);
  vis.start(position, names);

  let turnStarted = Number.NEGATIVE_INFINITY;
  for (let turn = 0; ; turn++) {
    const state = outcome(position);
    if (state) return finish(state);
    const wait = config.pace - (ctx.elapsed() - turnStarted);
    if (wait > 0) await ctx.sleep(wait);
    turnStarted = ctx.elapsed();

    const color = position.turn;
    const mover = seat[color];
    const waiting = seat[opponent(color)];
    mover.write(moverTurnBlock(color));
    // The spec's first turn shows one more empty line to the waiting player and the spectators.
    const extra = turn === 0 ? '\n' : '';
    waiting.write(`${TURN_LINE[color]}\n${extra}`);
    ctx.spectators.write(`${TURN_LINE[color]}\n${extra}`);

    const read = await readMove(ctx, mover, position);
    if (read.kind === 'gone') {
      const winner = opponent(color);
      everyone(`${WIN_LINE[winner]}\n`);
      const reason = `${names[winner]} (${winner}) wins: ${names[color]} (${color}) ${read.why}`;
      vis.end(reason);
      return { scores: scoresFor(winner), reason };
    }
    vis.move(read.move, color, mover.name);
    position = applyMove(position, read.move);
    everyone(boardBlock(position.board));
  }

  function scoresFor(winner: Color | null): number[] {
    return ctx.seats.map((s) => (winner === null ? 0.5 : s === seat[winner] ? 1 : 0));
  }

  function finish(state: Outcome): MatchResult {
    if (state.kind === 'draw') {
      everyone(`${DRAW_LINE}\n`);
      const reason = `draw: ${QUIET_MOVE_LIMIT} moves by each side without a capture or a man move`;
      vis.end(reason);
      return { scores: scoresFor(null), reason };
    }
    const loser = opponent(state.winner);
    everyone(`${WIN_LINE[state.winner]}\n`);
    const why = state.reason === 'no-pieces' ? 'has no pieces left' : 'has no legal move';
    const reason = `${names[state.winner]} (${state.winner}) wins: ${names[loser]} (${loser}) ${why}`;
    vis.end(reason);
    return { scores: scoresFor(state.winner), reason };
  }
}

/**
 * Reads the mover's move. An invalid line is answered and the prompt repeated; the inactivity
 * timeout runs for the whole turn, not per attempt, so retrying never buys time.
 */
async function readMove(ctx: MatchContext, mover: PlayerSeat, position: Position): Promise<MoveRead> {
  const deadline = ctx.elapsed() + ctx.timeout;
  for (let attempt = 1; ; attempt++) {
    const remaining = deadline - ctx.elapsed();
    if (remaining <= 0) {
      mover.close('timeout');
      return { kind: 'gone', why: describeLeave('timeout') };
    }
    const line = await mover.readLine({ timeoutSeconds: remaining });
    if (line === null) return { kind: 'gone', why: describeLeave(mover.closeReason) };
    const squares = parseMoveLine(line);
    const move = squares.ok ? findMove(position, squares.value) : null;
    if (move) return { kind: 'move', move };
    if (attempt >= MAX_MOVE_ATTEMPTS) {
      mover.close('removed');
      return { kind: 'gone', why: `sent ${MAX_MOVE_ATTEMPTS} invalid moves in one turn` };
    }
    mover.write(invalidMoveBlock());
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

import { readFileSync } from 'node:fs';
import type { GameDefinition, MatchContext, MatchResult } from '../../match/game.js';
import type { Random } from '../../match/random.js';
import type { PlayerSeat, SeatCloseReason } from '../../match/seat.js';
import { ok } from '../../util/result.js';
import { MISSPELT_PACE_WORDS, configureMatch, paceArg, paceArgSpec } from '../game-params.js';
import { playRoyalUrBot } from './bot.js';
import { formatCoins, randomDice, rollValue, type Coin, type Coins, type DiceSource } from './dice.js';
import {
  TOKENS,
  applyMove,
  initialState,
  legalMoves,
  opponent,
  parseToken,
  passTurn,
  tokensExited,
  type MoveError,
  type MoveOutcome,
  type PlayerIndex,
} from './rules.js';
import { RoyalUrVis } from './vis.js';

export interface RoyalUrConfig {
  /** Minimum seconds between two rolls. */
  readonly pace: number;
}

export interface RoyalUrOptions {
  /** Where the rolls come from: four fair coins from the match's seeded Random unless a test scripts them. */
  readonly dice?: (random: Random) => DiceSource;
  /**
   * Who plays first: drawn from the match's Random (the reference server shuffled the players, and
   * server bots always take the last seats), or the seat order, for tests that script both sides.
   */
  readonly order?: 'random' | 'seats';
}

const DEFAULT_PACE = 1.5;
const DEFAULT_TIMEOUT_SECONDS = 90;
/** How much of an invalid line the result's reason quotes. */
const QUOTE_LIMIT = 40;
const RETIRE = 'RETIRE';

const ARGS = { pace: paceArgSpec(DEFAULT_PACE) };

/**
 * The lines sent again and again, encoded once for every match (PlayerSeat.writeBytes): each of the
 * 16 rolls (coin i is bit 3 - i of the index) and each token's move.
 */
const ROLL_LINES: readonly Buffer[] = Array.from({ length: 16 }, (_, bits) => Buffer.from(`${formatCoins([3, 2, 1, 0].map((bit) => ((bits >> bit) & 1) as Coin) as unknown as Coins)}\n`));
const TOKEN_LINES: readonly Buffer[] = Array.from({ length: TOKENS + 1 }, (_, token) => Buffer.from(`${token}\n`));

function rollLineOf(coins: Coins): Buffer {
  return ROLL_LINES[coins[0] * 8 + coins[1] * 4 + coins[2] * 2 + coins[3]]!;
}

const LEFT: Readonly<Record<SeatCloseReason, string>> = {
  disconnected: 'disconnected',
  timeout: 'did not move in time',
  'line/too-long': 'sent a line that is too long',
  'line/invalid-utf8': 'sent invalid UTF-8',
  flood: 'sent too much input',
  removed: 'was removed',
  shutdown: 'was stopped by the server shutting down',
  'match-over': 'left',
};

const WHY_INVALID: Readonly<Record<MoveError, string>> = {
  'move/not-a-number': 'not a token number',
  'move/no-such-token': 'no such token',
  'move/game-over': 'the game is over',
  'move/zero-roll': 'a roll of 0 moves nothing',
  'move/token-exited': 'that token has already exited',
  'move/overshoot': 'the roll would take that token past the end',
  'move/own-token': 'it would land on its own token',
  'move/rosette-occupied': 'the rosette is occupied',
};

async function play(ctx: MatchContext, config: RoyalUrConfig, options: RoyalUrOptions): Promise<MatchResult> {
  const [seatA, seatB] = ctx.seats as [PlayerSeat, PlayerSeat];
  const aFirst = options.order === 'seats' || ctx.random.bit() === 0;
  const players: readonly [PlayerSeat, PlayerSeat] = aFirst ? [seatA, seatB] : [seatB, seatA];
  const names = `${players[0].name}\n${players[1].name}\n`;
  players[0].write(`${names}0\n`);
  players[1].write(`${names}1\n`);
  ctx.spectators.write(names);
  const dice = (options.dice ?? randomDice)(ctx.random);
  // Drawn only when someone wants to see it (GameDefinition.visFromInput): otherwise a turn builds no event.
  const vis = ctx.drawing ? new RoyalUrVis((event) => ctx.vis(event), [players[0].name, players[1].name]) : null;

  const victory = (winner: PlayerIndex, why: string): MatchResult => {
    const scores = ctx.seats.map(() => 0);
    scores[players[winner].index] = 1;
    return { scores, reason: `${players[winner].name} wins: ${why}` };
  };

  // Both half-turns are paced, as the reference paces them: the roll goes out at once, the move no
  // earlier than `pace` after the roll, and the next roll no earlier than `pace` after the move (or
  // after the roll, when there was no move to make).
  // A wait that is already over is not awaited: at pace 0 a turn then costs no promise of its own.
  const waitUntil = (at: number): Promise<void> | null => (at > ctx.elapsed() ? ctx.sleep(at - ctx.elapsed()) : null);
  let state = initialState(0);
  let nextRollAt = 0;
  for (;;) {
    const rollWait = waitUntil(nextRollAt);
    if (rollWait) await rollWait;
    const rolledAt = ctx.elapsed();
    const coins = dice.roll();
    const roll = rollValue(coins);
    const rollLine = rollLineOf(coins);
    players[0].writeBytes(rollLine);
    players[1].writeBytes(rollLine);
    ctx.spectators.write(rollLine);
    const mover = state.toMove;
    vis?.roll(mover, coins);
    if (legalMoves(state, roll).length === 0) {
      vis?.pass(mover);
      state = passTurn(state);
      nextRollAt = rolledAt + config.pace;
      continue;
    }

    const seat = players[mover];
    const other = players[opponent(mover)];
    ctx.toMove?.(seat.index, ctx.timeout);
    const line = await seat.readLine();
    let failure: string | null = null;
    let outcome: MoveOutcome | null = null;
    if (line === null) {
      failure = LEFT[seat.closeReason ?? 'disconnected'];
    } else {
      const token = parseToken(line);
      const moved = token.ok ? applyMove(state, token.value, roll) : token;
      if (moved.ok) outcome = moved.value;
      else {
        failure = `sent an invalid move ${quote(line)} (${WHY_INVALID[moved.error]})`;
        seat.close('removed');
      }
    }
    if (!outcome) {
      // The opponent and the spectators learn it in place of the move they were waiting for.
      other.write(`${RETIRE}\n`);
      ctx.spectators.write(`${RETIRE}\n`);
      const why = `${seat.name} ${failure ?? 'retired'}`;
      vis?.retire(mover, failure ?? 'retired');
      vis?.win(opponent(mover), why);
      return victory(opponent(mover), why);
    }
    const moveWait = waitUntil(rolledAt + config.pace);
    if (moveWait) await moveWait;
    const moveLine = TOKEN_LINES[outcome.token] ?? Buffer.from(`${outcome.token}\n`);
    other.writeBytes(moveLine);
    ctx.spectators.write(moveLine);
    vis?.move(outcome);
    nextRollAt = ctx.elapsed() + config.pace;
    state = outcome.state;
    if (outcome.winner !== null) {
      const why = `all ${TOKENS} tokens home (${other.name} had ${tokensExited(state, opponent(mover))})`;
      vis?.win(mover, why);
      return victory(mover, why);
    }
  }
}

function quote(line: string): string {
  return JSON.stringify(line.length > QUOTE_LIMIT ? `${line.slice(0, QUOTE_LIMIT)}...` : line);
}

/** The game with its dice and play order as given; `royalur` below is the one the server runs. */
export function createRoyalUr(options: RoyalUrOptions = {}): GameDefinition<RoyalUrConfig> {
  return {
    name: 'royalur',
    description: readFileSync(new URL('./description.md', import.meta.url), 'utf8'),
    args: ARGS,
    maxLineBytes: 1024,
    // Its pictures follow from the dice (the match's seeded source) and the moves read, on a
    // logical clock; a player who left is drawn with why its seat was closed, which the note keeps.
    visFromInput: true,
    configure: (params) =>
      configureMatch(
        params,
        { minPlayers: 2, maxPlayers: 2, defaultPlayers: 2, maxBots: 1, defaultTimeout: DEFAULT_TIMEOUT_SECONDS },
        ARGS,
        (args) => {
          const pace = paceArg(args, DEFAULT_PACE, MISSPELT_PACE_WORDS);
          if (!pace.ok) return pace;
          return ok({ pace: pace.value });
        },
      ),
    play: (ctx, config) => play(ctx, config, options),
    playBot: (io) => playRoyalUrBot(io),
  };
}

export const royalur = createRoyalUr();

import type { MatchContext, MatchResult } from '../../match/game.js';
import { arrivalsFor, type ArrivalOrder } from './arrivals.js';
import { formatMove, parseMove } from './notation.js';
import { apply, checkMove, hasLegalMove, startPosition, type Position } from './rules.js';
import type { LossCause } from './outcome.js';
import { ClobberVis } from './vis.js';

export interface ClobberConfig {
  readonly columns: number;
  readonly rows: number;
  /** Games per match; colours alternate, seat 0 is black in the odd games. */
  readonly games: number;
  /** Minimum seconds between moves, and pause between games. */
  readonly pace: number;
}

interface GameOutcome {
  readonly winner: number;
  readonly cause: LossCause;
}

/**
 * The game manager: plays a match of `games` games of clobber over the 2006 tournament stream
 * (description.md). Everything a player does wrong loses the game at hand, except leaving, which
 * loses the rest of the match.
 */
export async function playClobberMatch(ctx: MatchContext, config: ClobberConfig): Promise<MatchResult> {
  const seats = ctx.seats;
  const names = [seats[0]!.name, seats[1]!.name] as const;
  const arrivals = arrivalsFor(ctx);
  // Drawn only when someone wants to see it (GameDefinition.visFromInput): otherwise a move builds no event.
  const vis = ctx.drawing ? new ClobberVis((event) => ctx.vis(event), config.columns, config.rows, names, config.games, config.pace) : null;
  const spectate = (line: string) => ctx.spectators.write(`${line}\n`);
  spectate(`players ${names[0]} ${names[1]}`);
  spectate(`board ${config.columns} ${config.rows}`);
  spectate(`games ${config.games}`);
  vis?.start();

  const wins = [0, 0];
  let forfeit: string | null = null;
  /** The seat that left, if one did: it loses the game it left in and every later one. */
  let gone: number | null = null;
  for (let game = 1; game <= config.games; game++) {
    const black = (game - 1) % 2;
    if (game > 1 && gone === null) await ctx.sleep(config.pace);
    spectate(`game ${game} black ${names[black]} white ${names[1 - black]}`);
    const outcome: GameOutcome =
      gone === null ? await playGame(ctx, config, arrivals, vis, game, black, wins) : { winner: 1 - gone, cause: 'disconnected' };
    wins[outcome.winner]!++;
    const loser = 1 - outcome.winner;
    spectate(`result ${game} winner ${names[outcome.winner]} loser ${names[loser]} ${outcome.cause}`);
    vis?.endGame(game, outcome.winner, outcome.cause, wins);
    if (outcome.cause === 'disconnected' && gone === null) {
      gone = loser;
      forfeit = `${names[loser]} left in game ${game}${game < config.games ? `; the remaining games went to ${names[outcome.winner]}` : ''}`;
    }
  }
  spectate(`score ${names[0]} ${wins[0]} ${names[1]} ${wins[1]}`);
  const [a, b] = wins as [number, number];
  const verdict = a === b ? `draw ${a}-${b}` : `${a > b ? names[0] : names[1]} wins ${Math.max(a, b)}-${Math.min(a, b)}`;
  const reason = forfeit ? `${verdict} (${forfeit})` : verdict;
  vis?.endMatch(wins, reason);
  return { scores: wins, reason };
}

async function playGame(
  ctx: MatchContext,
  config: ClobberConfig,
  arrivals: ArrivalOrder,
  vis: ClobberVis | null,
  game: number,
  black: number,
  wins: readonly number[],
): Promise<GameOutcome> {
  const seats = ctx.seats;
  const start = startPosition(config.columns, config.rows);
  if (!start.ok) throw new Error(`clobber: bad board ${config.columns} x ${config.rows}`);
  let position: Position = start.value;
  await arrivals.reset();
  seats[black]!.write(`${config.columns} ${config.rows} 1\n`);
  seats[1 - black]!.write(`${config.columns} ${config.rows} 0\n`);
  arrivals.prompted(black);
  ctx.toMove?.(black, ctx.timeout);
  vis?.startGame(game, black, position, wins);
  let lastMoveAt = ctx.elapsed();

  /** Ends the game against `offender`: it gets `error`, its opponent `end`. */
  const foul = (offender: number, cause: LossCause): GameOutcome => {
    seats[offender]!.write('error\n');
    seats[1 - offender]!.write('end\n');
    return { winner: 1 - offender, cause };
  };

  for (;;) {
    const mover = position.toMove === 'black' ? black : 1 - black;
    if (!hasLegalMove(position)) return { winner: 1 - mover, cause: 'no-move' };
    const arrival = await arrivals.next(ctx.timeout, ctx.after);
    if (arrival === 'timeout') return foul(mover, 'timeout');
    if (arrival.line === null) return foul(arrival.seat, 'disconnected');
    if (arrival.seat !== mover || !arrival.inTurn) return foul(arrival.seat, 'out-of-turn');
    const parsed = parseMove(arrival.line, position);
    if (!parsed.ok) return foul(mover, parsed.error === 'move/syntax' ? 'bad-syntax' : 'illegal-move');
    const checked = checkMove(position, parsed.value);
    if (!checked.ok) return foul(mover, 'illegal-move');
    const move = checked.value;
    ctx.spectators.write(`move ${seats[mover]!.name} ${formatMove(position, move)}\n`);
    vis?.move(position, move, mover);
    const before = position;
    position = apply(position, move);
    // Pace: the opponent sees the move no sooner than `pace` seconds after the previous one.
    await ctx.sleep(config.pace - (ctx.elapsed() - lastMoveAt));
    lastMoveAt = ctx.elapsed();
    seats[1 - mover]!.write(`${formatMove(before, move)}\n`);
    arrivals.prompted(1 - mover);
    ctx.toMove?.(1 - mover, ctx.timeout);
  }
}

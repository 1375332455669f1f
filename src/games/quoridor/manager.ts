import type { MatchContext, MatchResult } from '../../match/game.js';
import type { PlayerSeat } from '../../match/seat.js';
import { QuoridorBoard } from './board.js';
import { BLACK, WHITE, isWallMove, other, sideColor, type Side } from './geometry.js';
import { formatColoredMove, formatMove } from './notation.js';
import { judgeGenmove, parseWinnerAnswer, readAnswer, type QtpAnswer } from './qtp-controller.js';
import { QuoridorVis } from './vis.js';

export interface QuoridorConfig {
  readonly size: number;
  readonly walls: number;
  readonly games: number;
  /** Least seconds between two moves. */
  readonly pace: number;
}

/** Moves (both players together) after which a game is a draw: 50 per row of the board. */
export function moveLimit(size: number): number {
  return 50 * size;
}

/**
 * How long we wait for the answer to `quit` before leaving, in seconds: QTP says the controller
 * receives it, but an engine that never answers must not hold the match.
 */
export const QUIT_GRACE_SECONDS = 2;

interface GameOutcome {
  /** Seat index of the winner, or null for a draw. */
  readonly winner: number | null;
  readonly color: 'white' | 'black' | 'draw';
  readonly reason: string;
}

/**
 * The game manager: the QTP controller toward both seats, the way the reference referee drives
 * two engines. Per game: `boardsize`, `clear_board`, `walls` to both; then `genmove` to the side to
 * move, the move checked with our rules and passed to the other engine with `playmove`/`playwall`;
 * `winner` to both at the end. Colours alternate between games; seat 0 is black in game 1.
 */
export class QuoridorManager {
  private readonly seats: readonly [PlayerSeat, PlayerSeat];
  private readonly names: readonly [string, string];
  /** Drawn only when someone wants to see it (GameDefinition.visFromInput): otherwise a move builds no event. */
  private readonly vis: QuoridorVis | null;
  private lastMoveAt = Number.NEGATIVE_INFINITY;

  constructor(
    private readonly ctx: MatchContext,
    private readonly config: QuoridorConfig,
  ) {
    this.seats = [ctx.seats[0]!, ctx.seats[1]!];
    this.names = [this.seats[0].name, this.seats[1].name];
    this.vis = ctx.drawing ? new QuoridorVis((event) => ctx.vis(event), config.size, config.pace) : null;
  }

  async play(): Promise<MatchResult> {
    const { size, walls, games } = this.config;
    const { ctx, names } = this;
    ctx.spectators.write(`${names[0]}\n${names[1]}\nsize ${size} walls ${walls} games ${games}\n`);
    this.vis?.drawBoard();
    const engineNames = await Promise.all(this.seats.map((seat) => this.ask(seat, 'name')));
    engineNames.forEach((answer, i) => {
      if (answer.kind === 'success' && answer.text) this.vis?.log(`${names[i]} runs ${answer.text}`);
    });
    const wins = [0, 0];
    let draws = 0;
    for (let game = 1; game <= games; game++) {
      const outcome = await this.playGame(game);
      const stopped = ctx.stopReason();
      if (stopped !== null) {
        // The players did not leave: the server stops the match. The game is nobody's, and no
        // later game is played (the record has no scores and says why).
        ctx.spectators.write(`result ${game} interrupted ${stopped}\n`);
        this.vis?.log(`Game ${game}: interrupted (${stopped})`);
        return { scores: wins, reason: `interrupted: ${stopped}` };
      }
      if (outcome.winner === null) draws++;
      else wins[outcome.winner]!++;
      ctx.spectators.write(`result ${game} ${outcome.color} ${outcome.reason}\n`);
      this.vis?.log(`Game ${game}: ${outcome.winner === null ? 'draw' : `${names[outcome.winner]} wins`} (${outcome.reason})`);
    }
    await this.quit();
    const [a, b] = wins as [number, number];
    const verdict = a === b ? 'tie' : `${a > b ? names[0] : names[1]} wins`;
    const drawn = draws > 0 ? `, ${draws} drawn` : '';
    return { scores: wins, reason: `${verdict}: ${names[0]} won ${a}, ${names[1]} won ${b} of ${games} game${games === 1 ? '' : 's'}${drawn}` };
  }

  private async playGame(game: number): Promise<GameOutcome> {
    const { size, walls } = this.config;
    // Seat 0 is black in odd games.
    const seatOf: [number, number] = game % 2 === 1 ? [1, 0] : [0, 1];
    const blackName = this.names[seatOf[BLACK]];
    const whiteName = this.names[seatOf[WHITE]];
    this.ctx.spectators.write(`game ${game} black ${blackName} white ${whiteName}\n`);
    const board = QuoridorBoard.start(size, walls);
    const sideNames: [string, string] = [whiteName, blackName];
    this.vis?.startGame(game, sideNames, [board.pawns[WHITE]!, board.pawns[BLACK]!], walls);

    const setups = await Promise.all(([WHITE, BLACK] as const).map((side) => this.setUp(this.seats[seatOf[side]])));
    // Logged once both are done, white's first: in the order the engines answered, a replay could not tell.
    for (const { notes } of setups) for (const note of notes) this.vis?.log(note);
    // Both failing the set-up is a draw; one failing loses.
    const failed = ([WHITE, BLACK] as const).filter((side) => setups[side].failure !== null);
    if (failed.length === 2) {
      return { winner: null, color: 'draw', reason: `neither player could start: white ${setups[WHITE].failure}, black ${setups[BLACK].failure}` };
    }
    if (failed.length === 1) return this.loss(seatOf, failed[0]!, setups[failed[0]!].failure!);

    const limit = moveLimit(size);
    while (board.moveCount < limit) {
      const side = board.turn;
      const mover = this.seats[seatOf[side]];
      const watcher = this.seats[seatOf[other(side)]];
      await this.keepPace();
      this.ctx.toMove?.(mover.index, this.ctx.timeout);
      const answer = await this.ask(mover, `genmove ${sideColor(side)}`);
      const verdict = judgeGenmove(board, side, answer, this.goneWhy(mover));
      if (!verdict.ok) return this.loss(seatOf, side, verdict.why);
      board.play(side, verdict.move);
      this.lastMoveAt = this.ctx.elapsed();
      const text = formatMove(size, verdict.move);
      this.ctx.spectators.write(`${formatColoredMove(size, side, verdict.move)}\n`);
      this.vis?.move(side, verdict.move, text, sideNames, board.wallsLeft[side]!);
      const command = isWallMove(size, verdict.move) ? 'playwall' : 'playmove';
      const told = await this.ask(watcher, `${command} ${sideColor(side)} ${text}`);
      if (told.kind === 'gone' || told.kind === 'chatter') return this.loss(seatOf, other(side), this.lostWhy(watcher, told));
      if (told.kind === 'failure') this.vis?.log(`${sideNames[other(side)]} rejected ${command} ${sideColor(side)} ${text}: ? ${told.text}`);
      if (board.winner() !== null) {
        await this.askWinners(side);
        return {
          winner: seatOf[side],
          color: sideColor(side),
          reason: `${sideNames[side]} (${sideColor(side)}) reached row ${board.goalRow(side) + 1}`,
        };
      }
    }
    return { winner: null, color: 'draw', reason: `the move limit of ${limit} moves was reached` };
  }

  /**
   * `boardsize`, `clear_board`, `walls`: `failure` null when done, else why the engine cannot play;
   * `notes` for the log (a command refused that the game does without).
   */
  private async setUp(seat: PlayerSeat): Promise<{ failure: string | null; notes: string[] }> {
    const { size, walls } = this.config;
    const notes: string[] = [];
    const sized = await this.ask(seat, `boardsize ${size}`);
    if (sized.kind === 'failure') return { failure: `refused board size ${size}: ? ${sized.text}`, notes };
    if (sized.kind !== 'success') return { failure: this.lostWhy(seat, sized), notes };
    for (const command of ['clear_board', `walls ${walls}`]) {
      const answer = await this.ask(seat, command);
      if (answer.kind === 'failure') notes.push(`${seat.name} answered ${command} with ? ${answer.text}`);
      else if (answer.kind !== 'success') return { failure: this.lostWhy(seat, answer), notes };
    }
    return { failure: null, notes };
  }

  /**
   * Sends one command and reads its answer, within the match's timeout. A seat already closed gets
   * nothing and its read gives the end at once (for a bad line, the lines it sent before it
   * first): read rather than looked at, so that a record's replay, which knows a seat's end only
   * when its game reads it, sees it closed where the match did.
   */
  private async ask(seat: PlayerSeat, command: string): Promise<QtpAnswer> {
    seat.write(`${command}\n`);
    return readAnswer(seat, this.ctx.timeout, () => this.ctx.elapsed());
  }

  /** `winner` to both engines at the end of a game; their answers only go to the log. */
  private async askWinners(side: Side): Promise<void> {
    const answers = await Promise.all(this.seats.map((seat) => this.ask(seat, 'winner')));
    answers.forEach((answer, i) => {
      if (answer.kind === 'gone') return;
      const named = parseWinnerAnswer(answer);
      if (named !== sideColor(side)) this.vis?.log(`${this.names[i]} disagrees about the winner: ${named ?? 'no readable answer'}`);
    });
  }

  private loss(seatOf: readonly [number, number], side: Side, why: string): GameOutcome {
    const winner = other(side);
    return { winner: seatOf[winner]!, color: sideColor(winner), reason: `${sideColor(side)} ${why}` };
  }

  private lostWhy(seat: PlayerSeat, answer: QtpAnswer): string {
    return answer.kind === 'chatter' ? 'sent too many lines without an answer' : this.goneWhy(seat);
  }

  private goneWhy(seat: PlayerSeat): string {
    switch (seat.closeReason) {
      case 'timeout':
        return 'timed out';
      case 'line/too-long':
        return 'sent a line too long';
      case 'line/invalid-utf8':
        return 'sent invalid UTF-8';
      default:
        return 'left the game';
    }
  }

  private async keepPace(): Promise<void> {
    const wait = this.lastMoveAt + this.config.pace - this.ctx.elapsed();
    if (wait > 0) await this.ctx.sleep(wait);
  }

  /**
   * Says goodbye to the engines still there and waits for their answers (an answer, not the blank
   * line left over from the previous one), each for at most QUIT_GRACE_SECONDS.
   */
  private async quit(): Promise<void> {
    await Promise.all(
      this.seats.map(async (seat) => {
        if (seat.closed) return;
        seat.write('quit\n');
        await Promise.race([readAnswer(seat, Number.POSITIVE_INFINITY, () => this.ctx.elapsed()), this.ctx.sleep(QUIT_GRACE_SECONDS)]);
      }),
    );
  }
}

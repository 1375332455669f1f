import { QuoridorBoard } from './board.js';
import { BLACK, WHITE, sideColor, type Side } from './geometry.js';
import { formatMove } from './notation.js';
import { DEFAULT_WEIGHTS, searchBoard, type EvalWeights, type SearchBudget } from './search.js';

export interface SelfMatchOptions {
  readonly games: number;
  readonly size: number;
  readonly walls?: number;
  /** Budgets of engine 0 and engine 1; engine 0 plays black (moves first) in even-numbered games. */
  readonly budgets: readonly [SearchBudget, SearchBudget];
  /** Evaluation weights of engine 0 and engine 1 (for tuning). */
  readonly weights?: readonly [EvalWeights, EvalWeights];
  readonly seed: string;
  /** Plies after which a game is a draw. */
  readonly moveLimit?: number;
  readonly onGame?: (line: string) => void;
}

export interface SelfMatchResult {
  readonly wins: [number, number];
  readonly draws: number;
}

/** Plays our engine against itself in-process (bench: strength against thinking time). */
export function playSelfMatch(options: SelfMatchOptions): SelfMatchResult {
  const wins: [number, number] = [0, 0];
  let draws = 0;
  const limit = options.moveLimit ?? 400;
  for (let game = 0; game < options.games; game++) {
    const board = QuoridorBoard.start(options.size, options.walls);
    // Engine e plays side engineSide[e].
    const blackEngine = game % 2;
    const started = Date.now();
    while (!board.isOver() && board.moveCount < limit) {
      const side: Side = board.turn;
      const engine = side === BLACK ? blackEngine : 1 - blackEngine;
      const weights = options.weights?.[engine] ?? DEFAULT_WEIGHTS;
      const report = searchBoard(board, side, options.budgets[engine]!, `${options.seed}:${game}:${board.moveCount}`, weights);
      board.play(side, report.move);
    }
    const winner = board.winner();
    if (winner === null) draws++;
    else wins[winner === BLACK ? blackEngine : 1 - blackEngine]++;
    const last = board.history().slice(-1)[0];
    options.onGame?.(
      `game ${game + 1}: engine ${blackEngine} black, engine ${1 - blackEngine} white; ` +
        `${winner === null ? 'draw' : `${sideColor(winner)} (engine ${winner === BLACK ? blackEngine : 1 - blackEngine}) wins`} ` +
        `after ${board.moveCount} moves (last ${last ? formatMove(board.size, last[1]) : '-'}), walls left W${board.wallsLeft[WHITE]} B${board.wallsLeft[BLACK]}, ${((Date.now() - started) / 1000).toFixed(1)} s`,
    );
  }
  return { wins, draws };
}

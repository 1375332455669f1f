import { GOAL_INDEX, type Board } from './board.js';
import { legalMoves } from './moves.js';
import { winCondition } from './game-end.js';
import { TURN_LIMIT, carrotCost, mustEatSalad, performMove, type GameState, type Move, type PlayerState } from './rules.js';

/**
 * The server bot's search: alpha-beta (negamax) over whole moves with iterative deepening, bounded
 * by depth, by a node budget (which alone makes results reproducible, for tests) and, when serving,
 * by time: on a busy machine a node budget alone can take longer than the 2 s soft limit. When the
 * time is up the best move of the last complete depth stands (depth 1 always completes). Pure and
 * structured-clonable in and out, so it runs on a worker thread through BotEnv.compute.
 */

export interface SearchOptions {
  /** Deepest search in plies (moves). */
  readonly maxDepth: number;
  /** Positions to visit at most; deepening stops when a depth cannot finish within it. */
  readonly maxNodes: number;
  /** Milliseconds the search may take, or absent for no time bound. */
  readonly maxMillis?: number;
  /** Evaluation weights (defaults: DEFAULT_WEIGHTS). */
  readonly weights?: Partial<EvalWeights>;
}

export interface SearchResult {
  readonly move: Move;
  readonly value: number;
  readonly depth: number;
  readonly nodes: number;
}

/** Beyond any evaluation: a won or lost game. */
const WIN = 1_000_000;

/** The evaluation's estimates; every one is a count of moves or of carrots. */
export interface EvalWeights {
  /** Carrots a salad brings when eaten (10 ahead, 30 behind). */
  readonly carrotsPerSalad: number;
  /** Carrots one move of gathering brings (falling back, exchanging). */
  readonly carrotsPerGatherMove: number;
  /** Carrots one move of dropping gets rid of before the goal. */
  readonly carrotsPerDumpMove: number;
  /** Extra moves per salad that no salad field ahead (nor the card) can take. */
  readonly movesPerMissingSaladField: number;
  /** Moves a card in hand is worth. */
  readonly card: number;
}

export const DEFAULT_WEIGHTS: EvalWeights = {
  carrotsPerSalad: 20,
  carrotsPerGatherMove: 30,
  carrotsPerDumpMove: 15,
  movesPerMissingSaladField: 2,
  card: 0.25,
};

/** The salad fields ahead of `index` a player with `salads` salads will stop at (the nearest ones). */
function saladStops(board: Board, index: number, salads: number): number[] {
  const stops: number[] = [];
  for (let i = index + 1; i < GOAL_INDEX && stops.length < salads; i++) if (board[i] === 'SALAD') stops.push(i);
  return stops;
}

/**
 * An estimate of the moves a player needs to reach the goal on its own: one per salad to eat, and
 * the moves that cover the distance with the carrots it has and will get. Covering d fields in k
 * equal steps costs about d^2/(2k) + d/2 carrots, so k = d^2 / (2C - d) for C carrots. Carrots
 * beyond what the largest jumps between the salad stops can spend must be dropped on the way.
 */
export function movesToFinish(board: Board, player: PlayerState, weights: EvalWeights = DEFAULT_WEIGHTS): number {
  const distance = GOAL_INDEX - player.index;
  if (distance === 0) return 0;
  const salads = player.salads;
  let carrots = player.carrots + salads * weights.carrotsPerSalad;
  // A salad field just entered: the salad will be eaten next (that move is counted below).
  const eatingHere = mustEatSalad(board, player);
  if (player.cards.includes('TAKE_OR_DROP_CARROTS')) carrots += 20;
  let moves = salads;
  const stops = saladStops(board, player.index, eatingHere ? salads - 1 : salads);
  const byCard = player.cards.includes('EAT_SALAD') ? 1 : 0;
  moves += Math.max(0, salads - stops.length - byCard - (eatingHere ? 1 : 0)) * weights.movesPerMissingSaladField;
  if (carrots < distance) {
    // Not even one field a move: gather first.
    moves += distance + (distance - carrots) / weights.carrotsPerGatherMove;
  } else {
    moves += Math.max(1 + stops.length, (distance * distance) / (2 * carrots - distance));
    let maxSpend = 0;
    let from = player.index;
    for (const stop of [...stops, GOAL_INDEX]) {
      maxSpend += carrotCost(stop - from);
      from = stop;
    }
    const excess = carrots - 10 - maxSpend;
    if (excess > 0) moves += excess / weights.carrotsPerDumpMove;
  }
  return moves - player.cards.length * weights.card;
}

/**
 * A player's standing with `movesLeft` moves before the round limit: when it can reach the goal in
 * time, minus the moves it needs; otherwise far below that, ranked by the field it will get to.
 */
export function playerValue(board: Board, player: PlayerState, movesLeft: number, weights: EvalWeights = DEFAULT_WEIGHTS): number {
  const need = movesToFinish(board, player, weights);
  if (need <= movesLeft) return 100 - need + player.index * 0.01;
  const reach = Math.min(GOAL_INDEX - 1, player.index + ((GOAL_INDEX - player.index) * movesLeft) / need);
  return reach * 0.5 - 50;
}

/** The position from the view of the player to move: positive is good for it. */
export function evaluate(state: GameState, weights: EvalWeights = DEFAULT_WEIGHTS): number {
  const mover = state.turn % 2;
  const left = TURN_LIMIT - state.turn;
  return (
    playerValue(state.board, state.players[mover]!, Math.ceil(left / 2), weights) -
    playerValue(state.board, state.players[1 - mover]!, Math.floor(left / 2), weights)
  );
}

function terminalValue(state: GameState, ply: number): number | null {
  const over = winCondition(state);
  if (!over) return null;
  const moverColor = state.turn % 2 === 0 ? 'RED' : 'BLUE';
  // Prefer quicker wins and slower losses.
  return over.winner === moverColor ? WIN - ply : -WIN + ply;
}

/** Nodes between two looks at the clock: a look costs far more than a node. */
const CLOCK_INTERVAL = 64;

class Budget {
  nodes = 0;
  private timeUp = false;
  /** Whether depth 1 has completed: until then the search goes on whatever the time. */
  mayStop = false;
  constructor(
    readonly limit: number,
    readonly weights: EvalWeights,
    private readonly deadline: number,
    private readonly now: () => number,
  ) {}
  /** Counts a node; throws OutOfBudget once the nodes or (after depth 1) the time are spent. */
  visit(): void {
    if (++this.nodes > this.limit) throw new OutOfBudget();
    if (this.nodes % CLOCK_INTERVAL === 0 && this.now() >= this.deadline) this.timeUp = true;
    if (this.timeUp && this.mayStop) throw new OutOfBudget();
  }
  get spent(): boolean {
    return this.nodes >= this.limit || (this.mayStop && (this.timeUp || this.now() >= this.deadline));
  }
}

class OutOfBudget extends Error {}

function children(state: GameState): { move: Move; state: GameState }[] {
  const result: { move: Move; state: GameState }[] = [];
  for (const move of legalMoves(state)) {
    const next = performMove(state, move);
    if (next.ok) result.push({ move, state: next.value });
  }
  return result;
}

function negamax(state: GameState, depth: number, alpha: number, beta: number, ply: number, budget: Budget): number {
  budget.visit();
  const terminal = terminalValue(state, ply);
  if (terminal !== null) return terminal;
  if (depth === 0) return evaluate(state, budget.weights);
  const options = children(state);
  if (depth > 1) options.sort((a, b) => evaluate(a.state, budget.weights) - evaluate(b.state, budget.weights));
  let best = -Infinity;
  for (const option of options) {
    const value = -negamax(option.state, depth - 1, -beta, -alpha, ply + 1, budget);
    if (value > best) best = value;
    if (value > alpha) alpha = value;
    if (alpha >= beta) break;
  }
  return best;
}

/**
 * The best move found for the player to move; deterministic for equal inputs when there is no time
 * bound. `now` is the clock the time bound is read on (tests pass one that moves with the nodes).
 */
export function searchMove(state: GameState, options: SearchOptions, now: () => number = () => performance.now()): SearchResult {
  const deadline = options.maxMillis === undefined ? Infinity : now() + options.maxMillis;
  const budget = new Budget(options.maxNodes, { ...DEFAULT_WEIGHTS, ...options.weights }, deadline, now);
  const root = children(state);
  // Children ordered by their static value for the mover (the child's value is the opponent's view).
  root.sort((a, b) => evaluate(a.state, budget.weights) - evaluate(b.state, budget.weights));
  let best: SearchResult = { move: root[0]!.move, value: -Infinity, depth: 0, nodes: 0 };
  for (let depth = 1; depth <= options.maxDepth; depth++) {
    try {
      let alpha = -Infinity;
      let bestHere = root[0]!;
      for (const option of root) {
        const value = -negamax(option.state, depth - 1, -Infinity, -alpha, 1, budget);
        if (value > alpha) {
          alpha = value;
          bestHere = option;
        }
      }
      best = { move: bestHere.move, value: alpha, depth, nodes: budget.nodes };
      budget.mayStop = true;
      // Search the best move first at the next depth.
      root.splice(root.indexOf(bestHere), 1);
      root.unshift(bestHere);
      if (Math.abs(alpha) > WIN / 2) break;
    } catch (error) {
      if (error instanceof OutOfBudget) break;
      throw error;
    }
    if (budget.spent) break;
  }
  return { ...best, nodes: budget.nodes };
}

/** The entry point for BotEnv.compute (a worker thread in the server). */
export function chooseMove(state: GameState, options: SearchOptions): Move {
  return searchMove(state, options).move;
}

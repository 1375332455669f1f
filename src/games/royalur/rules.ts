import { err, ok, type Result } from '../../util/result.js';

/**
 * The Royal Game of Ur as Code Colosseum plays it. A token's position is a number on its owner's
 * track: 0 before the track (start), 1..14 the track cells, 15 past the end (exited). Cells 5..12
 * are the same physical cells for both players; 1..4 and 13..14 are private to each player.
 */
export const PLAYERS = [0, 1] as const;
export type PlayerIndex = (typeof PLAYERS)[number];

export const TOKENS = 7;
export const TRACK_CELLS = 14;
export const START = 0;
export const END = TRACK_CELLS + 1;
export const ROSETTES: readonly number[] = [4, 8, 14];
export const SHARED_FIRST = 5;
export const SHARED_LAST = 12;
export const MAX_ROLL = 4;

export const MOVE_ERRORS = [
  'move/not-a-number',
  'move/no-such-token',
  'move/game-over',
  'move/zero-roll',
  'move/token-exited',
  'move/overshoot',
  'move/own-token',
  'move/rosette-occupied',
] as const;
export type MoveError = (typeof MOVE_ERRORS)[number];

export interface RoyalUrState {
  /** positions[player][token], each 0 (start), 1..14 (on the track) or 15 (exited). */
  readonly positions: readonly [readonly number[], readonly number[]];
  /** Whose roll comes next. */
  readonly toMove: PlayerIndex;
}

export interface MoveOutcome {
  readonly state: RoyalUrState;
  readonly player: PlayerIndex;
  readonly token: number;
  readonly from: number;
  readonly to: number;
  /** The opponent's token sent back to its start, if any. */
  readonly captured: number | null;
  /** The token landed on a rosette: the same player rolls again. */
  readonly extraTurn: boolean;
  /** Set when this move took the mover's last token out. */
  readonly winner: PlayerIndex | null;
}

export function initialState(first: PlayerIndex = 0): RoyalUrState {
  return { positions: [Array(TOKENS).fill(START), Array(TOKENS).fill(START)], toMove: first };
}

export function opponent(player: PlayerIndex): PlayerIndex {
  return player === 0 ? 1 : 0;
}

export function isShared(cell: number): boolean {
  return cell >= SHARED_FIRST && cell <= SHARED_LAST;
}

export function isRosette(cell: number): boolean {
  return ROSETTES.includes(cell);
}

export function tokensExited(state: RoyalUrState, player: PlayerIndex): number {
  // A loop: this runs for every token checked (checkMove), and a filtered array per call adds up.
  let exited = 0;
  for (const position of state.positions[player]) if (position === END) exited++;
  return exited;
}

/** The player who took all 7 tokens out, or null while the game goes on. */
export function winner(state: RoyalUrState): PlayerIndex | null {
  for (const player of PLAYERS) if (tokensExited(state, player) === TOKENS) return player;
  return null;
}

/**
 * checkMove's answers, made once: it is asked for every token of every turn (legalMoves), and a
 * result is never changed by whoever gets it.
 */
const REFUSED: Readonly<Record<MoveError, Result<number, MoveError>>> = Object.fromEntries(MOVE_ERRORS.map((error) => [error, err(error)])) as Record<MoveError, Result<number, MoveError>>;
const LANDS_ON: readonly Result<number, MoveError>[] = Array.from({ length: END + 1 }, (_, cell) => ok(cell));

/** Where `token` of the player to move would land with `roll`, or why it cannot move. */
export function checkMove(state: RoyalUrState, token: number, roll: number): Result<number, MoveError> {
  if (!Number.isInteger(token) || token < 0 || token >= TOKENS) return REFUSED['move/no-such-token'];
  if (winner(state) !== null) return REFUSED['move/game-over'];
  if (roll <= 0) return REFUSED['move/zero-roll'];
  const player = state.toMove;
  const mine = state.positions[player];
  const from = mine[token]!;
  if (from === END) return REFUSED['move/token-exited'];
  const to = from + roll;
  if (to > END) return REFUSED['move/overshoot'];
  if (to === END) return LANDS_ON[to]!;
  for (let other = 0; other < mine.length; other++) if (other !== token && mine[other] === to) return REFUSED['move/own-token'];
  // Only the shared middle row can hold the opponent's tokens; its rosette protects them.
  if (isShared(to) && isRosette(to) && state.positions[opponent(player)].includes(to)) return REFUSED['move/rosette-occupied'];
  return LANDS_ON[to]!;
}

/** The tokens the player to move may move with `roll`, ascending; empty means the turn passes. */
export function legalMoves(state: RoyalUrState, roll: number): number[] {
  const moves: number[] = [];
  for (let token = 0; token < TOKENS; token++) if (checkMove(state, token, roll).ok) moves.push(token);
  return moves;
}

/**
 * The legal moves with tokens that stand on the same place counted once (all tokens at the start
 * are interchangeable): the lowest-numbered token of each place. For searches and random movers.
 */
export function distinctMoves(state: RoyalUrState, roll: number): number[] {
  const seen = new Set<number>();
  return legalMoves(state, roll).filter((token) => {
    const from = state.positions[state.toMove][token]!;
    if (seen.has(from)) return false;
    seen.add(from);
    return true;
  });
}

/** Moves `token` of the player to move `roll` cells forward. */
export function applyMove(state: RoyalUrState, token: number, roll: number): Result<MoveOutcome, MoveError> {
  const target = checkMove(state, token, roll);
  if (!target.ok) return target;
  const to = target.value;
  const player = state.toMove;
  const other = opponent(player);
  const mine = state.positions[player].slice();
  const theirs = state.positions[other].slice();
  const from = mine[token]!;
  mine[token] = to;
  let captured: number | null = null;
  if (isShared(to)) {
    const hit = theirs.indexOf(to);
    if (hit >= 0) {
      theirs[hit] = START;
      captured = hit;
    }
  }
  const positions: [number[], number[]] = player === 0 ? [mine, theirs] : [theirs, mine];
  const extraTurn = isRosette(to);
  const done = mine.every((position) => position === END);
  const next: RoyalUrState = { positions, toMove: extraTurn || done ? player : other };
  return ok({ state: next, player, token, from, to, captured, extraTurn, winner: done ? player : null });
}

/** The player to move has no legal move with the roll: the other player rolls next. */
export function passTurn(state: RoyalUrState): RoyalUrState {
  return { positions: state.positions, toMove: opponent(state.toMove) };
}

/**
 * A token number as a player sends it: decimal digits, optionally a leading `+`, surrounding
 * blanks ignored (the reference server parsed with Rust's `usize::from_str` after trimming).
 */
export function parseToken(line: string): Result<number, MoveError> {
  const text = line.trim();
  if (!/^\+?\d+$/.test(text)) return err('move/not-a-number');
  const value = Number(text.replace(/^\+/, ''));
  if (value >= TOKENS) return err('move/no-such-token');
  return ok(value);
}

/**
 * The dama server bot. It reads the same stream a user program gets (its colour, the boards, the
 * prompt), rebuilds the position from the last board drawn, and runs the alpha-beta search on
 * env.compute so that the server's event loop never waits for it. (The reference's bot follows the
 * opponent's echoed move instead; the boards carry the same information and survive a missed line.)
 */
import type { BotEnv, BotIO } from '../../match/game.js';
import { EMPTY, SQUARES, squareAt, type Color } from './board.js';
import { COLUMN_LINE, formatMove, parseBoardRow } from './notation.js';
import { legalMoves, type Position } from './rules.js';
import type { SearchBudget, SearchResult } from './search.js';
import { searchForMove } from '../../match/bot-time.js';
import { PROMPT_LINES, TURN_LINE, YOU_ARE } from './stream.js';

const SEARCH_MODULE = new URL('./search.js', import.meta.url).href;

/**
 * Follows the boards of a dama stream: the current board and how many plies in a row changed no
 * man and took no piece (the draw counter, which the stream does not print).
 */
export class BoardTracker {
  board: number[] | null = null;
  quietPlies = 0;
  private drawing: number[] | null = null;
  private rows = 0;

  /** Feeds one line; returns true when it completed a board. */
  feed(line: string): boolean {
    if (line === COLUMN_LINE) {
      // A header starts a drawing; a footer starts one too, which the next header replaces.
      this.drawing = new Array<number>(SQUARES).fill(EMPTY);
      this.rows = 0;
      return false;
    }
    const row = this.drawing ? parseBoardRow(line) : null;
    if (!row || !this.drawing) return false;
    row.pieces.forEach((piece, column) => {
      this.drawing![squareAt(row.row, column)] = piece;
    });
    if (++this.rows < 8) return false;
    this.advance(this.drawing);
    this.drawing = null;
    return true;
  }

  private advance(next: number[]): void {
    const previous = this.board;
    this.board = next;
    if (!previous) return;
    const count = (board: number[]) => board.filter((piece) => piece !== EMPTY).length;
    const menMoved = previous.some((piece, i) => (piece === 1 || piece === -1 || next[i] === 1 || next[i] === -1) && piece !== next[i]);
    this.quietPlies = count(next) < count(previous) || menMoved ? 0 : this.quietPlies + 1;
  }
}

export async function playDamaBot(io: BotIO, budget: SearchBudget, env: BotEnv): Promise<void> {
  const tracker = new BoardTracker();
  let color: Color | null = null;
  let previous: string | null = null;
  let rejected = false;
  for (;;) {
    const line = await io.readLine();
    if (line === null) return;
    const before = previous;
    previous = line;
    if (tracker.feed(line)) continue;
    if (line === YOU_ARE.white) color = 'white';
    else if (line === YOU_ARE.black) color = 'black';
    // The prompt comes right after the turn line at the start of a turn; after anything else it
    // is repeated because the last move was refused.
    else if (line === PROMPT_LINES[0]) rejected = color !== null && before !== TURN_LINE[color];
    else if (line === PROMPT_LINES[1] && color && tracker.board) {
      const position: Position = { board: tracker.board, turn: color, quietPlies: tracker.quietPlies };
      const path = rejected ? fallback(position, env) : await search(position, budget, env);
      if (!path) return;
      io.write(`${formatMove(path)}\n`);
    }
  }
}

async function search(position: Position, budget: SearchBudget, env: BotEnv): Promise<readonly number[] | null> {
  // A time budget counts from now, when the prompt asked for the move (match/bot-time.ts).
  const result = await searchForMove<SearchResult>(env.compute, SEARCH_MODULE, 'searchDama', budget.maxMillis, env.timeout, (ms) => [position, { ...budget, maxMillis: ms }]);
  return result.path;
}

/** After a rejected move (the bot's view of the board went wrong), any legal move is better than repeating it. */
function fallback(position: Position, env: BotEnv): readonly number[] | null {
  const moves = legalMoves(position);
  return moves.length > 0 ? env.random.pick(moves).path : null;
}

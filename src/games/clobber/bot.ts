import type { BotEnv, BotIO } from '../../match/game.js';
import { formatMove, parseMove } from './notation.js';
import { apply, checkMove, hasLegalMove, startPosition, type Color, type Position } from './rules.js';
import type { SearchReply, SearchRequest } from './search.js';

/** What the server bot may spend per move: nodes for tests (deterministic), time for serving. */
export interface BotLimits {
  readonly maxNodes?: number;
  readonly maxMillis?: number;
}

/** Serving budget: a second per move, or a quarter of the move timeout if that is shorter. */
export const SERVING_MILLIS = 1000;

export function servingLimits(timeoutSeconds: number): BotLimits {
  return { maxMillis: Math.max(10, Math.min(SERVING_MILLIS, timeoutSeconds * 250)) };
}

const SEARCH_MODULE = new URL('./search.js', import.meta.url).href;

/**
 * The server bot: speaks the same 2006 stream a user program does (it reads `m n b`, the
 * opponent's moves, `error` and `end`), and searches each move through env.compute.
 */
export async function playClobberBot(io: BotIO, limits: BotLimits, env: BotEnv): Promise<void> {
  let position: Position | null = null;
  let me: Color = 'black';
  let moveNumber = 0;
  for (;;) {
    const line = await io.readLine();
    if (line === null) return;
    const words = line.trim().split(/\s+/);
    if (words.length === 3) {
      const start = startPosition(Number(words[0]), Number(words[1]));
      position = start.ok ? start.value : null;
      me = words[2] === '1' ? 'black' : 'white';
    } else if (words.length === 4 && position) {
      const parsed = parseMove(line, position);
      position = parsed.ok && checkMove(position, parsed.value).ok ? apply(position, parsed.value) : null;
    } else {
      position = null; // `error` or `end`: the game is over, the next line starts a new one
    }
    if (!position || position.toMove !== me || !hasLegalMove(position)) continue;
    const request: SearchRequest = {
      columns: position.columns,
      rows: position.rows,
      cells: position.cells,
      toMove: position.toMove,
      ...limits,
      seed: `${env.random.uint32()}:${moveNumber++}`,
    };
    const reply = await env.compute.run<SearchReply>(SEARCH_MODULE, 'searchClobber', [request]);
    if (!reply.move) continue;
    io.write(`${formatMove(position, reply.move)}\n`);
    position = apply(position, reply.move);
  }
}

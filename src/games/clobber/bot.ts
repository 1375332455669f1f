import type { BotEnv, BotIO } from '../../match/game.js';
import { formatMove } from './notation.js';
import { apply, hasLegalMove } from './rules.js';
import { ClobberStreamTracker } from './stream-tracker.js';
import type { SearchReply, SearchRequest } from './search.js';
import { searchForMove } from '../../match/bot-time.js';

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
  const stream = new ClobberStreamTracker();
  let moveNumber = 0;
  for (;;) {
    const line = await io.readLine();
    if (line === null) return;
    stream.follow(line);
    const position = stream.toPlay;
    if (!position || !hasLegalMove(position)) continue;
    const request: SearchRequest = {
      columns: position.columns,
      rows: position.rows,
      cells: position.cells,
      toMove: position.toMove,
      ...limits,
      seed: `${env.random.uint32()}:${moveNumber++}`,
    };
    // A time budget counts from now, when the move was asked for (match/bot-time.ts).
    const reply = await searchForMove<SearchReply>(env.compute, SEARCH_MODULE, 'searchClobber', limits.maxMillis, env.timeout, (ms) => [{ ...request, maxMillis: ms }]);
    if (!reply.move) continue;
    io.write(`${formatMove(position, reply.move)}\n`);
    stream.position = apply(position, reply.move);
  }
}

import type { BotEnv, BotIO } from '../../match/game.js';
import { QtpEngine, serveQtpLines, type SearchRequest } from './qtp-engine.js';
import type { SearchBudget, SearchReport } from './search.js';
import { searchForMove } from '../../match/bot-time.js';

/** Thinking time of the server bot per move, in seconds (the controller allows 30). */
export const BOT_MOVE_SECONDS = 1;

const SEARCH_MODULE = new URL('./search.js', import.meta.url).href;

/**
 * The server bot is our QTP engine answering the controller's commands through `io`, exactly as a
 * user's engine would; its search runs through `env.compute` (a worker thread on the server).
 */
export async function playQuoridorBot(io: BotIO, env: BotEnv, budget: SearchBudget): Promise<void> {
  const engine = new QtpEngine({
    budget,
    seed: `bot:${env.random.uint32()}`,
    // A time budget counts from now, when the controller asked for the move, and stays below the
    // match timeout, the controller's limit per command (match/bot-time.ts).
    search: (request: SearchRequest) =>
      searchForMove<SearchReport>(env.compute, SEARCH_MODULE, 'searchMove', request.budget.timeMs, env.timeout, (ms) => [
        request.snapshot,
        request.side,
        { ...request.budget, timeMs: ms },
        request.seed,
        request.history,
      ]),
  });
  await serveQtpLines(engine, io);
}

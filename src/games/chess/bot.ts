/**
 * The chess server bot. It reads the same stream a user program gets (the names, its colour, the
 * `OK <...>` echoes, draw offers), keeps the game from the echoes, and runs the search on
 * env.compute so that the server's event loop never waits for it.
 */
import { Chess } from 'chessops/chess';
import type { NormalMove } from 'chessops/types';
import { makeUci, parseUci } from 'chessops/util';
import type { BotEnv, BotIO } from '../../match/game.js';
import { readEcho, writeCommand } from './notation.js';
import { ChessGame } from './rules.js';
import type { SearchBudget, SearchResult } from './search.js';
import { searchForMove } from '../../match/bot-time.js';

export type ChessBotBudget = SearchBudget;

const SEARCH_MODULE = new URL('./search.js', import.meta.url).href;
/** The bot accepts a draw offer when its search says it stands at least this much worse. */
const ACCEPT_DRAW_BELOW = -150;

export async function playChessBot(io: BotIO, budget: ChessBotBudget, env: BotEnv): Promise<void> {
  // The game as the server keeps it: once its rules end the game, the bot does not search.
  const game = new ChessGame(Chess.default());
  const position = game.position;
  const moves: string[] = [];
  for (let header = 0; header < 2; header++) if ((await io.readLine()) === null) return;
  const colourLine = await io.readLine();
  if (colourLine === null) return;
  const colour = colourLine === '0' ? 'white' : 'black';
  // A time budget counts from now, when the opponent's move came (match/bot-time.ts).
  const search = (): Promise<SearchResult> => {
    const played = [...moves];
    return searchForMove<SearchResult>(env.compute, SEARCH_MODULE, 'searchChess', budget.maxMillis, env.timeout, (ms) => [played, { ...budget, maxMillis: ms }]);
  };
  const move = async (): Promise<void> => {
    const result = await search();
    if (!result.uci) return;
    io.write(`${writeCommand(position, parseUci(result.uci) as NormalMove)}\n`);
  };

  if (colour === 'white') await move();
  for (;;) {
    const line = await io.readLine();
    if (line === null) return;
    if (line.startsWith('OK ')) {
      const played = readEcho(position, line);
      if (!played) return;
      moves.push(makeUci(played));
      game.play(played);
      if (position.turn === colour && !game.ending()) await move();
    } else if (line === 'DRAW <PROPOSED>' && position.turn !== colour) {
      // The offer is the opponent's; the bot's next line answers it.
      const { score } = await search();
      io.write(score <= ACCEPT_DRAW_BELOW ? 'DRAW\n' : 'NO\n');
    } else if (line.startsWith('WINNER') || line.startsWith('DRAW <') && line !== 'DRAW <PROPOSED>' && line !== 'DRAW <REFUSED>' || line === 'RETIRE') {
      return;
    }
  }
}

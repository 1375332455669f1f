import { readFileSync } from 'node:fs';
import type { GameDefinition } from '../../match/game.js';
import { err, ok } from '../../util/result.js';
import { configureMatch, intArg, paceArg, paceArgSpec } from '../game-params.js';
import { integerArgSpec } from '../arg-spec.js';
import { BOT_MOVE_SECONDS, playQuoridorBot } from './bot.js';
import { DEFAULT_SIZE, MAX_SIZE, MIN_SIZE, defaultWalls, isValidSize } from './geometry.js';
import { QuoridorManager, type QuoridorConfig } from './manager.js';
import type { SearchBudget } from './search.js';

export type { QuoridorConfig } from './manager.js';

const MAX_WALLS = 100;
const MAX_GAMES = 100;
const DEFAULT_GAMES = 2;
const DEFAULT_PACE = 0.5;

const ARGS = {
  size: integerArgSpec({
    description: `board size, odd, from ${MIN_SIZE} to ${MAX_SIZE} (default ${DEFAULT_SIZE})`,
    regex: String.raw`^\d{1,2}$`,
    meaning: 'squares on each side of the board',
    odd: true,
    min: MIN_SIZE,
    max: MAX_SIZE,
    default: DEFAULT_SIZE,
    example: '7',
  }),
  walls: integerArgSpec({
    description: `walls per player (default floor(7/4 size - 23/4): 10 on 9x9; from 0 to ${MAX_WALLS})`,
    regex: String.raw`^\d{1,3}$`,
    meaning: 'walls each player may place',
    min: 0,
    max: MAX_WALLS,
    default: null,
    defaultNote: `${defaultWalls(DEFAULT_SIZE)} on a ${DEFAULT_SIZE}x${DEFAULT_SIZE} board, fewer on smaller ones`,
    example: '8',
  }),
  games: integerArgSpec({
    description: `number of games, colours alternating (default ${DEFAULT_GAMES}, from 1 to ${MAX_GAMES})`,
    regex: String.raw`^\d{1,3}$`,
    meaning: 'number of games, colours alternating',
    min: 1,
    max: MAX_GAMES,
    default: DEFAULT_GAMES,
    example: '4',
  }),
  pace: paceArgSpec(DEFAULT_PACE),
};

export interface QuoridorGameOptions {
  /** The server bot's search budget per move (a node budget makes tests reproducible). */
  readonly botBudget?: SearchBudget;
}

/** Quoridor with the players as QTP engines and the game manager as the QTP controller. */
export function makeQuoridorGame(options: QuoridorGameOptions = {}): GameDefinition<QuoridorConfig> {
  const botBudget = options.botBudget ?? { timeMs: BOT_MOVE_SECONDS * 1000 };
  return {
    name: 'quoridor',
    description: readFileSync(new URL('./description.md', import.meta.url), 'utf8'),
    args: ARGS,
    maxLineBytes: 1024,
    // Drawn only when someone wants to see it: otherwise a move builds no event.
    visFromInput: true,
    configure: (params) =>
      configureMatch(params, { minPlayers: 2, maxPlayers: 2, defaultPlayers: 2, maxBots: 2, defaultTimeout: 30 }, ARGS, (args) => {
        const size = intArg(args, 'size', DEFAULT_SIZE, MIN_SIZE, MAX_SIZE);
        if (!size.ok) return size;
        if (!isValidSize(size.value)) return err(`Argument "size" must be odd, not ${size.value}`);
        const walls = intArg(args, 'walls', defaultWalls(size.value), 0, MAX_WALLS);
        if (!walls.ok) return walls;
        const games = intArg(args, 'games', DEFAULT_GAMES, 1, MAX_GAMES);
        if (!games.ok) return games;
        const pace = paceArg(args, DEFAULT_PACE);
        if (!pace.ok) return pace;
        return ok({ size: size.value, walls: walls.value, games: games.value, pace: pace.value });
      }),
    play: (ctx, config) => new QuoridorManager(ctx, config).play(),
    playBot: (io, _config, env) => playQuoridorBot(io, env, botBudget),
  };
}

export const quoridor: GameDefinition<QuoridorConfig> = makeQuoridorGame();

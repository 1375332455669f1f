import { readFileSync } from 'node:fs';
import type { GameDefinition } from '../../match/game.js';
import { ok } from '../../util/result.js';
import { configureMatch, intArg, paceArg, paceArgSpec } from '../game-params.js';
import { integerArgSpec } from '../arg-spec.js';
import { playClobberBot, servingLimits, type BotLimits } from './bot.js';
import { playClobberMatch, type ClobberConfig } from './manager.js';
import { DEFAULT_COLUMNS, DEFAULT_ROWS, MAX_SIZE, MIN_SIZE } from './rules.js';

export { parsePlayLine } from './notation.js';

/** The match settings plus what the server bot may spend per move. */
export interface ClobberMatchConfig extends ClobberConfig {
  readonly bot: BotLimits;
}

export const DEFAULT_GAMES = 2;
export const MAX_GAMES = 999;
export const DEFAULT_PACE = 0.5;
export const DEFAULT_TIMEOUT = 30;
/** Longest line a player may send: a move is at most 11 bytes, a play line carries a name. */
export const MAX_LINE_BYTES = 1024;

const ARGS = {
  columns: integerArgSpec({
    description: `board columns, a.. (default ${DEFAULT_COLUMNS}, from ${MIN_SIZE} to ${MAX_SIZE})`,
    regex: String.raw`^\d{1,2}$`,
    meaning: 'board columns (a, b, ...)',
    min: MIN_SIZE,
    max: MAX_SIZE,
    default: DEFAULT_COLUMNS,
    example: '6',
  }),
  rows: integerArgSpec({
    description: `board rows, 1.. (default ${DEFAULT_ROWS}, from ${MIN_SIZE} to ${MAX_SIZE})`,
    regex: String.raw`^\d{1,2}$`,
    meaning: 'board rows (1, 2, ...)',
    min: MIN_SIZE,
    max: MAX_SIZE,
    default: DEFAULT_ROWS,
    example: '5',
  }),
  games: integerArgSpec({
    description: `games per match, colours alternating (default ${DEFAULT_GAMES}, from 1 to ${MAX_GAMES})`,
    regex: String.raw`^\d{1,3}$`,
    meaning: 'games per match, colours alternating',
    min: 1,
    max: MAX_GAMES,
    default: DEFAULT_GAMES,
    example: '4',
  }),
  pace: paceArgSpec(DEFAULT_PACE),
};

export interface ClobberGameOptions {
  /** The server bot's budget per move; by default a time budget fitting the match timeout. */
  readonly botLimits?: BotLimits;
}

/** The clobber game; tests make one with a node-budgeted bot so that they are deterministic. */
export function createClobberGame(options: ClobberGameOptions = {}): GameDefinition<ClobberMatchConfig> {
  return {
    name: 'clobber',
    description: readFileSync(new URL('./description.md', import.meta.url), 'utf8'),
    args: ARGS,
    maxLineBytes: MAX_LINE_BYTES,
    visFromInput: true,
    configure: (params) => {
      const configured = configureMatch(
        params,
        { minPlayers: 2, maxPlayers: 2, defaultPlayers: 2, maxBots: 1, defaultTimeout: DEFAULT_TIMEOUT },
        ARGS,
        (args) => {
          const columns = intArg(args, 'columns', DEFAULT_COLUMNS, MIN_SIZE, MAX_SIZE);
          if (!columns.ok) return columns;
          const rows = intArg(args, 'rows', DEFAULT_ROWS, MIN_SIZE, MAX_SIZE);
          if (!rows.ok) return rows;
          const games = intArg(args, 'games', DEFAULT_GAMES, 1, MAX_GAMES);
          if (!games.ok) return games;
          const pace = paceArg(args, DEFAULT_PACE);
          if (!pace.ok) return pace;
          return ok({ columns: columns.value, rows: rows.value, games: games.value, pace: pace.value });
        },
      );
      if (!configured.ok) return configured;
      const settings = configured.value;
      const bot = options.botLimits ?? servingLimits(settings.timeout);
      return ok({ ...settings, config: { ...settings.config, bot } });
    },
    play: (ctx, config) => playClobberMatch(ctx, config),
    playBot: (io, config, env) => playClobberBot(io, config.bot, env),
  };
}

export const clobber: GameDefinition<ClobberMatchConfig> = createClobberGame();

import { isFiniteNumber as finite, looseRecord as record, textOf as text } from './loose-json.js';

/** Bounds of a numeric argument: what a client may check before the game itself does. */
export interface ArgRange {
  readonly min: number;
  readonly max: number;
  /** Whole numbers only. */
  readonly integer: boolean;
  /** Odd whole numbers only. */
  readonly odd: boolean;
}

/**
 * `GET /api/games`: the games of this server with their arguments described for people, in the
 * games' own order of arguments. The coco protocol's GameList carries only a description and a
 * regex per argument and must stay as the reference's; the web form and `coco list` read the
 * hints, examples and defaults here. This module imports nothing of Node.js, so the web page's bundle and the
 * command-line client read the body with the same code.
 */
export interface GamesJson {
  readonly games: readonly GameArgsJson[];
}

export interface GameArgsJson {
  readonly name: string;
  readonly args: readonly ArgJson[];
  /** Players of a match when its creator does not say (what `coco tournament` plays); absent where the server does not tell. */
  readonly default_players?: number;
}

export interface ArgJson {
  readonly name: string;
  /** As GameList sends it. */
  readonly description: string;
  /** As GameList sends it. */
  readonly regex: string;
  readonly hint: string;
  /** What a valid value is: "a number from 0 to 30". */
  readonly expects: string;
  /** The error in words for a refused value: "pace must be a number from 0 to 30 (for example 1.5)". */
  readonly problem: string;
  readonly example: string;
  readonly default: string | null;
  /** Without a fixed default, what happens when the argument is not given ("the match timeout"), or null. */
  readonly default_note: string | null;
  readonly range: ArgRange | null;
}


function readRange(value: unknown): ArgRange | null {
  const r = record(value);
  if (!finite(r['min']) || !finite(r['max'])) return null;
  return { min: r['min'], max: r['max'], integer: r['integer'] === true, odd: r['odd'] === true };
}

/**
 * Reads a GET /api/games body field by field; a missing or mistyped field becomes a harmless
 * default, and a body of another shape gives null (not this server's API).
 */
export function readGamesJson(body: unknown): GamesJson | null {
  const games = record(body)['games'];
  if (!Array.isArray(games)) return null;
  return {
    games: games
      .map((game): GameArgsJson => {
        const g = record(game);
        const args = Array.isArray(g['args']) ? g['args'] : [];
        const players = g['default_players'];
        return {
          ...(Number.isSafeInteger(players) && (players as number) >= 1 ? { default_players: players as number } : {}),
          name: text(g['name']),
          args: args
            .map((arg): ArgJson => {
              const a = record(arg);
              return {
                name: text(a['name']),
                description: text(a['description']),
                regex: text(a['regex']),
                hint: text(a['hint']),
                expects: text(a['expects']),
                problem: text(a['problem']),
                example: text(a['example']),
                default: typeof a['default'] === 'string' ? a['default'] : null,
                default_note: typeof a['default_note'] === 'string' ? a['default_note'] : null,
                range: readRange(a['range']),
              };
            })
            .filter((arg) => arg.name !== ''),
        };
      })
      .filter((game) => game.name !== ''),
  };
}

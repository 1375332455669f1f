import type { ArgSpec } from '../match/game.js';
import { argProblem } from '../games/arg-spec.js';
import type { GamesJson } from './games-json.js';

/** The body of GET /api/games, from the games' argument specs. */
export function gamesJson(games: readonly { readonly name: string; readonly args: Readonly<Record<string, ArgSpec>> }[]): GamesJson {
  return {
    games: games.map((game) => ({
      name: game.name,
      args: Object.entries(game.args).map(([name, spec]) => ({
        name,
        description: spec.description,
        regex: spec.regex,
        hint: spec.hint,
        expects: spec.expects,
        problem: argProblem(name, spec),
        example: spec.example,
        default: spec.default,
        default_note: spec.defaultNote,
        range: spec.range,
      })),
    })),
  };
}

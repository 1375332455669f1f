import type { ArgSpec } from '../match/game.js';
import { argProblem } from './arg-spec.js';
import type { GamesJson } from '../protocol/games-json.js';

/** What GET /api/games describes of a game: its arguments, and its players of a match by default when known. */
export interface DescribedGame {
  readonly name: string;
  readonly args: Readonly<Record<string, ArgSpec>>;
  readonly defaultPlayers?: number | null;
}

const withDefaultPlayers = (players: number | null): { default_players?: number } => (players === null ? {} : { default_players: players });

/** The body of GET /api/games, from the games' argument specs. */
export function gamesJson(games: readonly DescribedGame[]): GamesJson {
  return {
    games: games.map((game) => ({
      ...withDefaultPlayers(game.defaultPlayers ?? null),
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

import { defaultPlayers } from '../games/game-params.js';
import type { GameDefinition } from '../match/game.js';
import { err, ok, type Result } from '../util/result.js';
import type { ArenaGameSettings } from './arena.js';

/**
 * The arena of every game the server has: its default number of seats (2 when the game has none),
 * the operator's fixed arguments (`--arena-arg`), checked here by the game itself so that a wrong
 * one stops the server at start rather than refusing every pairing, and its anchor.
 */
export function arenaGameSettings(
  games: readonly GameDefinition<any>[],
  args: Readonly<Record<string, Readonly<Record<string, string>>>>,
  anchors: readonly string[],
  anchorGames: number,
): Result<ArenaGameSettings[]> {
  const names = new Set(games.map((game) => game.name));
  const unknown = [...Object.keys(args), ...anchors].find((name) => !names.has(name));
  if (unknown !== undefined) return err(`arena: no game "${unknown}" (games: ${[...names].sort().join(', ')})`);
  const settings: ArenaGameSettings[] = [];
  for (const game of games) {
    const fixed = args[game.name] ?? {};
    const seats = defaultPlayers(game) ?? 2;
    const anchored = anchors.includes(game.name);
    const configured = game.configure({ players: seats, bots: anchored ? 1 : 0, timeout: null, args: { ...fixed } });
    if (!configured.ok) return err(`arena of ${game.name}: ${configured.error}`);
    settings.push({ game: game.name, seats, args: { ...fixed }, timeout: null, anchorGames: anchored ? anchorGames : 0 });
  }
  return ok(settings);
}

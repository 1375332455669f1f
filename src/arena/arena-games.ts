import { defaultPlayers } from '../games/game-params.js';
import type { GameDefinition } from '../match/game.js';
import { err, ok, type Result } from '../util/result.js';
import type { ArenaGameSettings } from './arena.js';

/**
 * The arena of every game the server has: its default number of seats (2 when the game has none),
 * the operator's fixed arguments (`--arena-arg`), checked here by the game itself so that a wrong
 * one stops the server at start rather than refusing every pairing, and its anchors
 * (`--arena-anchors`: `GAME` for its usual bot, `GAME:BOT` for its named bot BOT, checked here too).
 */
export function arenaGameSettings(
  games: readonly GameDefinition<any>[],
  args: Readonly<Record<string, Readonly<Record<string, string>>>>,
  anchors: readonly string[],
  anchorGames: number,
): Result<ArenaGameSettings[]> {
  const names = new Set(games.map((game) => game.name));
  const anchored = anchors.map(parseAnchor);
  const unknown = [...Object.keys(args), ...anchored.map((anchor) => anchor.game)].find((name) => !names.has(name));
  if (unknown !== undefined) return err(`arena: no game "${unknown}" (games: ${[...names].sort().join(', ')})`);
  const settings: ArenaGameSettings[] = [];
  for (const game of games) {
    const fixed = args[game.name] ?? {};
    const seats = defaultPlayers(game) ?? 2;
    const bots = [...new Set(anchored.filter((anchor) => anchor.game === game.name).map((anchor) => anchor.bot))];
    const unknownBot = bots.find((bot) => bot !== null && !(game.botChoices ?? []).includes(bot));
    if (unknownBot !== undefined) return err(`arena anchors: game ${game.name} has no server bot named "${unknownBot}" (its bots: ${(game.botChoices ?? []).join(', ') || 'only its usual one'})`);
    const configured = game.configure({ players: seats, bots: bots.length > 0 ? 1 : 0, timeout: null, args: { ...fixed } });
    if (!configured.ok) return err(`arena of ${game.name}: ${configured.error}`);
    const usualOnly = bots.length === 1 && bots[0] === null;
    settings.push({ game: game.name, seats, args: { ...fixed }, timeout: null, anchorGames: bots.length > 0 ? anchorGames : 0, ...(bots.length > 0 && !usualOnly && { anchorBots: bots }) });
  }
  return ok(settings);
}

/** `GAME` (its usual bot) or `GAME:BOT` (its named bot BOT). */
function parseAnchor(text: string): { game: string; bot: string | null } {
  const colon = text.indexOf(':');
  return colon === -1 ? { game: text, bot: null } : { game: text.slice(0, colon), bot: text.slice(colon + 1) };
}

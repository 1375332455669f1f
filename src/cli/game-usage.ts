import type { GameListEntry } from '../protocol/coco/messages.js';
import { readGamesJson, type ArgJson, type GameArgsJson } from '../protocol/games-json.js';
import { getJson } from './match-record.js';

/**
 * What `coco list` prints about a game's arguments. This server describes them for people at
 * GET /api/games (hint, example, default); the coco protocol's GameList, all another server
 * gives, has only a description and a regex, and is the fallback.
 */

/** The games' arguments from GET /api/games, or null when the server has no such API. */
export async function fetchGameArgs(wsUrl: string): Promise<readonly GameArgsJson[] | null> {
  const found = await getJson(wsUrl, '/api/games');
  return found.kind === 'found' ? (readGamesJson(found.value)?.games ?? null) : null;
}

/** `coco list -u`: each argument's description and regex (as the reference prints them), with hint, example and default when known. */
export function usageJson(game: GameListEntry, described: GameArgsJson | undefined): Record<string, Record<string, string | null>> {
  const help = new Map(described?.args.map((arg) => [arg.name, arg]));
  return Object.fromEntries(
    Object.entries(game.args).map(([name, spec]) => {
      const arg = help.get(name);
      const usage: Record<string, string | null> = { description: spec.description, regex: spec.regex };
      if (arg) Object.assign(usage, { hint: arg.hint, example: arg.example, default: arg.default }, arg.default_note === null ? {} : { default_note: arg.default_note });
      return [name, usage];
    }),
  );
}

/**
 * The lines after a game's description in `coco list GAME`: one per argument, its hint, default
 * and example (or, from a server without the API, its description), or nothing for no arguments.
 */
export function formatArgUsage(gameName: string, game: GameListEntry | undefined, described: GameArgsJson | undefined): string {
  const lines: [string, string][] = described
    ? described.args.map((arg) => [arg.name, argLine(arg)])
    : Object.entries(game?.args ?? {}).map(([name, spec]) => [name, spec.description]);
  if (lines.length === 0) return '';
  const width = Math.max(...lines.map(([name]) => name.length));
  const rows = lines.map(([name, text]) => `  ${name.padEnd(width)}  ${text}`);
  return `Arguments (coco new ${gameName} -a NAME=VALUE):\n${rows.join('\n')}\n`;
}

function argLine(arg: ArgJson): string {
  const parts = [arg.hint || arg.description];
  if (arg.default !== null) parts.push(`default ${arg.default === '' ? '""' : arg.default}`);
  else if (arg.default_note !== null) parts.push(`default: ${arg.default_note}`);
  if (arg.example !== '') parts.push(`for example ${arg.example}`);
  return parts.join('; ');
}

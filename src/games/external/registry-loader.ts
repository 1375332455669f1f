import { constants } from 'node:fs';
import { access, readdir, readFile } from 'node:fs/promises';
import { delimiter, isAbsolute, join, resolve } from 'node:path';
import type { GameDefinition } from '../../match/game.js';
import { err, ok, type Result } from '../../util/result.js';
import type { ExternalGameHooks } from './match-report.js';
import { createExternalGame, withBotPrograms, type ExternalConfig } from './external-game.js';
import { parseManifest, type Argv } from './manifest.js';
import type { BotProgram } from './program-bot.js';

/**
 * Loads the external games directory: one folder per entry, each with a `game.json` manifest
 * (manifest.ts, README.md). Hidden folders and plain files in the directory are ignored. Any bad
 * entry is a start-up error naming the entry and the field; nothing is half loaded.
 */
export const MANIFEST_FILE = 'game.json';
/** A manifest bigger than this is refused before parsing. */
export const MANIFEST_MAX_BYTES = 64 * 1024;

/** Bot programs for a game defined elsewhere (a built-in game), from a `bots_for` manifest. */
export interface BotsForEntry {
  readonly game: string;
  /** The folder of the manifest (the bots' working directory). */
  readonly folder: string;
  readonly bots: readonly BotProgram[];
}

export interface ExternalCatalog {
  readonly games: readonly GameDefinition<ExternalConfig>[];
  readonly botsFor: readonly BotsForEntry[];
}

async function exists(path: string, mode: number): Promise<boolean> {
  try {
    await access(path, mode);
    return true;
  } catch {
    return false;
  }
}

/** Whether argv[0] names a program that can run: a path relative to the folder, or found in PATH. */
async function findProgram(argv: Argv, folder: string): Promise<string | null> {
  const program = argv[0]!;
  if (program.includes('/')) {
    const path = isAbsolute(program) ? program : join(folder, program);
    return (await exists(path, constants.X_OK)) ? null : `program ${program} does not exist or is not executable`;
  }
  for (const dir of (process.env.PATH ?? '').split(delimiter)) {
    if (dir && (await exists(join(dir, program), constants.X_OK))) return null;
  }
  return `program ${program} is not found in PATH`;
}

async function loadEntry(
  folder: string,
  name: string,
  hooks: ExternalGameHooks,
): Promise<Result<{ game?: GameDefinition<ExternalConfig>; botsFor?: BotsForEntry }>> {
  const manifestPath = join(folder, MANIFEST_FILE);
  const entry = `external game entry "${name}" (${manifestPath})`;
  let text: string;
  try {
    text = await readFile(manifestPath, 'utf8');
  } catch {
    return err(`${entry}: missing or unreadable ${MANIFEST_FILE}`);
  }
  if (Buffer.byteLength(text) > MANIFEST_MAX_BYTES) return err(`${entry}: larger than ${MANIFEST_MAX_BYTES} bytes`);
  let raw: unknown;
  try {
    raw = JSON.parse(text);
  } catch (error) {
    return err(`${entry}: not valid JSON: ${(error as Error).message}`);
  }
  const manifest = parseManifest(raw, entry);
  if (!manifest.ok) return manifest;
  const m = manifest.value;
  const programs: [string, Argv][] =
    m.kind === 'game' ? [['command', m.command], ...m.bots.map((argv, i): [string, Argv] => [`bots[${i}]`, argv])] : m.bots.map((argv, i) => [`bots[${i}]`, argv]);
  for (const [field, argv] of programs) {
    const problem = await findProgram(argv, folder);
    if (problem) return err(`${entry}: field "${field}": ${problem}`);
  }
  const bots = m.bots.map((argv) => ({ argv, cwd: folder }));
  if (m.kind === 'bots_for') return ok({ botsFor: { game: m.game, folder, bots } });
  let description: string;
  try {
    description = await readFile(join(folder, m.description), 'utf8');
  } catch {
    return err(`${entry}: field "description": cannot read ${m.description} in the game folder`);
  }
  return ok({ game: createExternalGame(m, folder, description, hooks) });
}

/** Reads every entry of `dir`: the external games and the bot programs for other games. */
export async function loadExternalCatalog(dir: string, hooks: ExternalGameHooks = {}): Promise<Result<ExternalCatalog>> {
  const root = resolve(dir);
  let names: string[];
  try {
    names = (await readdir(root, { withFileTypes: true }))
      .filter((entry) => entry.isDirectory() && !entry.name.startsWith('.'))
      .map((entry) => entry.name)
      .sort();
  } catch (error) {
    return err(`external games directory ${root}: cannot read it: ${(error as Error).message}`);
  }
  const games: GameDefinition<ExternalConfig>[] = [];
  const botsFor: BotsForEntry[] = [];
  const seen = new Map<string, string>();
  for (const name of names) {
    const loaded = await loadEntry(join(root, name), name, hooks);
    if (!loaded.ok) return loaded;
    const { game, botsFor: bots } = loaded.value;
    if (game) {
      const other = seen.get(game.name);
      if (other !== undefined) return err(`external game entry "${name}": field "name": "${game.name}" is also the name of entry "${other}"`);
      seen.set(game.name, name);
      games.push(game);
    }
    if (bots) botsFor.push(bots);
  }
  return ok({ games, botsFor });
}

/** The external games of `dir` (its `bots_for` entries are validated but not returned). */
export async function loadExternalGames(dir: string, hooks: ExternalGameHooks = {}): Promise<Result<GameDefinition<ExternalConfig>[]>> {
  const catalog = await loadExternalCatalog(dir, hooks);
  return catalog.ok ? ok([...catalog.value.games]) : catalog;
}

/**
 * Applies `bots_for` entries: each named game is replaced by one whose server bots are the
 * entry's programs. Naming a game that is not in `games`, or one game twice, is an error.
 */
export function applyBotsFor(games: readonly GameDefinition<any>[], entries: readonly BotsForEntry[]): Result<GameDefinition<any>[]> {
  const out = [...games];
  const done = new Set<string>();
  for (const entry of entries) {
    const index = out.findIndex((game) => game.name === entry.game);
    const where = `external game entry ${entry.folder}: field "bots_for"`;
    if (index === -1) return err(`${where}: no game named "${entry.game}" (known: ${out.map((g) => g.name).join(', ')})`);
    if (done.has(entry.game)) return err(`${where}: "${entry.game}" already has bot programs from another entry`);
    done.add(entry.game);
    out[index] = withBotPrograms(out[index]!, entry.bots);
  }
  return ok(out);
}

import type { ArgSpec, BotEnv, GameDefinition } from '../../match/game.js';
import { err, ok, type Result } from '../../util/result.js';
import { configureMatch } from '../game-params.js';
import { externalArgSpec } from './arg-hints.js';
import { runExternalMatch } from './controller.js';
import type { ExternalGameHooks } from './match-report.js';
import { fullMatch, isSafeArgValue, type GameManifest } from './manifest.js';
import { instantiateParam } from './param-template.js';
import { runProgramBot, type BotProgram } from './program-bot.js';

/** The validated creation parameters of one external match. */
export interface ExternalConfig {
  /** Every declared argument: the client's value or the manifest default. */
  readonly args: Readonly<Record<string, string>>;
}

/** Longest argument value accepted (the whole param line must fit the game server's line limit). */
export const MAX_ARG_VALUE_LENGTH = 256;

function parseArgs(manifest: GameManifest, given: Readonly<Record<string, string>>): Result<ExternalConfig> {
  const args: Record<string, string> = {};
  for (const [name, spec] of Object.entries(manifest.args)) {
    const value = given[name] ?? spec.default;
    if (value.length > MAX_ARG_VALUE_LENGTH || !isSafeArgValue(value) || !fullMatch(spec.regex).test(value)) {
      return err(`Argument "${name}" must match ${spec.regex} (${spec.description}), not "${value.slice(0, 64)}"`);
    }
    args[name] = value;
  }
  return ok({ args });
}

/**
 * The GameDefinition of an external game: `manifest` from the game's game.json, `folder` its
 * absolute path (the working directory of its game server and bots), `description` the markdown.
 */
export function createExternalGame(
  manifest: GameManifest,
  folder: string,
  description: string,
  hooks: ExternalGameHooks = {},
): GameDefinition<ExternalConfig> {
  const argSpecs: Record<string, ArgSpec> = Object.fromEntries(Object.entries(manifest.args).map(([name, spec]) => [name, externalArgSpec(spec)]));
  const bots: BotProgram[] = manifest.bots.map((argv) => ({ argv, cwd: folder }));
  return {
    name: manifest.name,
    description,
    args: argSpecs,
    maxLineBytes: manifest.lineLimit,
    configure: (params) =>
      configureMatch(
        params,
        {
          minPlayers: manifest.minPlayers,
          maxPlayers: manifest.maxPlayers,
          defaultPlayers: manifest.defaultPlayers,
          maxBots: manifest.maxBots,
          defaultTimeout: manifest.defaultTimeout,
        },
        argSpecs,
        (args) => parseArgs(manifest, args),
      ),
    play: (ctx, config) => {
      const param = instantiateParam(manifest.param, { players: ctx.seats.length, timeout: ctx.timeout, args: config.args });
      return runExternalMatch(ctx, { manifest, folder, param, hooks });
    },
    botChoices: botProgramNames(bots),
    playBot: async (io, _config, env) => {
      if (bots.length === 0) return;
      await runProgramBot(io, pickBot(bots, env));
    },
  };
}

/**
 * Wraps a game (built-in or not) so that its server bots are the given local programs, each seat
 * taking one at random from the match's seeded source. The programs speak the game's own player
 * protocol on stdin/stdout.
 */
export function withBotPrograms<C>(game: GameDefinition<C>, bots: readonly BotProgram[]): GameDefinition<C> {
  if (bots.length === 0) throw new Error(`withBotPrograms(${game.name}): no bot program given`);
  // Delegating rather than spreading, so that a game written as a class keeps its methods.
  return {
    name: game.name,
    description: game.description,
    args: game.args,
    maxLineBytes: game.maxLineBytes,
    configure: (params) => game.configure(params),
    play: (ctx, config) => game.play(ctx, config),
    botChoices: botProgramNames(bots),
    playBot: (io, _config, env) => runProgramBot(io, pickBot(bots, env)),
  };
}

/**
 * The names a tournament asks for the bot programs by: each program's last argument that is not an
 * option, without folder and extension (`["python3", "bots/greedy.py"]` is `greedy`); a name that
 * comes twice gets `-2`, `-3`... in manifest order, so every program has one, stable across runs.
 */
export function botProgramNames(bots: readonly BotProgram[]): string[] {
  const names: string[] = [];
  for (const { argv } of bots) {
    const word = [...argv].reverse().find((part) => !part.startsWith('-')) ?? argv[0] ?? 'bot';
    const base = word.split('/').pop()!.replace(/\.[^.]*$/, '') || 'bot';
    let name = base;
    for (let n = 2; names.includes(name); n++) name = `${base}-${n}`;
    names.push(name);
  }
  return names;
}

/** The program a seat asked for by name (the lobby checked it exists), else one at random. */
function pickBot(bots: readonly BotProgram[], env: BotEnv): BotProgram {
  const index = env.choice === null ? -1 : botProgramNames(bots).indexOf(env.choice);
  return index >= 0 ? bots[index]! : env.random.pick(bots);
}

import type { ArgSpec, GameDefinition } from '../../match/game.js';
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
    playBot: async (io, _config, env) => {
      if (bots.length === 0) return;
      await runProgramBot(io, env.random.pick(bots));
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
    playBot: (io, _config, env) => runProgramBot(io, env.random.pick(bots)),
  };
}

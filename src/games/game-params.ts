import { err, ok, type Result } from '../util/result.js';
import type { ArgSpec, MatchSettings, NewMatchParams } from '../match/game.js';

/**
 * Shared validation of GameNew parameters for games with a fixed or bounded seat count, so every
 * game words its errors the same way. Game-specific arguments are parsed by the game's `parseArgs`.
 */
export interface SeatRules {
  readonly minPlayers: number;
  readonly maxPlayers: number;
  readonly defaultPlayers: number;
  readonly maxBots: number;
  readonly defaultTimeout: number;
}

export function configureMatch<C>(
  params: NewMatchParams,
  rules: SeatRules,
  argSpecs: Readonly<Record<string, ArgSpec>>,
  parseArgs: (args: Readonly<Record<string, string>>) => Result<C>,
): Result<MatchSettings<C>> {
  const players = params.players ?? rules.defaultPlayers;
  if (players < rules.minPlayers || players > rules.maxPlayers) {
    return err(
      rules.minPlayers === rules.maxPlayers
        ? `This game needs exactly ${rules.minPlayers} players, not ${players}`
        : `This game needs from ${rules.minPlayers} to ${rules.maxPlayers} players, not ${players}`,
    );
  }
  if (params.bots > rules.maxBots) {
    return err(`This game allows at most ${rules.maxBots} server bot${rules.maxBots === 1 ? '' : 's'}, not ${params.bots}`);
  }
  for (const key of Object.keys(params.args)) {
    if (!Object.hasOwn(argSpecs, key)) {
      const known = Object.keys(argSpecs);
      return err(`Unknown argument "${key}"${known.length ? ` (known: ${known.join(', ')})` : ' (this game takes none)'}`);
    }
  }
  const config = parseArgs(params.args);
  if (!config.ok) return config;
  return ok({ players, bots: params.bots, timeout: params.timeout ?? rules.defaultTimeout, args: { ...params.args }, config: config.value });
}

/** Parses an integer argument in [min, max], or returns the default when absent. */
export function intArg(args: Readonly<Record<string, string>>, key: string, fallback: number, min: number, max: number): Result<number> {
  const raw = args[key];
  if (raw === undefined) return ok(fallback);
  if (!/^[+]?\d{1,9}$/.test(raw.trim())) return err(`Argument "${key}" must be an integer from ${min} to ${max}, not "${raw}"`);
  const value = Number(raw.trim());
  if (value < min || value > max) return err(`Argument "${key}" must be an integer from ${min} to ${max}, not ${value}`);
  return ok(value);
}

/** Parses a decimal number argument in [min, max], or returns the default when absent. */
export function numberArg(args: Readonly<Record<string, string>>, key: string, fallback: number, min: number, max: number): Result<number> {
  const raw = args[key];
  if (raw === undefined) return ok(fallback);
  const text = raw.trim();
  if (!/^[+]?(\d+(\.\d*)?|\.\d+)$/.test(text)) return err(`Argument "${key}" must be a number from ${min} to ${max}, not "${raw}"`);
  const value = Number(text);
  if (value < min || value > max) return err(`Argument "${key}" must be a number from ${min} to ${max}, not ${value}`);
  return ok(value);
}

/** The `pace` argument every built-in game has: seconds between turns. */
export function paceArgSpec(fallback: number): ArgSpec {
  return {
    description: `minimum seconds between turns (default ${fallback}, from 0 to 30)`,
    regex: String.raw`^\d{1,2}(\.\d+)?$`,
  };
}

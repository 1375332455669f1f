import { err, ok, type Result } from '../util/result.js';
import type { ArgSpec, GameDefinition, MatchSettings, NewMatchParams } from '../match/game.js';
import { numberArgSpec } from './arg-spec.js';

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

/**
 * The players of a match when GameNew leaves them out: what the game's configure applies to a
 * request of defaults (the seat rules stay inside each game's configure), or null when it refuses one.
 */
export function defaultPlayers(game: Pick<GameDefinition, 'configure'>): number | null {
  const configured = game.configure({ players: null, bots: 0, timeout: null, args: {} });
  return configured.ok ? configured.value.players : null;
}

/**
 * The checks run in the reference server's order: seat count, then the game's own arguments, then
 * server bots (after the lobby's `ALL_BOTS`). Every refusal a game makes is prefixed `Cannot create game: `, as the reference
 * prefixes its games' errors. Unknown arguments are refused (the reference ignores them), so a
 * mistyped `-a round=5` does not silently play the default.
 */
export function configureMatch<C>(
  params: NewMatchParams,
  rules: SeatRules,
  argSpecs: Readonly<Record<string, ArgSpec>>,
  parseArgs: (args: Readonly<Record<string, string>>) => Result<C>,
): Result<MatchSettings<C>> {
  const refuse = (why: string): Result<never> => err(`${CANNOT_CREATE}${why}`);
  const players = params.players ?? rules.defaultPlayers;
  if (players < rules.minPlayers || players > rules.maxPlayers) {
    const allowed = rules.minPlayers === rules.maxPlayers ? '' : ` (this game takes ${rules.minPlayers} to ${rules.maxPlayers})`;
    return refuse(`Cannot create game with ${players} players${allowed}`);
  }
  for (const key of Object.keys(params.args)) {
    if (!Object.hasOwn(argSpecs, key)) {
      const known = Object.keys(argSpecs);
      return refuse(`Unknown argument "${key}"${known.length ? ` (known: ${known.join(', ')})` : ' (this game takes none)'}`);
    }
  }
  const config = parseArgs(params.args);
  if (!config.ok) return refuse(config.error);
  // A match of server bots only is the lobby's refusal (`ALL_BOTS`, which the reference words
  // before any bot limit of a game); local tooling may still play one.
  if (params.bots < players && params.bots > rules.maxBots) {
    return refuse(`This game allows at most ${rules.maxBots} server bot${rules.maxBots === 1 ? '' : 's'}, not ${params.bots}`);
  }
  return ok({ players, bots: params.bots, timeout: params.timeout ?? rules.defaultTimeout, args: { ...params.args }, config: config.value });
}

export const CANNOT_CREATE = 'Cannot create game: ';

/**
 * The arguments a match played with: those given, and every other one's default (an argument whose
 * default depends on the match is left out). The history keeps these, as the reference does, so a
 * record says what was played even after a default changes.
 */
export function argsInEffect(specs: Readonly<Record<string, ArgSpec>>, given: Readonly<Record<string, string>>): Record<string, string> {
  const args: Record<string, string> = {};
  for (const [key, spec] of Object.entries(specs)) {
    const value = given[key] ?? spec.default;
    if (value !== null) args[key] = value;
  }
  // Any other given argument (a game may accept more than it lists) is kept as given.
  for (const [key, value] of Object.entries(given)) args[key] ??= value;
  return args;
}
export const ALL_BOTS = 'Cannot have all server bots';

/**
 * How the reference words a refused argument: `unreadable` prefixes the parser's own error when the
 * value is not a number at all, `invalid` is the whole text for a number out of range.
 */
export interface ArgWords {
  readonly invalid: string;
  readonly unreadable: string;
}

/** The reference's roshambo and royalur misspell their parse errors; the texts are wire data. */
export const ROUNDS_WORDS: ArgWords = { invalid: 'Invalid number of rounds', unreadable: 'Invaid number of rounds' };
export const PACE_WORDS: ArgWords = { invalid: 'Invalid pace', unreadable: 'Invalid pace' };
export const MISSPELT_PACE_WORDS: ArgWords = { invalid: 'Invalid pace', unreadable: 'Invaid pace' };

/**
 * An unsigned integer as Rust's `str::parse::<usize>` reads it (an optional `+`, ASCII digits, no
 * spaces), with its error texts; the reference's games parse their arguments this way.
 */
export function parseRustUnsigned(text: string): Result<number> {
  if (text === '') return err('cannot parse integer from empty string');
  const digits = text.startsWith('+') ? text.slice(1) : text;
  if (!/^\d+$/.test(digits)) return err('invalid digit found in string');
  const value = BigInt(digits);
  if (value > 0xffff_ffff_ffff_ffffn) return err('number too large to fit in target type');
  return ok(Number(value));
}

/**
 * A number as Rust's `str::parse::<f64>` reads it: an optional sign, then decimal digits with an
 * optional fraction and exponent (`1e1`, `.5`, `5.`), or `inf`, `infinity`, `nan` in any case.
 */
export function parseRustFloat(text: string): Result<number> {
  if (text === '') return err('cannot parse float from empty string');
  const unsigned = /^[+-]/.test(text) ? text.slice(1) : text;
  const negative = text.startsWith('-');
  if (/^(inf|infinity)$/i.test(unsigned)) return ok(negative ? -Infinity : Infinity);
  if (/^nan$/i.test(unsigned)) return ok(Number.NaN);
  if (!/^(\d+\.?\d*|\.\d+)([eE][+-]?\d+)?$/.test(unsigned)) return err('invalid float literal');
  return ok(Number(text));
}

/** An integer argument of a reference game, in [min, max], refused in the reference's words. */
export function countArg(
  args: Readonly<Record<string, string>>,
  key: string,
  fallback: number,
  range: { readonly min: number; readonly max: number },
  words: ArgWords,
): Result<number> {
  const raw = args[key];
  if (raw === undefined) return ok(fallback);
  const parsed = parseRustUnsigned(raw);
  if (!parsed.ok) return err(`${words.unreadable}: ${parsed.error}`);
  if (parsed.value < range.min || parsed.value > range.max) return err(words.invalid);
  return ok(parsed.value);
}

/**
 * The `pace` argument: seconds, from 0 to 30. The reference's float syntax is accepted (`1e1`,
 * `.5`); its range is enforced even where the reference checked it with a regex that also lets
 * through `31` or `100`.
 */
export function paceArg(args: Readonly<Record<string, string>>, fallback: number, words: ArgWords = PACE_WORDS): Result<number> {
  const raw = args['pace'];
  if (raw === undefined) return ok(fallback);
  const parsed = parseRustFloat(raw);
  if (!parsed.ok) return err(`${words.unreadable}: ${parsed.error}`);
  if (!(parsed.value >= 0 && parsed.value <= MAX_PACE)) return err(words.invalid);
  return ok(parsed.value);
}

export const MAX_PACE = 30;

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

/** The `pace` argument every built-in game has: seconds between turns, as `paceArg` accepts it. */
export function paceArgSpec(fallback: number): ArgSpec {
  return numberArgSpec({
    description: `minimum seconds between turns (default ${fallback}, from 0 to ${MAX_PACE})`,
    regex: String.raw`^(30(\.0*)?|[12]?\d(\.\d*)?|\.\d+)$`,
    meaning: 'seconds to wait between moves',
    min: 0,
    max: MAX_PACE,
    default: fallback,
    example: '1.5',
  });
}

import { err, ok, type Result } from '../../util/result.js';
import { templateArgs } from './param-template.js';

/**
 * The manifest `game.json` of one folder in the external games directory (see README.md beside
 * this file). Two kinds:
 * - a game: a game server program and its metadata;
 * - `bots_for`: local programs that play as server bots of another (built-in) game.
 * Raw JSON is validated here into typed manifests; every error names the entry and the field.
 */
export type Argv = readonly string[];

export interface ArgDeclaration {
  readonly description: string;
  readonly regex: string;
  readonly default: string;
  /** A short hint for people (a form, `coco list`); the description when absent. */
  readonly hint?: string;
  /** A value the game accepts, shown as an example; the default when absent. */
  readonly example?: string;
}

export type VisMode = 'inline' | 'none';

export interface GameManifest {
  readonly kind: 'game';
  readonly name: string;
  readonly command: Argv;
  readonly param: string;
  readonly minPlayers: number;
  readonly maxPlayers: number;
  readonly defaultPlayers: number;
  /** Seconds. */
  readonly defaultTimeout: number;
  readonly maxBots: number;
  readonly args: Readonly<Record<string, ArgDeclaration>>;
  /** File name of the description, inside the game's folder. */
  readonly description: string;
  readonly bots: readonly Argv[];
  /** Longest line, in bytes, from the game server and from each player. */
  readonly lineLimit: number;
  /** Seconds a player has to print `ready`. */
  readonly readyDeadline: number;
  /** Seconds without any line either way and no timer pending before the match is failed; null: no such limit (the default). */
  readonly stallDeadline: number | null;
  readonly maxMatchSeconds: number;
  readonly maxOutputBytes: number;
  /** `playererror` lines at which the controller drops the player (and at each later one says `dropped p` again). */
  readonly playerErrorLimit: number;
  readonly vis: VisMode;
}

export interface BotsForManifest {
  readonly kind: 'bots_for';
  /** The game whose server bots these programs are. */
  readonly game: string;
  readonly bots: readonly Argv[];
}

export type Manifest = GameManifest | BotsForManifest;

/** Named limits and defaults of the manifest fields. */
export const MANIFEST_LIMITS = {
  maxPlayers: 64,
  defaultTimeout: 30,
  maxTimeout: 3600,
  defaultLineLimit: 1024,
  minLineLimit: 64,
  maxLineLimit: 1024 * 1024,
  /** As the reference controller. */
  defaultReadyDeadline: 3,
  maxDeadline: 24 * 3600,
  defaultMaxMatchSeconds: 3600,
  defaultMaxOutputBytes: 64 * 1024 * 1024,
  /** The reference drops a player at its first `playererror`. */
  defaultPlayerErrorLimit: 1,
  maxArgs: 32,
  maxArgvItems: 64,
} as const;

export const GAME_NAME = /^[A-Za-z0-9][A-Za-z0-9_.-]{0,63}$/;
const ARG_NAME = /^[A-Za-z0-9_]{1,32}$/;

const GAME_FIELDS = [
  'name', 'command', 'param', 'min_players', 'max_players', 'default_players', 'default_timeout', 'max_bots',
  'args', 'description', 'bots', 'line_limit', 'ready_deadline', 'stall_deadline', 'max_match_seconds',
  'max_output_bytes', 'player_error_limit', 'vis',
] as const;
const BOTS_FOR_FIELDS = ['bots_for', 'bot', 'bots'] as const;

class ManifestError extends Error {}

type Raw = Readonly<Record<string, unknown>>;

/** Reads the fields of one manifest object; each failure names the field. */
class Fields {
  constructor(private readonly raw: Raw) {}

  fail(field: string, problem: string): never {
    throw new ManifestError(`field "${field}" ${problem}`);
  }

  has(field: string): boolean {
    return this.raw[field] !== undefined;
  }

  string(field: string, fallback?: string): string {
    const value = this.raw[field] ?? fallback;
    if (typeof value !== 'string') this.fail(field, fallback === undefined ? 'is required and must be a string' : 'must be a string');
    return value;
  }

  int(field: string, min: number, max: number, fallback?: number): number {
    const value = this.raw[field] ?? fallback;
    if (typeof value !== 'number' || !Number.isInteger(value) || value < min || value > max) {
      this.fail(field, `must be an integer from ${min} to ${max}${fallback === undefined && !this.has(field) ? ' (it is required)' : ''}`);
    }
    return value;
  }

  seconds(field: string, max: number, fallback: number): number {
    const value = this.raw[field] ?? fallback;
    if (typeof value !== 'number' || !Number.isFinite(value) || value <= 0 || value > max) {
      this.fail(field, `must be a number of seconds above 0 and at most ${max}`);
    }
    return value;
  }

  argv(field: string, value: unknown = this.raw[field]): Argv {
    if (!Array.isArray(value) || value.length === 0 || value.length > MANIFEST_LIMITS.maxArgvItems) {
      this.fail(field, 'must be a non-empty list of strings (the program and its arguments, run without a shell)');
    }
    if (!value.every((item) => typeof item === 'string' && item.length > 0 && !item.includes('\0'))) {
      this.fail(field, 'must contain only non-empty strings');
    }
    return value as string[];
  }

  argvList(field: string): Argv[] {
    const value = this.raw[field] ?? [];
    if (!Array.isArray(value)) this.fail(field, 'must be a list of programs, each a list of strings');
    return value.map((item, i) => this.argv(`${field}[${i}]`, item));
  }
}

function unknownFields(raw: Raw, known: readonly string[]): void {
  const extra = Object.keys(raw).filter((key) => !known.includes(key));
  if (extra.length > 0) throw new ManifestError(`unknown field "${extra[0]}" (known: ${known.join(', ')})`);
}

function args(fields: Fields, raw: unknown): Record<string, ArgDeclaration> {
  if (raw === undefined) return {};
  if (raw === null || typeof raw !== 'object' || Array.isArray(raw)) fields.fail('args', 'must be an object of NAME: {description, regex, default, hint, example}');
  const out: Record<string, ArgDeclaration> = {};
  const entries = Object.entries(raw as Raw);
  if (entries.length > MANIFEST_LIMITS.maxArgs) fields.fail('args', `has more than ${MANIFEST_LIMITS.maxArgs} arguments`);
  for (const [name, spec] of entries) {
    const where = `args.${name}`;
    if (!ARG_NAME.test(name)) fields.fail(where, 'has a bad name (letters, digits and _ only, at most 32)');
    if (spec === null || typeof spec !== 'object' || Array.isArray(spec)) fields.fail(where, 'must be an object {description, regex, default, hint, example}');
    const argFields: Fields = new Fields(spec as Raw);
    try {
      unknownFields(spec as Raw, ['description', 'regex', 'default', 'hint', 'example']);
      const description = argFields.string('description');
      const regex = argFields.string('regex');
      const fallback = argFields.string('default');
      let pattern: RegExp;
      try {
        pattern = fullMatch(regex);
      } catch {
        argFields.fail('regex', 'is not a valid regular expression');
      }
      if (!pattern.test(fallback)) argFields.fail('default', `does not match its regex ${regex}`);
      if (!isSafeArgValue(fallback)) argFields.fail('default', 'must not contain control characters');
      const hint = argFields.has('hint') ? argFields.string('hint', '') : undefined;
      const example = argFields.has('example') ? argFields.string('example', '') : undefined;
      if (example !== undefined && (!pattern.test(example) || !isSafeArgValue(example))) {
        argFields.fail('example', `must match its regex ${regex} and contain no control characters`);
      }
      out[name] = { description, regex, default: fallback, ...(hint !== undefined && { hint }), ...(example !== undefined && { example }) };
    } catch (error) {
      if (error instanceof ManifestError) throw new ManifestError(`in "${where}": ${error.message}`);
      throw error;
    }
  }
  return out;
}

/** An argument value must match the whole regex. */
export function fullMatch(regex: string): RegExp {
  return new RegExp(`^(?:${regex})$`, 'u');
}

/** Control characters would let a value inject lines into the game server's input. */
export function isSafeArgValue(value: string): boolean {
  return !/[\u0000-\u001f\u007f]/u.test(value);
}

function gameManifest(raw: Raw): GameManifest {
  unknownFields(raw, GAME_FIELDS);
  const f: Fields = new Fields(raw);
  const name = f.string('name');
  if (!GAME_NAME.test(name)) f.fail('name', 'must be 1 to 64 letters, digits, "_", "-" or "." and start with a letter or digit');
  const command = f.argv('command');
  const param = f.string('param', '{num_players}');
  if (/[\r\n]/.test(param)) f.fail('param', 'must be one line');
  const usedArgs = templateArgs(param);
  if (!usedArgs.ok) f.fail('param', usedArgs.error);
  const used = usedArgs.value;
  const minPlayers = f.int('min_players', 1, MANIFEST_LIMITS.maxPlayers);
  const maxPlayers = f.int('max_players', minPlayers, MANIFEST_LIMITS.maxPlayers);
  const defaultPlayers = f.int('default_players', minPlayers, maxPlayers, minPlayers);
  const defaultTimeout = f.seconds('default_timeout', MANIFEST_LIMITS.maxTimeout, MANIFEST_LIMITS.defaultTimeout);
  const bots = f.argvList('bots');
  const maxBots = f.int('max_bots', 0, maxPlayers, bots.length > 0 ? maxPlayers - 1 : 0);
  if (maxBots > 0 && bots.length === 0) f.fail('max_bots', 'must be 0 when "bots" names no bot program');
  const declared = args(f, raw.args);
  for (const arg of used) if (!Object.hasOwn(declared, arg)) f.fail('param', `uses {arg:${arg}} but "args" does not declare ${arg}`);
  for (const arg of Object.keys(declared)) if (!used.includes(arg)) f.fail(`args.${arg}`, `is declared but "param" has no {arg:${arg}}`);
  const description = f.string('description', 'description.md');
  if (!/^[^/\\]+\.md$/.test(description) || description.startsWith('.')) f.fail('description', 'must be a .md file name inside the game folder');
  const vis = f.string('vis', 'inline');
  if (vis !== 'inline' && vis !== 'none') f.fail('vis', 'must be "inline" or "none"');
  const visMode: VisMode = vis;
  return {
    kind: 'game',
    name,
    command,
    param,
    minPlayers,
    maxPlayers,
    defaultPlayers,
    defaultTimeout,
    maxBots,
    args: declared,
    description,
    bots,
    lineLimit: f.int('line_limit', MANIFEST_LIMITS.minLineLimit, MANIFEST_LIMITS.maxLineLimit, MANIFEST_LIMITS.defaultLineLimit),
    readyDeadline: f.seconds('ready_deadline', MANIFEST_LIMITS.maxDeadline, MANIFEST_LIMITS.defaultReadyDeadline),
    stallDeadline: f.has('stall_deadline') ? f.seconds('stall_deadline', MANIFEST_LIMITS.maxDeadline, 1) : null,
    maxMatchSeconds: f.seconds('max_match_seconds', MANIFEST_LIMITS.maxDeadline, MANIFEST_LIMITS.defaultMaxMatchSeconds),
    maxOutputBytes: f.int('max_output_bytes', 1024, Number.MAX_SAFE_INTEGER, MANIFEST_LIMITS.defaultMaxOutputBytes),
    playerErrorLimit: f.int('player_error_limit', 1, 1_000_000, MANIFEST_LIMITS.defaultPlayerErrorLimit),
    vis: visMode,
  };
}

function botsForManifest(raw: Raw): BotsForManifest {
  unknownFields(raw, BOTS_FOR_FIELDS);
  const f: Fields = new Fields(raw);
  const game = f.string('bots_for');
  if (!GAME_NAME.test(game)) f.fail('bots_for', 'must be a game name');
  if (f.has('bot') === f.has('bots')) f.fail('bot', 'or "bots" is required (exactly one of them)');
  const bots = f.has('bot') ? [f.argv('bot')] : f.argvList('bots');
  if (bots.length === 0) f.fail('bots', 'must name at least one program');
  return { kind: 'bots_for', game, bots };
}

/** Validates one parsed game.json; `entry` names it in the error (e.g. its path). */
export function parseManifest(raw: unknown, entry: string): Result<Manifest> {
  try {
    if (raw === null || typeof raw !== 'object' || Array.isArray(raw)) throw new ManifestError('must be a JSON object');
    const fields = raw as Raw;
    return ok(fields.bots_for !== undefined ? botsForManifest(fields) : gameManifest(fields));
  } catch (error) {
    if (error instanceof ManifestError) return err(`${entry}: ${error.message}`);
    throw error;
  }
}

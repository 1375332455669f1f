/**
 * The body of POST /api/tournaments, checked: raw JSON in, a typed request or a stable error code
 * with words out. Only the shape is checked here; the game, its bots and the limits are the
 * directory's (server-tournaments.ts), which knows them.
 */
import { isValidUserName } from '../lobby/names.js';
import { err, ok, type Result } from '../util/result.js';
import { FORMATS, type Format } from './pairings.js';
import type { BotEntrant, TournamentSpec } from './server-tournament.js';

/** Why a request was refused: a stable code for programs, words for people. */
export interface TournamentRefusal {
  readonly code: TournamentErrorCode;
  readonly error: string;
}

export const TOURNAMENT_ERROR_CODES = [
  'tournament/bad-json',
  'tournament/bad-field',
  'tournament/unknown-field',
  'tournament/no-game',
  'tournament/no-bot',
  'tournament/bad-args',
  'tournament/too-many-entrants',
  'tournament/too-many-matches',
  'tournament/too-much-concurrency',
  'tournament/too-many-running',
  'tournament/password',
  'tournament/password-backoff',
  'tournament/body-too-large',
  'tournament/body-too-slow',
  'tournament/body-too-many',
  'tournament/not-found',
  'tournament/not-running',
  'tournament/unavailable',
] as const;
export type TournamentErrorCode = (typeof TOURNAMENT_ERROR_CODES)[number];

/** A creation request: the tournament, and the server's verification password that allows it. */
export interface TournamentRequest {
  readonly spec: TournamentSpec;
  readonly password: string;
}

const FIELDS = ['game', 'format', 'rounds', 'concurrency', 'entrants', 'args', 'timeout', 'seed', 'players', 'password'] as const;
const ENTRANT_FIELDS = ['name', 'bot'] as const;

function refuse(code: TournamentErrorCode, error: string): Result<never, TournamentRefusal> {
  return err({ code, error });
}

const isObject = (value: unknown): value is Record<string, unknown> => typeof value === 'object' && value !== null && !Array.isArray(value);

function wholeField(body: Record<string, unknown>, name: string, fallback: number): Result<number, TournamentRefusal> {
  const value = body[name];
  if (value === undefined) return ok(fallback);
  if (!Number.isSafeInteger(value) || (value as number) < 1) return refuse('tournament/bad-field', `"${name}" must be a whole number from 1`);
  return ok(value as number);
}

/** The JSON object in `text` with none but `fields`, or why not. */
function objectBody(text: string, fields: readonly string[]): Result<Record<string, unknown>, TournamentRefusal> {
  let body: unknown;
  try {
    body = JSON.parse(text);
  } catch {
    return refuse('tournament/bad-json', 'the body is not JSON');
  }
  if (!isObject(body)) return refuse('tournament/bad-json', 'the body must be a JSON object');
  const unknown = Object.keys(body).find((key) => !fields.includes(key));
  if (unknown !== undefined) return refuse('tournament/unknown-field', `unknown field "${unknown.slice(0, 64)}" (fields: ${fields.join(', ')})`);
  return ok(body);
}

/** The request in `text` (a JSON object), or why not. */
export function parseTournamentRequest(text: string): Result<TournamentRequest, TournamentRefusal> {
  const parsed = objectBody(text, FIELDS);
  if (!parsed.ok) return parsed;
  const body = parsed.value;
  const { game, password } = body;
  if (typeof game !== 'string' || game === '') return refuse('tournament/bad-field', '"game" must be the name of a game');
  if (typeof password !== 'string') return refuse('tournament/password', '"password" must be the server\'s verification password');
  const format = body['format'] ?? 'round-robin';
  if (typeof format !== 'string' || !(FORMATS as readonly string[]).includes(format)) return refuse('tournament/bad-field', `"format" is one of ${FORMATS.join(', ')}`);
  const rounds = wholeField(body, 'rounds', 1);
  if (!rounds.ok) return rounds;
  const concurrency = wholeField(body, 'concurrency', 1);
  if (!concurrency.ok) return concurrency;
  const timeout = body['timeout'] ?? null;
  if (timeout !== null && !(typeof timeout === 'number' && timeout > 0 && Number.isFinite(timeout))) return refuse('tournament/bad-field', '"timeout" must be a number of seconds above 0, or null');
  const players = body['players'] ?? null;
  if (players !== null && !(Number.isSafeInteger(players) && (players as number) >= 2)) return refuse('tournament/bad-field', '"players" must be the seats of a match, a whole number from 2, or null for the game\'s default');
  const seed = body['seed'] ?? 'coco';
  if (typeof seed !== 'string' || seed.length > 64) return refuse('tournament/bad-field', '"seed" must be a text of at most 64 characters');
  const args = body['args'] ?? {};
  if (!isObject(args) || !Object.values(args).every((value) => typeof value === 'string')) return refuse('tournament/bad-field', '"args" must be an object of texts');
  const entrants = parseEntrants(body['entrants']);
  if (!entrants.ok) return entrants;
  return ok({
    password,
    spec: {
      game,
      format: format as Format,
      rounds: rounds.value,
      concurrency: concurrency.value,
      entrants: entrants.value,
      args: args as Record<string, string>,
      timeout,
      seed,
      players: players as number | null,
    },
  });
}

/** The body of POST /api/tournaments/ID/stop: `{"password": PASSWORD}`, the server's verification password. */
export function parseStopRequest(text: string): Result<{ readonly password: string }, TournamentRefusal> {
  const parsed = objectBody(text, ['password']);
  if (!parsed.ok) return parsed;
  const { password } = parsed.value;
  if (typeof password !== 'string') return refuse('tournament/password', '"password" must be the server\'s verification password');
  return ok({ password });
}

function parseEntrants(raw: unknown): Result<BotEntrant[], TournamentRefusal> {
  if (!Array.isArray(raw)) return refuse('tournament/bad-field', '"entrants" must be a list of {"name": NAME, "bot": BOT or null}');
  const entrants: BotEntrant[] = [];
  for (const item of raw) {
    if (!isObject(item)) return refuse('tournament/bad-field', 'each entrant must be an object {"name": NAME, "bot": BOT or null}');
    const extra = Object.keys(item).find((key) => !(ENTRANT_FIELDS as readonly string[]).includes(key));
    if (extra !== undefined) return refuse('tournament/unknown-field', `unknown entrant field "${extra.slice(0, 64)}" (fields: ${ENTRANT_FIELDS.join(', ')})`);
    const { name } = item;
    const bot = item['bot'] ?? null;
    if (typeof name !== 'string' || !isValidUserName(name)) return refuse('tournament/bad-field', `entrant name ${JSON.stringify(name)?.slice(0, 64)} is not valid (1 to 16 printable characters, no spaces, no $)`);
    if (bot !== null && typeof bot !== 'string') return refuse('tournament/bad-field', `entrant "${name}": "bot" must be a bot's name or null`);
    if (entrants.some((e) => e.name === name)) return refuse('tournament/bad-field', `two entrants are named "${name}"`);
    entrants.push({ name, bot });
  }
  if (entrants.length < 2) return refuse('tournament/bad-field', 'a tournament needs at least 2 entrants');
  return ok(entrants);
}

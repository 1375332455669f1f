import { readFileSync } from 'node:fs';
import type { ArgSpec, GameDefinition, MatchSettings, NewMatchParams } from '../../match/game.js';
import { err, ok, type Result } from '../../util/result.js';
import { booleanArgSpec, numberArgSpec, textArgSpec } from '../arg-spec.js';
import { configureMatch, numberArg, paceArg, paceArgSpec } from '../game-params.js';
import { parseBoardCode } from './board.js';
import { playHaseBot } from './bot.js';
import { HaseRoom, type HaseConfig, type RoomDeps } from './room.js';

/** The platform name of the game; Software-Challenge clients ask for GAME_TYPE (messages.ts). */
export const HASE_UND_IGEL = 'hase-und-igel';

export const DEFAULT_SOFT_TIMEOUT = 2;
export const DEFAULT_HARD_TIMEOUT = 10;
/** A whole message may come on one line; the XML reader bounds each message to 64 KiB as well. */
export const MAX_LINE_BYTES = 64 * 1024;

/** A board the server could deal, as the example of the `board` argument. */
const EXAMPLE_BOARD_CODE = 'SHC12HCCCHLIHCCIC12I2CLCIC2HCCIHC12HCIHC2CLIC12HCCICC2CHILH1HCCCG';
const DISPLAY_NAME_EXPECTS = 'at most 64 characters, none of them a control character';

const ARGS: Readonly<Record<string, ArgSpec>> = {
  softTimeout: numberArgSpec({
    description: `seconds within which a move must arrive after the request, judged when it arrives (default ${DEFAULT_SOFT_TIMEOUT}, from 0.001 to 300)`,
    regex: String.raw`^\d{1,3}(\.\d+)?$`,
    meaning: 'seconds a move may take, judged when it arrives',
    min: 0.001,
    max: 300,
    default: DEFAULT_SOFT_TIMEOUT,
    example: '2.5',
  }),
  hardTimeout: numberArgSpec({
    description: 'seconds after a move request after which the player loses without waiting (default: the match timeout, 10)',
    regex: String.raw`^\d{1,4}(\.\d+)?$`,
    meaning: 'seconds after a move request before the player loses',
    min: 0.001,
    max: 3600,
    default: null,
    defaultNote: 'the match timeout',
    example: '15',
  }),
  canTimeout: textArgSpec({
    description: 'whether the time limits apply to RED and BLUE, e.g. "true,false" (default "true,true")',
    regex: '^(true|false),(true|false)$',
    hint: 'whether the time limits apply to RED and BLUE, as true,false',
    expects: 'two of true or false separated by a comma',
    default: 'true,true',
    example: 'true,false',
  }),
  room: textArgSpec({
    description: 'the room id players see (default: a fresh UUID)',
    regex: '^[A-Za-z0-9-]{1,64}$',
    hint: 'the room id players see',
    expects: 'letters, digits and dashes, at most 64',
    default: null,
    defaultNote: 'a fresh UUID',
    example: 'final-round-1',
  }),
  board: textArgSpec({
    description: 'a board as 65 letters of S C H L I 1 2 G (default: dealt at random)',
    regex: '^[SCHLI12G]{65}$',
    hint: 'the board, as 65 letters of S C H L I 1 2 G',
    expects: 'a board the server could deal, as 65 letters of S C H L I 1 2 G',
    default: null,
    defaultNote: 'dealt at random',
    example: EXAMPLE_BOARD_CODE,
  }),
  seed: textArgSpec({
    description: 'a seed to deal the board from (default: the match seed)',
    regex: String.raw`^[\w.-]{1,64}$`,
    hint: 'a seed to deal the board from',
    expects: 'letters, digits, dots, dashes and underscores, at most 64',
    default: null,
    defaultNote: "the match's seed",
    example: 'tournament-7',
  }),
  redName: textArgSpec({
    description: 'the display name RED has in the XML (default: its player name)',
    regex: String.raw`^[^\x00-\x1f]{0,64}$`,
    hint: 'the display name RED has in the XML',
    expects: DISPLAY_NAME_EXPECTS,
    default: null,
    defaultNote: 'its player name',
    example: 'Team Red',
  }),
  blueName: textArgSpec({
    description: 'the display name BLUE has in the XML (default: its player name)',
    regex: String.raw`^[^\x00-\x1f]{0,64}$`,
    hint: 'the display name BLUE has in the XML',
    expects: DISPLAY_NAME_EXPECTS,
    default: null,
    defaultNote: 'its player name',
    example: 'Team Blue',
  }),
  paused: booleanArgSpec({
    description: 'start paused until an administrator resumes the room (default false)',
    regex: '^(true|false)$',
    meaning: 'start paused until an administrator resumes the room',
    default: false,
    example: 'true',
  }),
  pace: paceArgSpec(0),
};

function boolArg(args: Readonly<Record<string, string>>, key: string, fallback: boolean): Result<boolean> {
  const raw = args[key];
  if (raw === undefined) return ok(fallback);
  if (raw === 'true' || raw === 'false') return ok(raw === 'true');
  return err(`Argument "${key}" must be true or false, not "${raw}"`);
}

function patternArg(args: Readonly<Record<string, string>>, key: string, pattern: RegExp, what: string): Result<string | null> {
  const raw = args[key];
  if (raw === undefined) return ok(null);
  return pattern.test(raw) ? ok(raw) : err(`Argument "${key}" must be ${what}, not "${raw}"`);
}

/** Arguments as typed configuration; a missing hardTimeout stays NaN until the match timeout is known. */
function parseArgs(args: Readonly<Record<string, string>>): Result<HaseConfig> {
  const softTimeout = numberArg(args, 'softTimeout', DEFAULT_SOFT_TIMEOUT, 0.001, 300);
  if (!softTimeout.ok) return softTimeout;
  const hardTimeout = numberArg(args, 'hardTimeout', Number.NaN, 0.001, 3600);
  if (!hardTimeout.ok) return hardTimeout;
  const rawCan = args.canTimeout ?? 'true,true';
  const can = /^(true|false),(true|false)$/.exec(rawCan);
  if (!can) return err(`Argument "canTimeout" must be two of true/false separated by a comma, not "${rawCan}"`);
  const room = patternArg(args, 'room', /^[A-Za-z0-9-]{1,64}$/, 'letters, digits and dashes (at most 64)');
  if (!room.ok) return room;
  const board = patternArg(args, 'board', /^.*$/s, 'a board code');
  if (!board.ok) return board;
  if (board.value !== null) {
    const parsed = parseBoardCode(board.value);
    if (!parsed.ok) return err(`Argument "board" is not a board the server could deal (${parsed.error})`);
  }
  const seed = patternArg(args, 'seed', /^[\w.-]{1,64}$/, 'letters, digits, dots, dashes and underscores (at most 64)');
  if (!seed.ok) return seed;
  // Display names as Software-Challenge clients chose them, spaces and all: a seat's player name
  // must be a valid (and distinct) user name, a display name need not.
  const displayName = /^[^\x00-\x1f]{0,64}$/;
  const redName = patternArg(args, 'redName', displayName, 'at most 64 characters, none of them a control character');
  if (!redName.ok) return redName;
  const blueName = patternArg(args, 'blueName', displayName, 'at most 64 characters, none of them a control character');
  if (!blueName.ok) return blueName;
  const paused = boolArg(args, 'paused', false);
  if (!paused.ok) return paused;
  const pace = paceArg(args, 0);
  if (!pace.ok) return pace;
  return ok({
    softTimeout: softTimeout.value,
    hardTimeout: hardTimeout.value,
    canTimeout: [can[1] === 'true', can[2] === 'true'],
    room: room.value,
    board: board.value,
    seed: seed.value,
    displayNames: [redName.value, blueName.value],
    paused: paused.value,
    pace: pace.value,
  });
}

function configure(params: NewMatchParams): Result<MatchSettings<HaseConfig>> {
  const settings = configureMatch(
    params,
    { minPlayers: 2, maxPlayers: 2, defaultPlayers: 2, maxBots: 2, defaultTimeout: DEFAULT_HARD_TIMEOUT },
    ARGS,
    parseArgs,
  );
  if (!settings.ok) return settings;
  const { config, timeout } = settings.value;
  return ok({ ...settings.value, config: { ...config, hardTimeout: Number.isNaN(config.hardTimeout) ? timeout : config.hardTimeout } });
}

/**
 * Hase und Igel with the Software-Challenge 2018 rules, speaking the 2018 XML room protocol with
 * each seat. `deps` lets a front door (and tests) reach the rooms: admin control and the grace
 * period for closing. Time comes from the match's clock.
 */
export function createHaseUndIgelGame(deps: RoomDeps = {}): GameDefinition<HaseConfig> {
  return {
    name: HASE_UND_IGEL,
    description: readFileSync(new URL('./description.md', import.meta.url), 'utf8'),
    args: ARGS,
    maxLineBytes: MAX_LINE_BYTES,
    // The XML stream has no delimiters (Java clients end their last message without a line
    // break), so the game reads text as it arrives.
    framing: 'text',
    visFromInput: true,
    configure,
    play: (ctx, config) => new HaseRoom(ctx, config, deps).play(),
    // The bot's time is bounded by the soft limit of its seat (RED is seat 0), which the game judges.
    playBot: (io, config, env) => playHaseBot(io, env, config.canTimeout[env.seat === 0 ? 0 : 1] ? config.softTimeout : Infinity),
  };
}

export const haseUndIgel: GameDefinition<HaseConfig> = createHaseUndIgelGame();

/**
 * `coco tournament`: plays a schedule of matches of k players (-n, or the game's default)
 * between programs (and at most one server bot) on a server, up to K at once, appends each
 * result to a JSONL file as it finishes (a re-run with the same file plays only what is
 * missing), and prints the standings at the end.
 */
import { parseArgs } from 'node:util';
import { missingProgram } from './program-check.js';
import { FORMATS, type Format, type Pairing } from '../tournament/pairings.js';
import { checkSchedule, runSchedule } from '../tournament/schedule.js';
import { ResultsFile, type ResultLine } from '../tournament/results-file.js';
import { parseSprt, sprtStatus, type SprtSettings, type SprtStatus } from '../tournament/sprt.js';
import { formatPoints, formatStandings, standings } from '../tournament/standings.js';
import { formatFinished, formatScore, formatStarted } from '../tournament/progress-lines.js';
import { existsSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { STDERR_INHERIT, type StderrTarget } from '../bridges/program-channel.js';
import { serverTournament } from './coco-tournament-server.js';
import { isValidUserName } from '../lobby/names.js';
import { signalNumber } from './coco-connect.js';
import { CliError, EXIT, UsageError } from './exit-status.js';
import { parseGameArgs } from './game-args.js';
import { fetchGameArgs } from './game-usage.js';
import { playPairing, type Entrant, type MatchContext } from './tournament-match.js';

export const TOURNAMENT_HELP = `  tournament GAME --player NAME=COMMAND ... [options]
                         play a tournament of matches between programs
      --player NAME=COMMAND  a player: its name and a shell command line (repeatable)
      --bot NAME             the server's bot takes part too, as NAME
      -n, --players K        players in each match (default: the game's)
      --format FORMAT        round-robin (default): every K players at a table; gauntlet:
                             the first player with every K-1 of the others; swiss: tables
                             of K by score, those left over sit the round out
      --rounds N             round-robin, gauntlet: each table plays K·N games, N in each
                             rotation of its seats; swiss: N rounds (default 1)
      --concurrency K        matches at once (default 1)
      -a, --arg KEY=VALUE    game argument (repeatable)
      -t, --timeout SECONDS  player inactivity timeout (default: the game's)
      --results FILE         append each result to FILE (JSON lines); run again with the
                             same FILE to play only what is missing
      --stderr               show the players' stderr here (default: thrown away)
      --stderr-dir DIR       append each player's stderr to DIR/NAME.stderr
      --seed TEXT            swiss: breaks ties between equal scores (default "coco")
      --sprt [elo0=0 elo1=5 alpha=0.05 beta=0.05]
                             2 players: stop once the SPRT decides between elo0 and elo1
                         Every player sits in each seat equally often (the reference
                         server seats players its own way: there, by chance); the results
                         file records the seats each game had. A game of K players scores
                         (opponents beaten + half those tied) / (K-1) points; Elo comes
                         from the rankings. ^C stops it: matches that ended are kept, the
                         ones it made that had not started are deleted from the lobby.
  tournament GAME --on-server -v PASSWORD --bot NAME[=BOT] ... [options]
                         the server plays a tournament between its own bots, which
                         anyone can follow on its page (#/tournaments/ID)
      --on-server            the server runs it: --bot is repeatable, --player is not
                             allowed; seats alternate strictly (the server seats them)
      --bot NAME[=BOT]       an entrant: the game's bot, or its bot program BOT (the
                             page's tournament form lists a game's bot programs)
      -v, --verification PW  the server's verification password (needed)
                         -n, --format, --rounds, --concurrency, -a, -t and --seed as above;
                         ^C stops following, the tournament goes on.
`;

interface TournamentSettings {
  /** Null for a local tournament; else the server's tournament of its bots (coco-tournament-server.ts). */
  readonly onServer: { readonly verification: string; readonly entrants: readonly { readonly name: string; readonly bot: string | null }[] } | null;
  readonly game: string;
  readonly format: Format;
  readonly rounds: number;
  /** Players in each match, or null for the game's default. */
  readonly players: number | null;
  readonly concurrency: number;
  readonly args: Record<string, string>;
  /** Seconds of player inactivity, or null for the game's default. */
  readonly timeout: number | null;
  readonly entrants: readonly Entrant[];
  readonly resultsPath: string | null;
  readonly seed: string;
  readonly sprt: SprtSettings | null;
  /** Where the players' stderr goes: off the console unless asked (--stderr, --stderr-dir). */
  readonly stderr: { readonly kind: 'ignore' } | { readonly kind: 'inherit' } | { readonly kind: 'dir'; readonly dir: string };
}

const SPRT_WORD = /^[A-Za-z0-9]+=/;

function whole(text: string | undefined, what: string, fallback: number): number {
  if (text === undefined) return fallback;
  if (!/^\d+$/.test(text) || Number(text) < 1) throw new UsageError(`${what} must be a whole number from 1, not "${text}"`);
  return Number(text);
}

/** The command line of `coco tournament` (after the command's name), checked. */
export function parseTournament(argv: readonly string[]): TournamentSettings {
  // `--sprt` takes the KEY=VALUE words that follow it, which parseArgs cannot express.
  const words = [...argv];
  let sprtWords: string[] | null = null;
  const at = words.indexOf('--sprt');
  if (at !== -1) {
    let end = at + 1;
    while (end < words.length && SPRT_WORD.test(words[end]!)) end++;
    sprtWords = words.splice(at, end - at).slice(1);
  }
  let parsed;
  try {
    parsed = parseArgs({
      args: words,
      allowPositionals: true,
      strict: true,
      options: {
        player: { type: 'string', multiple: true },
        bot: { type: 'string', multiple: true },
        'on-server': { type: 'boolean', default: false },
        verification: { type: 'string', short: 'v' },
        format: { type: 'string', default: 'round-robin' },
        rounds: { type: 'string' },
        players: { type: 'string', short: 'n' },
        concurrency: { type: 'string' },
        arg: { type: 'string', short: 'a', multiple: true },
        timeout: { type: 'string', short: 't' },
        results: { type: 'string' },
        seed: { type: 'string', default: 'coco' },
        stderr: { type: 'boolean', default: false },
        'stderr-dir': { type: 'string' },
      },
    });
  } catch (error) {
    throw new UsageError(error instanceof Error ? error.message : String(error));
  }
  const { values, positionals } = parsed;
  const [game, ...extra] = positionals;
  if (game === undefined) throw new UsageError('tournament needs the name of a game (see coco list)');
  if (extra.length) throw new UsageError(`unexpected arguments: ${extra.join(' ')}`);
  const format = values.format as string;
  if (!(FORMATS as readonly string[]).includes(format)) throw new UsageError(`--format is one of ${FORMATS.join(', ')}, not "${format}"`);
  const entrants: Entrant[] = (values.player ?? []).map((word) => {
    const eq = word.indexOf('=');
    if (eq <= 0 || word.slice(eq + 1).trim() === '') throw new UsageError(`--player takes NAME=COMMAND, not "${word}"`);
    return { name: word.slice(0, eq), command: word.slice(eq + 1) };
  });
  const bots = values.bot ?? [];
  const onServer = values['on-server'] === true;
  if (onServer) {
    if (entrants.length > 0) throw new UsageError('--on-server plays server bots only: use --bot NAME[=BOT], not --player');
    if (values.results !== undefined || sprtWords !== null) throw new UsageError('--results and --sprt are for a local tournament, not --on-server');
    if (values.verification === undefined) throw new UsageError('--on-server needs the server\'s verification password (-v PASSWORD)');
  } else {
    if (bots.length > 1) throw new UsageError('only one --bot takes part in a local tournament (--on-server takes several)');
    if (values.verification !== undefined) throw new UsageError('-v is for --on-server');
  }
  const serverBots = bots.map((word) => {
    const eq = word.indexOf('=');
    return eq === -1 ? { name: word, bot: null } : { name: word.slice(0, eq), bot: word.slice(eq + 1) || null };
  });
  if (onServer) entrants.push(...serverBots.map(({ name }) => ({ name, command: null })));
  else if (bots.length === 1) entrants.push({ name: bots[0]!, command: null });
  for (const { name } of entrants) {
    if (!isValidUserName(name)) throw new UsageError(`"${name}" is not a valid player name (1 to 16 printable characters, no spaces, no $)`);
  }
  const names = entrants.map((e) => e.name);
  const twice = names.find((name, i) => names.indexOf(name) !== i);
  if (twice !== undefined) throw new UsageError(`two players are named "${twice}"`);
  const players = values.players === undefined ? null : whole(values.players, '--players', 1);
  if (players !== null && players < 2) throw new UsageError(`--players counts the players of a match, from 2, not ${players}`);
  // Without -n the game's default applies, known only from the server: tournament() checks it again.
  const seats = players ?? 2;
  if (entrants.length < seats) throw new UsageError(`a tournament of ${seats}-player matches needs at least ${seats} players (--player NAME=COMMAND, --bot NAME)`);
  let sprt: SprtSettings | null = null;
  if (sprtWords !== null) {
    const checked = parseSprt(sprtWords);
    if (!checked.ok) throw new UsageError(checked.error);
    if (seats !== 2) throw new UsageError(`--sprt is for 2-player matches, not ${seats}-player ones: its test compares two players head to head`);
    if (entrants.length !== 2) throw new UsageError('--sprt compares exactly 2 players');
    sprt = checked.value;
  }
  const stderrDir = values['stderr-dir'];
  if (stderrDir !== undefined && values.stderr === true) throw new UsageError('--stderr and --stderr-dir are two places for the same output: pick one');
  if (stderrDir !== undefined && !(existsSync(stderrDir) && statSync(stderrDir).isDirectory())) throw new UsageError(`--stderr-dir takes an existing folder, not "${stderrDir}"`);
  if (onServer && (stderrDir !== undefined || values.stderr === true)) throw new UsageError('--stderr and --stderr-dir are for a local tournament\'s programs, not --on-server');
  const timeout = values.timeout === undefined ? null : Number(values.timeout);
  if (timeout !== null && !(timeout > 0 && Number.isFinite(timeout))) throw new UsageError(`--timeout takes seconds, not "${values.timeout}"`);
  return {
    onServer: onServer ? { verification: values.verification!, entrants: serverBots } : null,
    game,
    timeout,
    format: format as Format,
    rounds: whole(values.rounds, '--rounds', 1),
    players,
    concurrency: whole(values.concurrency, '--concurrency', 1),
    args: parseGameArgs(values.arg ?? []),
    entrants,
    resultsPath: values.results ?? null,
    seed: values.seed as string,
    sprt,
    stderr: stderrDir !== undefined ? { kind: 'dir', dir: stderrDir } : values.stderr === true ? { kind: 'inherit' } : { kind: 'ignore' },
  };
}

export interface TournamentIo {
  readonly write: (text: string) => void;
  /** A terminal gets one live line; anything else a line per finished match. */
  readonly tty: boolean;
  /** Aborted when coco is told to leave: running matches are stopped and not recorded. */
  readonly signal: AbortSignal;
}

function sprtLine(status: SprtStatus, settings: SprtSettings, names: readonly string[]): string {
  const verdict = status.verdict === 'H1' ? `H1 accepted: ${names[0]} is at least ${settings.elo1} Elo stronger` : status.verdict === 'H0' ? `H0 accepted: ${names[0]} is not ${settings.elo1} Elo stronger` : 'no decision yet';
  return `SPRT elo0=${settings.elo0} elo1=${settings.elo1} alpha=${settings.alpha} beta=${settings.beta}: LLR ${status.llr.toFixed(2)} (${status.lower.toFixed(2)}, ${status.upper.toFixed(2)}), ${verdict}\n`;
}

/** The SPRT's counts from the first player's side. */
function sprtTally(first: string, results: readonly ResultLine[]): { wins: number; draws: number; losses: number } {
  const tally = { wins: 0, draws: 0, losses: 0 };
  for (const r of results) {
    if (r.outcome === '*') continue;
    if (r.outcome === '1/2-1/2') tally.draws++;
    else if ((r.outcome === '1-0') === (r.players[0] === first)) tally.wins++;
    else tally.losses++;
  }
  return tally;
}

/**
 * The game's players per match, as the server describes the game (GET /api/games); 2 from a
 * server that does not say (the reference), where tournaments are of 2-player games.
 */
async function defaultPlayers(url: string, game: string): Promise<number> {
  const games = await fetchGameArgs(url);
  return games?.find((g) => g.name === game)?.default_players ?? 2;
}

/** `coco -s URL tournament ...`: returns the exit status. */
export async function tournament(url: string, argv: readonly string[], io: TournamentIo): Promise<number> {
  const settings = parseTournament(argv);
  if (settings.onServer) {
    const { game, format, rounds, players, concurrency, args, timeout, seed } = settings;
    return serverTournament(url, { game, format, rounds, players, concurrency, args, timeout, seed, ...settings.onServer }, io);
  }
  const { entrants, sprt } = settings;
  for (const { name, command } of entrants) {
    const missing = command === null ? null : missingProgram(command);
    if (missing !== null) throw new CliError(`player "${name}": cannot start "${missing}": no such program, or not executable (--player ${name}=${command})`, EXIT.programStart);
  }
  const names = entrants.map((e) => e.name);
  let file: ResultsFile | null = null;
  if (settings.resultsPath !== null) {
    try {
      file = ResultsFile.open(settings.resultsPath);
    } catch (error) {
      throw new CliError(`cannot use the results file: ${error instanceof Error ? error.message : String(error)}`, EXIT.error);
    }
  }
  const stranger = file?.previous.flatMap((r) => r.players).find((name) => !names.includes(name));
  if (stranger !== undefined) throw new CliError(`the results file ${settings.resultsPath} is another tournament's: it has a player "${stranger}"`, EXIT.error);
  const seatsPerMatch = settings.players ?? (await defaultPlayers(url, settings.game));
  if (sprt !== null && seatsPerMatch !== 2) throw new UsageError(`--sprt is for 2-player matches, not ${seatsPerMatch}-player ones (${settings.game}'s default): its test compares two players head to head`);
  const checked = checkSchedule(settings.format, names.length, settings.rounds, seatsPerMatch);
  if (!checked.ok) throw new UsageError(checked.error);
  const total = checked.value;
  // Schedules grow by whole rounds at their end, so a file of fewer rounds is a start of this one;
  // games of later rounds than asked for now are left out.
  const results: ResultLine[] = (file?.previous ?? []).filter((r) => r.pairing < total);
  const done = new Set(results.map((r) => r.pairing));

  // Stops the running matches on a signal, or when one of them meets an error that ends it all.
  const halt = new AbortController();
  const onLeave = (): void => halt.abort(io.signal.reason);
  io.signal.addEventListener('abort', onLeave, { once: true });
  let fatal: unknown = null;
  const decided = (): boolean => sprt !== null && sprtStatus(sprtTally(names[0]!, results), sprt).verdict !== null;
  const more = (): boolean => !halt.signal.aborted && !decided();

  let running = 0;
  const stderrOf = (name: string): StderrTarget => {
    const { stderr } = settings;
    return stderr.kind === 'dir' ? { kind: 'file', path: join(stderr.dir, `${name}.stderr`) } : stderr.kind === 'inherit' ? STDERR_INHERIT : { kind: 'ignore' };
  };
  const progress = (): void => {
    if (io.tty) io.write(`\r\x1b[K[${results.length}/${total}] ${running} running | ${formatPoints(names, results)}`);
  };
  // On a terminal each line goes above the live line, which is drawn again under it.
  const say = (text: string): void => {
    io.write(io.tty ? `\r\x1b[K${text}` : text);
    progress();
  };
  const context: MatchContext = {
    url,
    game: settings.game,
    players: seatsPerMatch,
    args: settings.args,
    timeout: settings.timeout,
    signal: halt.signal,
    stderrOf,
    created: (pairing, id) => say(formatStarted(pairing.index + 1, total, pairing.seats.map((i) => names[i]!), id)),
  };
  const play = async (pairing: Pairing): Promise<void> => {
    running++;
    progress();
    try {
      const result = await playPairing(context, pairing, entrants);
      if (result === null) return;
      results.push(result);
      done.add(result.pairing);
      file?.append(result);
      say(formatFinished(result) + (names.length === 2 ? formatScore(names[0]!, names[1]!, results) : ''));
    } catch (error) {
      fatal ??= error;
      halt.abort('SIGTERM');
    } finally {
      running--;
      progress();
    }
  };

  try {
    await runSchedule(
      { format: settings.format, rounds: settings.rounds, names, seatsPerMatch, seed: settings.seed, concurrency: settings.concurrency },
      { results, done, more, play, check: (pairings) => checkResumed(pairings, results, names, settings.resultsPath) },
    );
  } finally {
    io.signal.removeEventListener('abort', onLeave);
  }
  if (io.tty) io.write('\n');
  if (fatal !== null) throw fatal;
  io.write(formatStandings(standings(names, results)));
  if (sprt) io.write(sprtLine(sprtStatus(sprtTally(names[0]!, results), sprt), sprt, names));
  return io.signal.aborted ? 128 + signalNumber(io.signal.reason) : EXIT.ok;
}

/**
 * A results file from another tournament (other players, another order of --player, another
 * format) would have its games counted for the wrong pairings: each recorded game must be
 * between the players its pairing schedules.
 */
function checkResumed(pairings: readonly Pairing[], results: readonly ResultLine[], names: readonly string[], path: string | null): void {
  for (const pairing of pairings) {
    const scheduled = pairing.seats.map((i) => names[i]!).sort();
    const found = results.find((r) => r.pairing === pairing.index);
    if (found && [...found.players].sort().join(' ') !== scheduled.join(' ')) {
      throw new CliError(`the results file ${path} is another tournament's: its game ${pairing.index} was ${found.players.join(' against ')}, not ${scheduled.join(' against ')}`, EXIT.error);
    }
  }
}

#!/usr/bin/env node
import { randomBytes } from 'node:crypto';
import { userInfo } from 'node:os';
import { parseArgs, type ParseArgsConfig } from 'node:util';
import { CocoClient } from '../client/coco-client.js';
import { connectProgram, signalNumber } from './coco-connect.js';
import { TOURNAMENT_HELP, tournament } from './coco-tournament.js';
import { stopServerTournament } from './coco-tournament-server.js';
import { REGISTER_HELP, register } from './coco-register.js';
import { loadToken } from './token-store.js';
import { deleteMatch } from './delete-match.js';
import { CliError, EXIT, EXIT_HELP, UsageError } from './exit-status.js';
import { formatHistoryTable } from './history-table.js';
import { withFinalNewline } from './history-stream.js';
import { formatLobbyTable } from './lobby-table.js';
import { parseGameArgs } from './game-args.js';
import { fetchGameArgs, formatArgUsage, usageJson } from './game-usage.js';
import { fetchHistory } from './match-record.js';
import { fetchRatings, formatRatingsTable, noRatingsText } from './ratings-table.js';
import { noSuchGame, noSuchMatch, refused } from './refusals.js';
import { packageVersion } from './version.js';
import { arenaCommand } from './coco-arena.js';
import { fetchArenaBoard, formatArenaTable } from './arena-table.js';
import { qtpEngineMain } from '../games/quoridor/qtp-engine-main.js';
import { uciMain } from '../games/chess/uci-main.js';

const DEFAULT_SERVER = 'ws://127.0.0.1:8088/';

const HELP = `coco: the Code Colosseum client

Usage: coco [-s URL] COMMAND [options]

  -s, --server-url URL   server to talk to (default ${DEFAULT_SERVER})
  -V, --version          print coco's version

Commands:
  list [GAME] [-u]       list the games, or print GAME's description (markdown) and
                         its arguments (hint, default, example); -u prints the games'
                         arguments (name, description, regex, hint, example, default) as JSON
  lobby                  show waiting and running matches
  new GAME [NAME]        create a match and print its id
      -n, --players N        number of players (default: the game's)
      -b, --bots N           number of server bots (default 0)
      -t, --timeout SECONDS  player inactivity timeout (default: the game's)
      -p, --password PW      password to join
      -v, --verification PW  server master password: create a verified match
      -a, --arg KEY=VALUE    game argument (repeatable)
  delete ID              remove waiting match ID from the lobby: one made from this
                         address (as coco new made it), or any with the master password
      -v, --verification PW  server master password
  connect ID [-- PROGRAM [ARGS...]]
                         join match ID with PROGRAM (or this terminal when none)
      -s, --spectate         watch instead of playing (no name or password needed)
      -n, --name NAME        player name (default: your user name and a random suffix)
      -p, --password PW      the match's password
      --token-file FILE      the token of a claimed name (else COCO_TOKEN, else the one
                             coco register kept for this server and name)
      -c, --channel KIND     stdio (default) or pipe (COCO_PIPEIN / COCO_PIPEOUT)
      --restart-per-game     for QTP engines (quoridor): a fresh PROGRAM for each game, as
                             the course's referee runs engines; an engine that crashed or
                             did not answer in time loses that game only, not the match
      --answer-within SECONDS
                             with --restart-per-game: stop an engine that takes longer to
                             answer (default: the match's timeout less a margin)
                         PROGRAM runs in a process group of its own: when coco leaves (the
                         match ended, the connection was lost, SIGINT, SIGTERM, SIGHUP) it
                         ends the group (SIGTERM, SIGKILL 2 s later) and all it started.
                         At the end it prints the result: "> match ended: you won 1-0 (...)"
                         (just "> match ended" from a server without this one's history API;
                         "> match ended: no result (server shutdown)" from one that stopped;
                         "> match ended: cut off (...)" from a node of a cluster that stopped
                         while the match went on on another node, without this player).
                         Options after -- are PROGRAM's own (-- ./bot --help passes --help on).
${REGISTER_HELP}  arena GAME [-- PROGRAM [ARGS...]]
                         queue PROGRAM in the server's arena of GAME: it is paired by
                         rating with other programs (and the server's anchors) for rated
                         games, one fresh PROGRAM per game; one line per finished game
                         with the running score. Ctrl-C leaves the queue once the games
                         in progress are over (a second Ctrl-C stops them). docs/arena.md
      -n, --name NAME        player name (default: your user name and a random suffix)
      --concurrency K        games at once (default 1)
      --games N              leave after N games (default: until Ctrl-C)
      --token-file FILE      the claimed name's token (or COCO_TOKEN in the environment)
${TOURNAMENT_HELP}  stop-tournament ID -v PASSWORD
                         stop the server tournament ID now (its running matches end
                         unfinished); the server's verification password is needed
  history [ID]           list finished matches, newest first, or print the spectator stream of ID
      --json                 the list as JSON
      --limit N              the newest N (this server's default 100, at most 1000)
  ratings GAME           the game's leaderboard: OpenSkill ratings from verified matches,
                         best first (rank, player, rating = mu - 3 sigma, mu, sigma, games)
      --arena                the arena's leaderboard instead (with wins, draws, losses)
      --json                 the board as JSON
      --limit N              the top N (this server's default 100, at most 1000)
  qtp-engine [--time SECONDS]
                         run the built-in Quoridor engine on stdin/stdout (Quoridor Text
                         Protocol), for any QTP controller or: coco connect ID -- coco qtp-engine
  uci [--movetime MS] [--option NAME=VALUE] -- ENGINE [ARGS...]
                         play chess with a UCI engine on stdin/stdout:
                         coco connect ID -- coco uci -- stockfish

Status lines start with "> ". Errors are one line on stderr and the exit status is not 0.

${EXIT_HELP}`;

/**
 * Aborted with the signal's name when coco is told to leave. Handling these signals (rather than
 * dying at once) lets `coco connect` end its program first: the program runs in a process group
 * of its own, so neither the terminal nor a supervisor would reach it.
 */
const leaving = new AbortController();
/** Set by `connect`, which outlives a closed stdout: its program must still be ended. */
let connecting = false;
const LEAVING_SIGNALS = ['SIGINT', 'SIGTERM', 'SIGHUP'] as const;

/** Only `connect` has something to end first; the other commands die at a signal as usual. */
function handleLeavingSignals(): void {
  for (const name of LEAVING_SIGNALS) process.on(name, () => leaving.abort(name));
}

/** A connection for one command; a server that cannot be reached or hangs up ends it with status 4. */
async function withClient<T>(url: string, work: (client: CocoClient) => Promise<T>): Promise<T> {
  let client: CocoClient;
  try {
    client = await CocoClient.connect(url);
  } catch (error) {
    throw new CliError(`${error instanceof Error ? error.message : String(error)} (is cocod running there? -s URL picks the server)`, EXIT.connection);
  }
  try {
    return await work(client);
  } catch (error) {
    if (client.closedBecause !== '' && !(error instanceof CliError)) throw new CliError(client.closedBecause, EXIT.connection);
    throw error;
  } finally {
    client.close();
  }
}

type OptionsConfig = NonNullable<ParseArgsConfig['options']>;

function parse<O extends OptionsConfig>(args: string[], options: O) {
  try {
    return parseArgs({ args, options, allowPositionals: true, strict: true });
  } catch (error) {
    throw new UsageError(error instanceof Error ? error.message : String(error));
  }
}

async function list(url: string, args: string[]): Promise<void> {
  const { values, positionals } = parse(args, { usage: { type: 'boolean', short: 'u' } });
  const [game, ...extra] = positionals;
  if (extra.length) throw new UsageError(`unexpected arguments: ${extra.join(' ')}`);
  await withClient(url, async (client) => {
    if (values.usage) {
      const { games } = await client.request({ type: 'GameList' }, 'GameList');
      const chosen = game === undefined ? games : games.filter((g) => g.name === game);
      if (game !== undefined && chosen.length === 0) throw noSuchGame(game);
      const described = await fetchGameArgs(url);
      const usage = Object.fromEntries(chosen.map((g) => [g.name, usageJson(g, described?.find((d) => d.name === g.name))]));
      process.stdout.write(`${JSON.stringify(game === undefined ? usage : usage[game], null, 2)}\n`);
    } else if (game !== undefined) {
      const { description } = await client.request({ type: 'GameDescription', name: game }, 'GameDescription');
      if (description === null) throw noSuchGame(game);
      const described = (await fetchGameArgs(url))?.find((d) => d.name === game);
      const listed = described ? undefined : (await client.request({ type: 'GameList' }, 'GameList')).games.find((g) => g.name === game);
      const args = formatArgUsage(game, listed, described);
      process.stdout.write(`${description.endsWith('\n') ? description : `${description}\n`}${args === '' ? '' : `\n${args}`}`);
    } else {
      const { games } = await client.request({ type: 'GameList' }, 'GameList');
      for (const entry of games) process.stdout.write(`- ${entry.name}\n`);
    }
  });
}

async function lobby(url: string, args: string[]): Promise<void> {
  const { positionals } = parse(args, {});
  if (positionals.length) throw new UsageError(`unexpected arguments: ${positionals.join(' ')}`);
  const { info } = await withClient(url, (client) => client.request({ type: 'LobbyList' }, 'LobbyList'));
  process.stdout.write(`${formatLobbyTable(info, Date.now() / 1000)}\n`);
}

function count(text: string | undefined, what: string): number | null {
  if (text === undefined) return null;
  if (!/^\d+$/.test(text)) throw new UsageError(`${what} must be a whole number, not "${text}"`);
  return Number(text);
}

async function create(url: string, args: string[]): Promise<void> {
  const { values, positionals } = parse(args, {
    players: { type: 'string', short: 'n' },
    bots: { type: 'string', short: 'b' },
    timeout: { type: 'string', short: 't' },
    password: { type: 'string', short: 'p' },
    verification: { type: 'string', short: 'v' },
    arg: { type: 'string', short: 'a', multiple: true },
  });
  const [game, name, ...extra] = positionals;
  if (game === undefined) throw new UsageError('new needs the name of a game (see coco list)');
  if (extra.length) throw new UsageError(`unexpected arguments: ${extra.join(' ')}`);
  const gameArgs = parseGameArgs((values.arg as string[] | undefined) ?? []);
  const timeoutText = values.timeout as string | undefined;
  const timeout = timeoutText === undefined ? null : Number(timeoutText);
  if (timeout !== null && !Number.isFinite(timeout)) throw new UsageError(`timeout must be a number, not "${timeoutText}"`);
  const reply = await withClient(url, (client) =>
    client.request(
      {
        type: 'GameNew',
        name: name ?? game,
        game,
        params: { players: count(values.players as string | undefined, 'players'), bots: count(values.bots as string | undefined, 'bots') ?? 0, timeout },
        args: gameArgs,
        password: (values.password as string | undefined) ?? null,
        verification: (values.verification as string | undefined) ?? null,
      },
      'GameNew',
    ),
  );
  if ('Err' in reply.id) throw reply.id.Err === 'Game not found' ? noSuchGame(game) : refused(reply.id.Err);
  process.stdout.write(`${reply.id.Ok}\n`);
}

async function remove(url: string, args: string[]): Promise<void> {
  const { values, positionals } = parse(args, { verification: { type: 'string', short: 'v' } });
  const [id, ...extra] = positionals;
  if (id === undefined) throw new UsageError('delete needs a match id (see coco lobby)');
  if (extra.length) throw new UsageError(`unexpected arguments: ${extra.join(' ')}`);
  const deleted = await withClient(url, (client) => deleteMatch(client, id, (values.verification as string | undefined) ?? null));
  process.stdout.write(`match ${deleted} deleted\n`);
}

function defaultPlayerName(): string {
  let user = 'player';
  try {
    user = userInfo().username.replace(/[^\x21-\x23\x25-\x7e]/g, '').slice(0, 11) || 'player';
  } catch {
    // no user database entry: keep the generic name
  }
  return `${user}-${randomBytes(2).toString('hex')}`;
}

async function connect(url: string, args: string[]): Promise<number> {
  const split = args.indexOf('--');
  const own = split === -1 ? args : args.slice(0, split);
  const program = split === -1 ? [] : args.slice(split + 1);
  const { values, positionals } = parse(own, {
    spectate: { type: 'boolean', short: 's' },
    name: { type: 'string', short: 'n' },
    password: { type: 'string', short: 'p' },
    channel: { type: 'string', short: 'c', default: 'stdio' },
    'restart-per-game': { type: 'boolean' },
    'answer-within': { type: 'string' },
    'token-file': { type: 'string' },
  });
  const [id, ...rest] = positionals;
  if (id === undefined) throw new UsageError('connect needs a match id (see coco lobby)');
  const tokenFile = values['token-file'] as string | undefined;
  if (tokenFile !== undefined && values.spectate === true) throw new UsageError('--token-file goes with a seat to play, not with -s');
  const argv = [...rest, ...program];
  const channel = values.channel as string;
  if (channel !== 'stdio' && channel !== 'pipe') throw new UsageError(`channel must be stdio or pipe, not "${channel}"`);
  if (channel === 'pipe' && argv.length === 0) throw new UsageError('the pipe channel needs a program');
  const restartPerGame = values['restart-per-game'] === true;
  if (restartPerGame && (argv.length === 0 || values.spectate === true)) throw new UsageError('--restart-per-game needs a program, and a seat to play');
  const answerText = values['answer-within'] as string | undefined;
  const answerWithin = answerText === undefined ? undefined : Number(answerText);
  if (answerWithin !== undefined && !(answerWithin > 0 && Number.isFinite(answerWithin))) throw new UsageError(`--answer-within takes seconds, not "${answerText}"`);
  if (answerWithin !== undefined && !restartPerGame) throw new UsageError('--answer-within goes with --restart-per-game');
  const name = (values.name as string | undefined) ?? defaultPlayerName();
  // Sent with the join only when there is one: a join without it is the reference client's.
  const token = values.spectate === true ? undefined : await readToken(url, name, tokenFile);
  handleLeavingSignals();
  connecting = true;
  return connectProgram({
    url,
    id,
    spectate: values.spectate === true,
    name,
    password: (values.password as string | undefined) ?? null,
    token: token ?? null,
    channel,
    program: argv,
    restartPerGame,
    ...(answerWithin !== undefined ? { answerWithin } : {}),
    status: (line) => {
      if (!stdoutGone) process.stdout.write(`> ${line}\n`);
    },
    signal: leaving.signal,
  });
}

/** The token of `name` for `url` (token-store.ts); a token file that cannot be read ends coco with status 1. */
async function readToken(url: string, name: string, tokenFile: string | undefined): Promise<string | undefined> {
  try {
    return await loadToken(url, name, tokenFile === undefined ? {} : { tokenFile });
  } catch (error) {
    throw new CliError(`cannot read the token: ${error instanceof Error ? error.message : String(error)}`, EXIT.error);
  }
}

async function registerName(url: string, args: string[]): Promise<void> {
  const { values, positionals } = parse(args, {
    rotate: { type: 'boolean' },
    release: { type: 'boolean' },
    verification: { type: 'string', short: 'v' },
    'token-file': { type: 'string' },
  });
  const [name, ...extra] = positionals;
  if (name === undefined) throw new UsageError('register needs the name to claim');
  if (extra.length) throw new UsageError(`unexpected arguments: ${extra.join(' ')}`);
  if (values.rotate && values.release) throw new UsageError('--rotate and --release do not go together');
  const mode = values.rotate ? 'rotate' : values.release ? 'release' : 'register';
  if (mode === 'release' && values.verification === undefined) throw new UsageError("--release needs the server's master password (-v PASSWORD)");
  if (mode !== 'release' && values.verification !== undefined) throw new UsageError('-v goes with --release');
  const tokenFile = values['token-file'] as string | undefined;
  await withClient(url, (client) =>
    register(client, {
      url,
      name,
      mode,
      ...(values.verification !== undefined && { verification: values.verification as string }),
      ...(tokenFile !== undefined && { tokenFile }),
      status: (line) => process.stdout.write(`> ${line}\n`),
    }),
  );
}

async function history(url: string, args: string[]): Promise<void> {
  const { values, positionals } = parse(args, { json: { type: 'boolean' }, limit: { type: 'string' } });
  const limit = count(values.limit as string | undefined, '--limit') ?? undefined;
  const [id, ...extra] = positionals;
  if (extra.length) throw new UsageError(`unexpected arguments: ${extra.join(' ')}`);
  if (id !== undefined && (values.json || limit !== undefined)) throw new UsageError('--json and --limit go with the list of matches, not with an id');
  if (id === undefined) {
    // This server's HTTP API has the details; the reference server has only the ids.
    const found = await fetchHistory(url, limit);
    if (found.kind === 'unavailable') throw unavailable(found.why);
    if (found.kind === 'found') {
      process.stdout.write(values.json ? `${JSON.stringify(found.value, null, 2)}\n` : `${formatHistoryTable(found.value)}\n`);
      return;
    }
  }
  await withClient(url, async (client) => {
    if (id === undefined) {
      const { ids } = await client.request({ type: 'HistoryMatchList' }, 'HistoryMatchList');
      const shown = limit === undefined ? ids : ids.slice(0, limit);
      if (values.json) process.stdout.write(`${JSON.stringify(shown.map((matchId) => ({ id: matchId })), null, 2)}\n`);
      else for (const matchId of shown) process.stdout.write(`${matchId}\n`);
      return;
    }
    const outcome = await client.historyMatch(id);
    if ('Ok' in outcome) {
      process.stdout.write(withFinalNewline(outcome.Ok.history));
      return;
    }
    if (outcome.Err === 'InvalidID') throw new CliError(`"${id}" is not a match id: an id is letters and digits only`, EXIT.error);
    if (outcome.Err !== 'FileNotFound') throw new CliError(`cannot read match "${id}": ${outcome.Err}`, EXIT.error);
    // Not finished: say so when it is in the lobby still, as every command says it.
    const { info } = await client.request({ type: 'LobbyList' }, 'LobbyList');
    if (info.some((match) => match.id === id)) throw new CliError(`match "${id}" has not ended yet (watch it with coco connect -s ${id})`, EXIT.refused);
    throw noSuchMatch(id);
  });
}

/** The server said it cannot answer for now (a 503 of its API, with its reason). */
function unavailable(why: string): CliError {
  return new CliError(`the server cannot answer for now: ${why}`, EXIT.error);
}

async function stopTournament(url: string, args: string[]): Promise<void> {
  const { values, positionals } = parse(args, { verification: { type: 'string', short: 'v' } });
  const [id, ...extra] = positionals;
  if (id === undefined) throw new UsageError('stop-tournament needs the id of a server tournament');
  if (extra.length) throw new UsageError(`unexpected arguments: ${extra.join(' ')}`);
  if (values.verification === undefined) throw new UsageError('stop-tournament needs the server\'s verification password (-v PASSWORD)');
  await stopServerTournament(url, id, values.verification as string, (text) => process.stdout.write(text));
}

async function ratings(url: string, args: string[]): Promise<void> {
  const { values, positionals } = parse(args, { json: { type: 'boolean' }, limit: { type: 'string' }, arena: { type: 'boolean' } });
  const limit = count(values.limit as string | undefined, '--limit') ?? undefined;
  const [game, ...extra] = positionals;
  if (game === undefined) throw new UsageError('ratings needs a game (see coco list)');
  if (extra.length) throw new UsageError(`unexpected arguments: ${extra.join(' ')}`);
  if (values.arena) {
    const board = await fetchArenaBoard(url, game, limit);
    if (board.kind === 'missing') throw new CliError(`this server has no arena for "${game}" (see coco list)`, EXIT.refused);
    if (board.kind === 'unavailable') throw unavailable(board.why);
    if (board.kind === 'no-api') throw new CliError('this server has no arena (its HTTP API has no /api/arena/)', EXIT.error);
    if (values.json) process.stdout.write(`${JSON.stringify(board.value, null, 2)}\n`);
    else process.stdout.write(`${board.value.length === 0 ? `nobody has played in the arena of ${game} yet (coco arena ${game} -- PROGRAM)` : formatArenaTable(board.value)}\n`);
    return;
  }
  const found = await fetchRatings(url, game, limit);
  if (found.kind === 'missing') throw noSuchGame(game);
  if (found.kind === 'unavailable') throw unavailable(found.why);
  if (found.kind === 'no-api') throw new CliError('this server has no ratings (its HTTP API has no /api/ratings/)', EXIT.error);
  if (values.json) process.stdout.write(`${JSON.stringify(found.value, null, 2)}\n`);
  else process.stdout.write(`${found.value.length === 0 ? noRatingsText(game) : formatRatingsTable(found.value)}\n`);
}

/** What `-s` may be: the WebSocket client also takes http(s) addresses and upgrades them. */
function isServerUrl(text: string): boolean {
  try {
    return ['ws:', 'wss:', 'http:', 'https:'].includes(new URL(text).protocol);
  } catch {
    return false;
  }
}

/**
 * The claimed name's token: --token-file's first line, else COCO_TOKEN.
 * (The integration with src/cli/token-store.ts reads the stored token per server and name too.)
 */
/** `coco arena`: the first signal leaves the queue after the games in progress, a second stops them. */
async function arena(url: string, args: string[]): Promise<number> {
  const split = args.indexOf('--');
  const own = split === -1 ? args : args.slice(0, split);
  const program = split === -1 ? [] : args.slice(split + 1);
  const { values, positionals } = parse(own, {
    name: { type: 'string', short: 'n' },
    concurrency: { type: 'string' },
    games: { type: 'string' },
    'token-file': { type: 'string' },
  });
  const [game, ...rest] = positionals;
  if (game === undefined) throw new UsageError('arena needs a game (see coco list)');
  const argv = [...rest, ...program];
  if (argv.length === 0) throw new UsageError('arena needs a program: coco arena GAME -- PROGRAM [ARGS...] (one is started for each game)');
  const concurrency = count(values.concurrency as string | undefined, '--concurrency') ?? 1;
  if (concurrency < 1) throw new UsageError('--concurrency takes a number of at least 1');
  const games = count(values.games as string | undefined, '--games');
  if (games !== null && games < 1) throw new UsageError('--games takes a number of at least 1');
  const stop = new AbortController();
  for (const name of LEAVING_SIGNALS) {
    process.on(name, () => {
      if (leaving.signal.aborted) stop.abort(name);
      else leaving.abort(name);
    });
  }
  connecting = true;
  const name = (values.name as string | undefined) ?? defaultPlayerName();
  return arenaCommand({
    url,
    game,
    name,
    token: await readToken(url, name, values['token-file'] as string | undefined),
    concurrency,
    games,
    program: argv,
    write: (text) => {
      if (!stdoutGone) process.stdout.write(text);
    },
    leave: leaving.signal,
    stop: stop.signal,
  });
}

async function main(argv: string[]): Promise<number> {
  let url = DEFAULT_SERVER;
  let i = 0;
  for (; i < argv.length; i++) {
    const arg = argv[i]!;
    if (arg === '-s' || arg === '--server-url') {
      const value = argv[++i];
      if (value === undefined) throw new UsageError(`${arg} needs a URL`);
      url = value;
    } else if (arg.startsWith('--server-url=')) url = arg.slice('--server-url='.length);
    else if (arg === '-h' || arg === '--help') {
      process.stdout.write(HELP);
      return 0;
    } else if (arg === '-V' || arg === '--version') {
      process.stdout.write(`coco ${packageVersion()}\n`);
      return 0;
    } else break;
  }
  const [command, ...rest] = argv.slice(i);
  if (!isServerUrl(url)) throw new UsageError(`-s takes a WebSocket address such as ${DEFAULT_SERVER}, not "${url}"`);
  // The engine speaks QTP on stdin/stdout and takes its own options.
  if (command === 'qtp-engine') {
    await qtpEngineMain(rest);
    return 0;
  }
  // The bridge speaks the chess stream on stdin/stdout; what follows -- is the engine's own.
  if (command === 'uci') return uciMain(rest);
  // After `--` the words are the program's own: `-- ./bot --help` asks the bot, not coco.
  const split = rest.indexOf('--');
  const own = split === -1 ? rest : rest.slice(0, split);
  if (own.includes('-h') || own.includes('--help')) {
    process.stdout.write(HELP);
    return 0;
  }
  switch (command) {
    case 'list':
      await list(url, rest);
      return 0;
    case 'lobby':
      await lobby(url, rest);
      return 0;
    case 'new':
      await create(url, rest);
      return 0;
    case 'delete':
      await remove(url, rest);
      return 0;
    case 'connect':
      return connect(url, rest);
    case 'history':
      await history(url, rest);
      return 0;
    case 'arena':
      return arena(url, rest);
    case 'ratings':
      await ratings(url, rest);
      return 0;
    case 'stop-tournament':
      await stopTournament(url, rest);
      return 0;
    case 'register':
      await registerName(url, rest);
      return 0;
    case 'tournament':
      // Like connect, it has programs to end first when told to leave.
      handleLeavingSignals();
      connecting = true;
      return tournament(url, rest, {
        write: (text) => {
          if (!stdoutGone) process.stdout.write(text);
        },
        tty: process.stdout.isTTY === true,
        signal: leaving.signal,
      });
    case undefined:
      throw new UsageError('a command is needed');
    default:
      throw new UsageError(`unknown command "${command}"`);
  }
}

/** One line on stderr, whatever went wrong: a stack trace is for coco's developers, not its users. */
function report(error: unknown): number {
  const message = error instanceof Error ? error.message : String(error);
  const firstLine = message.split('\n', 1)[0];
  process.stderr.write(`coco: ${firstLine}${error instanceof UsageError ? ' (coco --help shows the usage)' : ''}\n`);
  return error instanceof CliError ? error.status : EXIT.error;
}

// A reader that stops early (`coco history | head`) is no error: coco stops writing, silently.
// `connect` goes on (its program still has to be ended): only its status lines are lost.
let stdoutGone = false;
process.stdout.on('error', (error: NodeJS.ErrnoException) => {
  if (error.code !== 'EPIPE' && !stdoutGone) process.exit(report(error));
  stdoutGone = true;
  if (!connecting) process.exit(EXIT.ok);
});
process.on('uncaughtException', (error) => process.exit(report(error)));

main(process.argv.slice(2)).then(
  (code) => {
    process.exitCode = code;
    // After a signal nothing may keep coco waiting: what it started is stopped by now.
    if (leaving.signal.aborted) process.exit(code);
  },
  (error: unknown) => {
    process.exitCode = report(error);
    if (leaving.signal.aborted) process.exit(128 + signalNumber(leaving.signal.reason));
  },
);

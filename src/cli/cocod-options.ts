import { parseArgs } from 'node:util';
import type { CocodOptions } from '../app/cocod-app.js';
import { DEFAULT_HARD_TIMEOUT, DEFAULT_SOFT_TIMEOUT } from '../games/hase-und-igel/hase-und-igel.js';
import { resolveLimits } from '../gateways/server-limits.js';
import { checkRedisUrl } from '../cluster/redis-url.js';
import { TrustedProxies } from '../gateways/trusted-proxies.js';
import { isPostgresUrl } from '../store/postgres-connection.js';
import { err, ok, type Result } from '../util/result.js';

export const COCOD_HELP = `cocod: the Code Colosseum server

Usage: cocod [options]
       cocod migrate-history --from FILE.sqlite --to postgres://...   (docs/postgres.md)

Options:
  -b, --bind-address ADDR           address to listen on (default 127.0.0.1)
  -p, --listen-port PORT            port for WebSocket and HTTP (default 8088)
  -v, --verification-password PW    master password for verified matches (default: the
                                    file or environment variable below, else a random one,
                                    logged once); a flag shows in the process list: prefer
      --verification-password-file FILE   the first line of FILE, or
                                    COCOD_VERIFICATION_PASSWORD in the environment
  -d, --database FILE               SQLite file of the match history (default cocod.sqlite;
                                    ':memory:' keeps none)
      --postgres URL                keep the history in PostgreSQL instead (postgres://USER
                                    [:PASSWORD]@HOST[:PORT]/DATABASE; or COCOD_POSTGRES in
                                    the environment, which keeps a password out of the
                                    process list); see docs/postgres.md
      --expiry SECONDS              lifetime of a waiting match (default 600; the same as
                                    --limit match-expiry-seconds=SECONDS)
      --games DIR                   register the external games (and bot programs) in
                                    DIR, one folder each with a game.json
      --clobber-port PORT           also serve the 2006 Clobber tournament protocol on
                                    this TCP port (off unless given)
      --socha-port PORT             also serve the Software-Challenge 2018 protocol (Hase und
                                    Igel) on this TCP port (off unless given; the real
                                    server used 13050)
      --socha-password PW           administrator passphrase of that port (without one,
      --socha-password-file FILE    authenticate is refused); or COCOD_SOCHA_PASSWORD
      --socha-soft-timeout SECONDS  soft time limit of a move on that port (default 2)
      --socha-hard-timeout SECONDS  hard time limit of a move on that port (default 10)
      --nodes N                     run N node processes sharing the ports, one lobby and
                                    one history ('auto': one per core; default 1); see
                                    docs/nodes.md
      --redis URL                   join a cluster of nodes on several machines sharing one
                                    lobby through Redis (redis://[:PASSWORD@]HOST[:PORT][/DB],
                                    or COCOD_REDIS in the environment); needs --postgres;
                                    see docs/deployment.md
      --trusted-proxy ADDR[,ADDR...]
                                    balancers and proxies (addresses, or CIDR ranges such
                                    as 10.0.0.0/24) whose connections may name the client
                                    they relay (or COCOD_TRUSTED_PROXY): X-Forwarded-For on
                                    HTTP and WebSocket requests; nobody else's is read
      --proxy-protocol              connections from those start with a PROXY protocol v1 or
                                    v2 preamble (HAProxy send-proxy-v2) on every TCP port;
                                    the per-address limits and logs use the client it names
                                    (docs/deployment.md)
      --arena-arg GAME:KEY=VALUE    a game argument every arena match of GAME has (its time
                                    control, its rounds; repeatable); see docs/arena.md
      --arena-anchors GAME[:BOT][,GAME[:BOT]...]
                                    queue the server bot of each GAME (or its named bot
                                    BOT, one of the game's bots) in its arena as an anchor
                                    of fixed strength (arena-anchor-games at once)
      --limit NAME=VALUE            change one limit on peers (repeatable); every limit,
                                    its default and meaning: docs/limits.md
      --config FILE                 a JSON file of options: {"limits": {NAME: VALUE, ...}}
                                    and any long option above by name; flags win
  -h, --help                        this text
      --version                     print cocod's version
`;

const OPTIONS = {
  'bind-address': { type: 'string', short: 'b' },
  'listen-port': { type: 'string', short: 'p' },
  'verification-password': { type: 'string', short: 'v' },
  'verification-password-file': { type: 'string' },
  database: { type: 'string', short: 'd' },
  postgres: { type: 'string' },
  expiry: { type: 'string' },
  'clobber-port': { type: 'string' },
  'socha-port': { type: 'string' },
  'socha-password': { type: 'string' },
  'socha-password-file': { type: 'string' },
  'socha-soft-timeout': { type: 'string' },
  'socha-hard-timeout': { type: 'string' },
  games: { type: 'string' },
  nodes: { type: 'string' },
  redis: { type: 'string' },
  'trusted-proxy': { type: 'string' },
  'proxy-protocol': { type: 'boolean' },
  limit: { type: 'string', multiple: true },
  'arena-arg': { type: 'string', multiple: true },
  'arena-anchors': { type: 'string' },
  config: { type: 'string' },
  help: { type: 'boolean', short: 'h' },
  version: { type: 'boolean' },
} as const;

type StringOption = Exclude<keyof typeof OPTIONS, 'limit' | 'arena-arg' | 'help' | 'version' | 'config' | 'proxy-protocol'>;

/** What the command line, the config file and the environment make of the server's options. */
export type CocodCommand =
  | { readonly kind: 'help' }
  | { readonly kind: 'version' }
  /** `nodes`: how many node processes (1: this process is the server). */
  | { readonly kind: 'run'; readonly options: Omit<CocodOptions, 'log'>; readonly nodes: number };

/** The most node processes `--nodes` accepts: more than a machine's cores only costs memory. */
export const MAX_NODES = 64;

export interface OptionSources {
  readonly env: Readonly<Record<string, string | undefined>>;
  /** Reads a file the options name (the config file, a password file). */
  readFile(path: string): string;
}

/** Resolves the options; errors say which option and why, for `cocod: ...` and exit status 2. */
export function resolveCocodOptions(argv: readonly string[], sources: OptionSources & { readonly cores?: number }): Result<CocodCommand> {
  let values;
  try {
    ({ values } = parseArgs({ args: [...argv], options: OPTIONS, strict: true, allowPositionals: false }));
  } catch (error) {
    return err(error instanceof Error ? error.message : String(error));
  }
  if (values.help) return ok({ kind: 'help' });
  if (values.version) return ok({ kind: 'version' });
  const config = readConfig(values.config, sources);
  if (!config.ok) return config;
  const option = (name: StringOption): string | undefined => {
    const flag = values[name];
    if (typeof flag === 'string') return flag;
    const entry = config.value[name];
    return entry === undefined || entry === null ? undefined : String(entry);
  };

  const port = parsePort('--listen-port', option('listen-port') ?? '8088');
  if (!port.ok) return port;
  const limitOverrides: Record<string, unknown> = { ...(config.value.limits as Record<string, unknown> | undefined) };
  const expiry = option('expiry');
  if (expiry !== undefined) limitOverrides['match-expiry-seconds'] = expiry;
  for (const entry of values.limit ?? []) {
    const eq = entry.indexOf('=');
    if (eq <= 0) return err(`--limit takes NAME=VALUE, not "${entry}"`);
    limitOverrides[entry.slice(0, eq)] = entry.slice(eq + 1);
  }
  const limits = resolveLimits(limitOverrides);
  if (!limits.ok) return limits;

  const verification = secret(option('verification-password'), option('verification-password-file'), 'COCOD_VERIFICATION_PASSWORD', '--verification-password', sources);
  if (!verification.ok) return verification;
  const sochaPassword = secret(option('socha-password'), option('socha-password-file'), 'COCOD_SOCHA_PASSWORD', '--socha-password', sources);
  if (!sochaPassword.ok) return sochaPassword;

  const clobber = optionalPort('--clobber-port', option('clobber-port'));
  if (!clobber.ok) return clobber;
  const clobberPort = clobber.value;
  const socha = optionalPort('--socha-port', option('socha-port'));
  if (!socha.ok) return socha;
  const sochaPort = socha.value;
  const soft = parseSeconds('--socha-soft-timeout', option('socha-soft-timeout'), DEFAULT_SOFT_TIMEOUT, 0.001, 300);
  if (!soft.ok) return soft;
  const hard = parseSeconds('--socha-hard-timeout', option('socha-hard-timeout'), DEFAULT_HARD_TIMEOUT, 0.1, 600);
  if (!hard.ok) return hard;
  const postgres = option('postgres') ?? (sources.env['COCOD_POSTGRES'] || undefined);
  // The URL may hold a password: an error names the option, never echoes its value.
  if (postgres !== undefined && !isPostgresUrl(postgres)) return err('invalid --postgres URL (postgres://USER[:PASSWORD]@HOST[:PORT]/DATABASE)');
  if (postgres !== undefined && option('database') !== undefined) return err('give --database or --postgres, not both');
  const games = option('games');
  const nodes = parseNodes(option('nodes'), sources.cores ?? 1);
  if (!nodes.ok) return nodes;
  const redisText = option('redis') ?? sources.env['COCOD_REDIS'];
  const redis = redisText === undefined || redisText === '' ? undefined : redisText;
  if (redis !== undefined) {
    const wrong = checkRedisUrl(redis);
    if (wrong) return err(wrong);
  }
  // Nodes on several machines must record into one history: a dead node's matches are recorded by
  // a survivor, and a player's result is read from whichever node it is connected to.
  if (redis !== undefined && postgres === undefined) return err('--redis needs --postgres URL: the nodes of a cluster share one history (docs/deployment.md)');
  const trustedProxy = option('trusted-proxy') ?? (sources.env['COCOD_TRUSTED_PROXY'] || undefined);
  if (trustedProxy !== undefined) {
    const parsed = TrustedProxies.parse(trustedProxy);
    if (!parsed.ok) return parsed;
  }
  const proxyProtocolEntry = config.value['proxy-protocol'];
  if (proxyProtocolEntry !== undefined && typeof proxyProtocolEntry !== 'boolean') return err('config file: "proxy-protocol" must be true or false');
  const proxyProtocol = values['proxy-protocol'] ?? proxyProtocolEntry ?? false;
  // Without a trusted balancer a preamble could only come from a client naming itself.
  if (proxyProtocol && trustedProxy === undefined) return err('--proxy-protocol needs --trusted-proxy ADDR: the balancers whose preambles are believed');
  if (limits.value['arena-lease-refresh-seconds'] >= limits.value['arena-lease-seconds']) {
    return err(`limit "arena-lease-refresh-seconds" must be less than "arena-lease-seconds" (a lease must be renewed before it runs out)`);
  }
  if (limits.value['tournament-lease-refresh-seconds'] >= limits.value['tournament-lease-seconds']) {
    return err(`limit "tournament-lease-refresh-seconds" must be less than "tournament-lease-seconds" (a lease must be renewed before it runs out)`);
  }
  if (limits.value['redis-lease-refresh-seconds'] >= limits.value['redis-lease-seconds']) {
    return err(`limit "redis-lease-refresh-seconds" must be less than "redis-lease-seconds" (a lease must be refreshed before it runs out)`);
  }
  const configArenaArgs = config.value['arena-arg'];
  if (configArenaArgs !== undefined && !(Array.isArray(configArenaArgs) && configArenaArgs.every((a) => typeof a === 'string'))) return err('config file: "arena-arg" must be a list of "GAME:KEY=VALUE" texts');
  const arenaArgs = parseArenaArgs([...((configArenaArgs as string[] | undefined) ?? []), ...(values['arena-arg'] ?? [])]);
  if (!arenaArgs.ok) return arenaArgs;
  const anchors = option('arena-anchors');
  const arenaAnchors = anchors === undefined ? [] : anchors.split(',').map((game) => game.trim()).filter((game) => game !== '');
  return ok({
    kind: 'run',
    nodes: nodes.value,
    options: {
      ...(Object.keys(arenaArgs.value).length > 0 && { arenaArgs: arenaArgs.value }),
      ...(arenaAnchors.length > 0 && { arenaAnchors }),
      ...(clobberPort !== undefined && { clobberPort }),
      ...(sochaPort !== undefined && { sochaPort, sochaPassword: sochaPassword.value, sochaSoftTimeout: soft.value, sochaHardTimeout: hard.value }),
      ...(games !== undefined && { gamesDir: games }),
      ...(redis !== undefined && { redis }),
      ...(trustedProxy !== undefined && { trustedProxy, proxyProtocol }),
      bindAddress: option('bind-address') ?? '127.0.0.1',
      port: port.value,
      verificationPassword: verification.value,
      database: option('database') ?? 'cocod.sqlite',
      ...(postgres !== undefined && { postgres }),
      limits: limits.value,
    },
  });
}

/** `GAME:KEY=VALUE` texts as arguments by game (the games themselves check them when the server starts). */
function parseArenaArgs(entries: readonly string[]): Result<Record<string, Record<string, string>>> {
  const byGame: Record<string, Record<string, string>> = {};
  for (const entry of entries) {
    const parsed = /^([^:=\s]+):([^=\s]+)=(.*)$/.exec(entry);
    if (!parsed) return err(`--arena-arg takes GAME:KEY=VALUE, not "${entry}"`);
    (byGame[parsed[1]!] ??= {})[parsed[2]!] = parsed[3]!;
  }
  return ok(byGame);
}

function parseNodes(text: string | undefined, cores: number): Result<number> {
  if (text === undefined) return ok(1);
  if (text === 'auto') return ok(Math.max(1, Math.min(MAX_NODES, cores)));
  const nodes = Number(text);
  if (!/^\d+$/.test(text) || nodes < 1 || nodes > MAX_NODES) return err(`invalid --nodes "${text}" (a number from 1 to ${MAX_NODES}, or auto)`);
  return ok(nodes);
}

function readConfig(path: string | undefined, sources: OptionSources): Result<Readonly<Record<string, unknown>>> {
  if (path === undefined) return ok({});
  let parsed: unknown;
  try {
    parsed = JSON.parse(sources.readFile(path));
  } catch (error) {
    return err(`config file ${path}: ${error instanceof Error ? error.message : String(error)}`);
  }
  if (typeof parsed !== 'object' || parsed === null || Array.isArray(parsed)) return err(`config file ${path}: not a JSON object`);
  for (const key of Object.keys(parsed)) {
    if (key !== 'limits' && (!Object.hasOwn(OPTIONS, key) || key === 'config' || key === 'help' || key === 'version' || key === 'limit')) return err(`config file ${path}: unknown option "${key}"`);
  }
  const limits = (parsed as Record<string, unknown>).limits;
  if (limits !== undefined && (typeof limits !== 'object' || limits === null || Array.isArray(limits))) return err(`config file ${path}: "limits" must be an object`);
  return ok(parsed as Record<string, unknown>);
}

/**
 * A password from its flag, its file (first line) or the environment, in that order; one source
 * only among flag and file. Null when none is given.
 */
function secret(flag: string | undefined, file: string | undefined, envName: string, flagName: string, sources: OptionSources): Result<string | null> {
  if (flag !== undefined && file !== undefined) return err(`give ${flagName} or ${flagName}-file, not both`);
  if (flag !== undefined) return ok(flag);
  if (file !== undefined) {
    let text: string;
    try {
      text = sources.readFile(file);
    } catch (error) {
      return err(`${flagName}-file ${file}: ${error instanceof Error ? error.message : String(error)}`);
    }
    const line = text.split(/\r?\n/)[0] ?? '';
    if (line === '') return err(`${flagName}-file ${file}: the first line is empty`);
    return ok(line);
  }
  const fromEnv = sources.env[envName];
  return ok(fromEnv === undefined || fromEnv === '' ? null : fromEnv);
}

function parsePort(flag: string, text: string): Result<number> {
  const port = Number(text);
  if (!/^\d+$/.test(text) || port > 65535) return err(`invalid ${flag} "${text}"`);
  return ok(port);
}

/** A port that is off unless given. */
function optionalPort(flag: string, text: string | undefined): Result<number | undefined> {
  return text === undefined ? ok(undefined) : parsePort(flag, text);
}

/** A number of seconds in [min, max], as the game arguments take it. */
function parseSeconds(flag: string, text: string | undefined, fallback: number, min: number, max: number): Result<number> {
  if (text === undefined) return ok(fallback);
  const seconds = Number(text);
  if (!/^\d+(\.\d+)?$/.test(text) || seconds < min || seconds > max) return err(`invalid ${flag} "${text}" (seconds from ${min} to ${max})`);
  return ok(seconds);
}

import { chmod, mkdir, readFile, rename, rm, writeFile } from 'node:fs/promises';
import { homedir } from 'node:os';
import { join } from 'node:path';

/**
 * Where coco keeps the tokens of the names it registered (`coco register`): one JSON file per
 * server, `{"NAME": "TOKEN", ...}`, readable by the user alone (0600, in a 0700 folder). A bot on
 * another machine gets its token from `--token-file FILE` (the file holds the token alone) or the
 * environment variable COCO_TOKEN instead.
 */
export const TOKEN_ENV = 'COCO_TOKEN';
/** Overrides the config folder (tests, several identities on one account). */
export const CONFIG_DIR_ENV = 'COCO_CONFIG_DIR';

export interface TokenSource {
  /** A file that holds the token alone (surrounding white space ignored). */
  readonly tokenFile?: string;
  /** The environment (process.env by default): COCO_TOKEN, COCO_CONFIG_DIR, XDG_CONFIG_HOME, APPDATA. */
  readonly env?: NodeJS.ProcessEnv;
}

/** coco's config folder: COCO_CONFIG_DIR, else $XDG_CONFIG_HOME/coco, else %APPDATA%\coco on Windows, else ~/.config/coco. */
export function configDir(env: NodeJS.ProcessEnv = process.env): string {
  if (env[CONFIG_DIR_ENV]) return env[CONFIG_DIR_ENV];
  if (env['XDG_CONFIG_HOME']) return join(env['XDG_CONFIG_HOME'], 'coco');
  if (process.platform === 'win32' && env['APPDATA']) return join(env['APPDATA'], 'coco');
  return join(homedir(), '.config', 'coco');
}

/** One server's file: its URL as written by the URL parser (so `ws://h:8088` and `ws://h:8088/` are one), made safe as a file name. */
export function tokenFilePath(serverUrl: string, env: NodeJS.ProcessEnv = process.env): string {
  let normal = serverUrl;
  try {
    normal = new URL(serverUrl).href;
  } catch {
    // Not a URL: kept as given (coco refuses to connect to it anyway).
  }
  return join(configDir(env), 'tokens', `${encodeURIComponent(normal)}.json`);
}

/**
 * The token to play `name` on `serverUrl` with: the token file when given, else COCO_TOKEN when
 * set, else the one `coco register` kept for that server and name; undefined when there is none
 * (an unclaimed name needs none). A token file that cannot be read is an error, not "no token".
 */
export async function loadToken(serverUrl: string, name: string, opts: { tokenFile?: string; env?: NodeJS.ProcessEnv }): Promise<string | undefined> {
  const env = opts.env ?? process.env;
  if (opts.tokenFile !== undefined) {
    const token = (await readFile(opts.tokenFile, 'utf8')).trim();
    if (token === '') throw new Error(`the token file ${opts.tokenFile} is empty`);
    return token;
  }
  const fromEnv = env[TOKEN_ENV]?.trim();
  if (fromEnv) return fromEnv;
  return (await readKept(tokenFilePath(serverUrl, env)))[name];
}

/**
 * The token `coco register` kept for `name` on `serverUrl` alone (not COCO_TOKEN): for commands
 * that seat several names at once (`coco tournament`), where one variable cannot be each one's.
 */
export async function keptToken(serverUrl: string, name: string, env: NodeJS.ProcessEnv = process.env): Promise<string | undefined> {
  return (await readKept(tokenFilePath(serverUrl, env)))[name];
}

/** Keeps `token` for `name` on `serverUrl` (replacing one kept before); returns where. With a token file, writes the token there instead. */
export async function saveToken(serverUrl: string, name: string, token: string, opts: TokenSource = {}): Promise<string> {
  if (opts.tokenFile !== undefined) {
    await writePrivately(opts.tokenFile, `${token}\n`);
    return opts.tokenFile;
  }
  const file = tokenFilePath(serverUrl, opts.env);
  const kept = await readKept(file);
  kept[name] = token;
  await writePrivately(file, `${JSON.stringify(kept, null, 2)}\n`);
  return file;
}

/** Forgets the token kept for `name` on `serverUrl`; false when none was kept. */
export async function forgetToken(serverUrl: string, name: string, env: NodeJS.ProcessEnv = process.env): Promise<boolean> {
  const file = tokenFilePath(serverUrl, env);
  const kept = await readKept(file);
  if (!Object.hasOwn(kept, name)) return false;
  delete kept[name];
  if (Object.keys(kept).length === 0) await rm(file, { force: true });
  else await writePrivately(file, `${JSON.stringify(kept, null, 2)}\n`);
  return true;
}

async function readKept(file: string): Promise<Record<string, string>> {
  let text: string;
  try {
    text = await readFile(file, 'utf8');
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return Object.create(null) as Record<string, string>;
    throw error;
  }
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch {
    throw new Error(`${file} is not the JSON coco writes (an object of name: token); fix or remove it`);
  }
  if (typeof parsed !== 'object' || parsed === null || Array.isArray(parsed)) throw new Error(`${file} is not the JSON coco writes (an object of name: token); fix or remove it`);
  // No prototype: a player may be named `__proto__` or `toString`.
  const kept: Record<string, string> = Object.create(null) as Record<string, string>;
  for (const [name, token] of Object.entries(parsed)) if (typeof token === 'string') kept[name] = token;
  return kept;
}

/**
 * Writes `text` to `file` readable by the user alone: into a new 0600 file beside it, then renamed
 * over it, so that the secret is never in a file others can read, nor half written. Its folder is
 * made 0700 when coco makes it.
 */
async function writePrivately(file: string, text: string): Promise<void> {
  const dir = join(file, '..');
  await mkdir(dir, { recursive: true, mode: 0o700 });
  const temporary = `${file}.${process.pid}.tmp`;
  try {
    await writeFile(temporary, text, { mode: 0o600 });
    // The mode given to writeFile is filtered by the umask: set it again, exactly.
    await chmod(temporary, 0o600);
    await rename(temporary, file);
  } catch (error) {
    await rm(temporary, { force: true });
    throw error;
  }
}

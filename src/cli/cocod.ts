#!/usr/bin/env -S node --max-semi-space-size=64
// The flag (also in `npm start`): a busy server keeps each round's promises and buffers for as
// long as a player takes to answer; with V8's default 16 MiB semi-space they outlive a scavenge
// and are copied again and again. 64 MiB cut the time spent in scavenges by 60 % in the benchmark.
import { parseArgs } from 'node:util';
import { startCocod } from '../app/cocod-app.js';
import { pinoLog } from '../util/log.js';
import { DEFAULT_HARD_TIMEOUT, DEFAULT_SOFT_TIMEOUT } from '../games/hase-und-igel/hase-und-igel.js';

const HELP = `cocod: the Code Colosseum server

Usage: cocod [options]

Options:
  -b, --bind-address ADDR           address to listen on (default 127.0.0.1)
  -p, --listen-port PORT            port for WebSocket and HTTP (default 8088)
  -v, --verification-password PW    master password for verified matches
                                    (default: a random one, logged once)
  -d, --database FILE               SQLite file of the match history (default cocod.sqlite;
                                    ':memory:' keeps none)
      --expiry SECONDS              lifetime of a waiting match (default 600)
      --games DIR                   register the external games (and bot programs) in
                                    DIR, one folder each with a game.json
      --clobber-port PORT           also serve the 2006 Clobber tournament protocol on
                                    this TCP port (off unless given)
      --socha-port PORT             also serve the Software-Challenge 2018 protocol (Hase und
                                    Igel) on this TCP port (off unless given; the real
                                    server used 13050)
      --socha-password PW           administrator passphrase of that port (without it,
                                    authenticate is refused)
      --socha-soft-timeout SECONDS  soft time limit of a move on that port (default 2)
      --socha-hard-timeout SECONDS  hard time limit of a move on that port (default 10)
  -h, --help                        this text
`;

const log = pinoLog();

function fail(message: string): never {
  process.stderr.write(`cocod: ${message}\n\n${HELP}`);
  process.exit(2);
}

function parsePort(text: string): number {
  const port = Number(text);
  if (!/^\d+$/.test(text) || port > 65535) fail(`invalid port "${text}"`);
  return port;
}

/** A number of seconds in [min, max], as the game arguments take it. */
function parseSeconds(flag: string, text: string | undefined, fallback: number, min: number, max: number): number {
  if (text === undefined) return fallback;
  const seconds = Number(text);
  if (!/^\d+(\.\d+)?$/.test(text) || seconds < min || seconds > max) fail(`invalid ${flag} "${text}" (seconds from ${min} to ${max})`);
  return seconds;
}

async function main(): Promise<void> {
  let values;
  try {
    ({ values } = parseArgs({
      options: {
        'bind-address': { type: 'string', short: 'b', default: '127.0.0.1' },
        'listen-port': { type: 'string', short: 'p', default: '8088' },
        'verification-password': { type: 'string', short: 'v' },
        database: { type: 'string', short: 'd', default: 'cocod.sqlite' },
        expiry: { type: 'string', default: '600' },
        'clobber-port': { type: 'string' },
        'socha-port': { type: 'string' },
        'socha-password': { type: 'string' },
        'socha-soft-timeout': { type: 'string' },
        'socha-hard-timeout': { type: 'string' },
        games: { type: 'string' },
        help: { type: 'boolean', short: 'h' },
      },
      strict: true,
    }));
  } catch (error) {
    fail(error instanceof Error ? error.message : String(error));
  }
  if (values.help) {
    process.stdout.write(HELP);
    return;
  }
  const port = parsePort(values['listen-port']);
  const expiry = Number(values.expiry);
  if (!(expiry > 0)) fail(`invalid expiry "${values.expiry}"`);
  const clobberPort = values['clobber-port'] === undefined ? undefined : parsePort(values['clobber-port']);
  const sochaPort = values['socha-port'] === undefined ? undefined : parsePort(values['socha-port']);
  const sochaSoftTimeout = parseSeconds('--socha-soft-timeout', values['socha-soft-timeout'], DEFAULT_SOFT_TIMEOUT, 0.001, 300);
  const sochaHardTimeout = parseSeconds('--socha-hard-timeout', values['socha-hard-timeout'], DEFAULT_HARD_TIMEOUT, 0.1, 600);
  const server = await startCocod({
    ...(clobberPort !== undefined && { clobberPort }),
    ...(sochaPort !== undefined && { sochaPort, sochaPassword: values['socha-password'] ?? null, sochaSoftTimeout, sochaHardTimeout }),
    ...(values.games !== undefined && { gamesDir: values.games }),
    bindAddress: values['bind-address'],
    port,
    verificationPassword: values['verification-password'] ?? null,
    database: values.database,
    expirySeconds: expiry,
    log,
  });
  let stopping = false;
  const stop = (signal: string): void => {
    if (stopping) return;
    stopping = true;
    log.info(`${signal}: stopping`);
    server.stop().then(
      () => process.exit(0),
      (error: unknown) => {
        log.error(`error while stopping: ${String(error)}`);
        process.exit(1);
      },
    );
  };
  process.on('SIGINT', () => stop('SIGINT'));
  process.on('SIGTERM', () => stop('SIGTERM'));
}

main().catch((error: unknown) => {
  log.error(`cocod failed: ${error instanceof Error ? error.message : String(error)}`);
  process.exit(1);
});

#!/usr/bin/env node
import { sochaClientMain } from './socha-client.js';

/**
 * The standalone Software-Challenge client as a program:
 * `node dist/src/games/hase-und-igel/socha-client-cli.js [-h HOST] [-p PORT] [-r RESERVATION]`
 * plays one game with the server bot's search and exits 0 (played), 1 (failed) or 2 (bad arguments).
 */
sochaClientMain(process.argv.slice(2)).then(
  (code) => {
    process.exitCode = code;
  },
  (error: unknown) => {
    process.stderr.write(`socha-client failed: ${error instanceof Error ? error.message : String(error)}\n`);
    process.exitCode = 1;
  },
);

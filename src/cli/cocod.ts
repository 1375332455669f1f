#!/usr/bin/env -S node --max-semi-space-size=16
// The flag (also in `npm start`): the young generation's cap, said once here rather than left to
// V8's default of the day. 16 MiB, measured against 64 in the same benchmark on the same machine
// (bench/README.md, "Young generation: 16 or 64 MiB"): no fewer rounds a second or more CPU a
// round, a lower steady p99, and an idle connection or a waiting match no longer leaves behind
// the 64 MiB semi-spaces a burst of them grew (V8 shrinks them only at a full collection).
import { readFileSync } from 'node:fs';
import { availableParallelism } from 'node:os';
import { startPrimary } from '../app/primary.js';
import { DEFAULT_LIMITS } from '../gateways/server-limits.js';
import { startCocod, type StopOptions } from '../app/cocod-app.js';
import { NODE_FAILURE_REASON } from '../cluster/node-failure.js';
import { SHUTDOWN_REASON } from '../lobby/lobby.js';
import { pinoLog } from '../util/log.js';
import { COCOD_HELP, resolveCocodOptions } from './cocod-options.js';
import { startFailure } from './start-failure.js';
import { packageVersion } from './version.js';

const log = pinoLog();

/** A wrong command line: one line on stderr, status 2. */
function fail(message: string): never {
  process.stderr.write(`cocod: ${message.split("\n", 1)[0]} (cocod --help shows the options)\n`);
  process.exit(2);
}

async function main(): Promise<void> {
  if (process.argv[2] === 'migrate-history') {
    // Loaded only for this command: the server itself does not carry the PostgreSQL driver unless it uses it.
    const { runMigrateHistory } = await import('./migrate-history-command.js');
    const status = await runMigrateHistory(process.argv.slice(3), process.env, (line) => process.stdout.write(`${line}\n`), (line) => process.stderr.write(`${line}\n`));
    process.exit(status);
  }
  const command = resolveCocodOptions(process.argv.slice(2), { env: process.env, readFile: (path) => readFileSync(path, 'utf8'), cores: availableParallelism() });
  if (!command.ok) fail(command.error);
  if (command.value.kind === 'help') {
    process.stdout.write(COCOD_HELP);
    return;
  }
  if (command.value.kind === 'version') {
    process.stdout.write(`cocod ${packageVersion()}\n`);
    return;
  }
  const { options, nodes } = command.value;
  let stopping = false;
  // Declared dead by the other nodes (Redis was out of reach longer than a lease): its running
  // matches are already recorded as lost; it stops, and whoever supervises it starts a new node.
  const evicted = (): void => {
    process.exitCode = 1;
    // They end here as that record says, and its players are not waited for (it relays nothing now).
    stop('declared dead by the cluster', { drain: false, reason: NODE_FAILURE_REASON });
  };
  const server = nodes > 1 ? await startPrimary(options, nodes, log) : await startCocod({ ...options, log, onEvicted: evicted });
  function stop(signal: string, how: StopOptions = {}): void {
    if (stopping) return;
    stopping = true;
    const limits = options.limits ?? DEFAULT_LIMITS;
    // The drain (players of other nodes' matches finishing them) comes before the usual stop.
    const seconds = limits['shutdown-seconds'] + (nodes > 1 || options.redis !== undefined ? limits['shutdown-drain-seconds'] : 0);
    // A node of several machines lets its running matches finish first (docs/deployment.md, "Stopping a node").
    const finishFirst = options.redis !== undefined && how.drain !== false ? ` may finish within ${limits['shutdown-drain-seconds']} s, then` : '';
    log.info(`${signal}: stopping (running matches${finishFirst} end as "${how.reason ?? SHUTDOWN_REASON}"; at most ${seconds} s)`);
    // Past the deadline the process exits anyway: a stuck store or peer must not keep it up.
    setTimeout(() => {
      log.error(`stopping took longer than ${seconds} s: exiting now`);
      process.exit(1);
    }, seconds * 1000).unref();
    // A primary stops its nodes, each as a SIGTERM stops it; a single process may be told how.
    ('lobby' in server ? server.stop(how) : server.stop()).then(
      () => {
        log.info('stopped');
        process.exit(process.exitCode ?? 0);
      },
      (error: unknown) => {
        log.error(`error while stopping: ${String(error)}`);
        process.exit(1);
      },
    );
  }
  process.on('SIGINT', () => stop('SIGINT'));
  process.on('SIGTERM', () => stop('SIGTERM'));
}

main().catch((error: unknown) => {
  // Plain text, not a log line: this is what the person who started cocod reads.
  process.stderr.write(`cocod: ${startFailure(error)}\n`);
  process.exit(1);
});

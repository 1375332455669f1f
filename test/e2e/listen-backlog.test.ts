import { afterEach, test } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { startServer, type ServerProcess } from '../support/processes.js';

/**
 * The `listen-backlog` limit reaches the kernel on every door: a listening socket's Send-Q, as
 * `ss` shows it, is its accept queue's length.
 */

const servers: ServerProcess[] = [];
afterEach(async () => {
  await Promise.all(servers.splice(0).map((server) => server.stop()));
});

async function start(args: readonly string[]): Promise<ServerProcess> {
  const server = await startServer(args);
  servers.push(server);
  return server;
}

/** The accept queue length of the socket listening on 127.0.0.1:`port`. */
function backlogOf(port: number): number {
  const lines = execFileSync('ss', ['-ltnH', `sport = :${port}`], { encoding: 'utf8' }).trim().split('\n').filter(Boolean);
  assert.equal(lines.length, 1, `one socket listens on port ${port}: ${lines.join(' | ')}`);
  const [state, , sendQ] = lines[0]!.trim().split(/\s+/);
  assert.equal(state, 'LISTEN');
  return Number(sendQ);
}

test('the WebSocket, clobber and socha ports listen with the listen-backlog limit', async () => {
  const server = await start(['--limit', 'listen-backlog=97', '--clobber-port', '0', '--socha-port', '0']);
  const [, clobberPort] = await server.waitForLog(/clobber tournament port listening on [^:]+:(\d+)/);
  const [, sochaPort] = await server.waitForLog(/socha port listening on [^:]+:(\d+)/);
  assert.equal(backlogOf(server.port), 97);
  assert.equal(backlogOf(Number(clobberPort)), 97);
  assert.equal(backlogOf(Number(sochaPort)), 97);
});

test('by default the queue is 4096 long (as far as net.core.somaxconn allows), not Node\'s 511', async () => {
  const server = await start([]);
  const somaxconn = Number(readFileSync('/proc/sys/net/core/somaxconn', 'utf8'));
  assert.equal(backlogOf(server.port), Math.min(4096, somaxconn));
});

test('with --nodes, the port the nodes share listens with the limit too', async () => {
  const server = await start(['--nodes', '2', '--limit', 'listen-backlog=113']);
  assert.equal(backlogOf(server.port), 113);
});

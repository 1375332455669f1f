import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startServer, type ServerProcess } from '../support/processes.js';

/**
 * Server tournaments survive a restart of a real cocod on the same SQLite file: a finished one is
 * listed and shown as it was (results, standings), one that was running when the server stopped
 * comes back interrupted, with the matches it had played.
 */

const http = (server: ServerProcess, path: string): string => `${server.url.replace('ws:', 'http:')}${path}`;

async function create(server: ServerProcess, args: Record<string, string>, rounds = 1): Promise<any> {
  const response = await fetch(http(server, 'api/tournaments'), {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ game: 'roshambo', password: 'master', rounds, concurrency: 2, entrants: [{ name: 'ann', bot: null }, { name: 'bob', bot: null }, { name: 'cid', bot: null }], args }),
  });
  assert.equal(response.status, 201);
  return response.json();
}

async function view(server: ServerProcess, id: string, after?: number): Promise<any> {
  return (await fetch(http(server, `api/tournaments/${id}${after === undefined ? '' : `?after=${after}`}`))).json();
}

test('a restarted cocod lists and shows its finished tournament as it was, and the one it was running as interrupted', async () => {
  const dir = mkdtempSync(join(tmpdir(), 'cocod-tournaments-'));
  const file = join(dir, 'history.sqlite');
  let server: ServerProcess | null = await startServer([], file);
  try {
    let finished = await create(server, { rounds: '3', pace: '0' });
    while (finished.state === 'running') finished = await view(server, finished.id, finished.version);
    assert.equal(finished.state, 'finished');
    // Slow matches: running when the server is told to stop.
    let running = await create(server, { rounds: '100', pace: '0.2' }, 2);
    while (running.running.length === 0) running = await view(server, running.id, running.version);
    await server.stop();
    server = null;

    server = await startServer([], file);
    const list = (await (await fetch(http(server, 'api/tournaments'))).json()) as { tournaments: any[] };
    assert.deepEqual(list.tournaments.map((t) => [t.id, t.state]), [[running.id, 'interrupted'], [finished.id, 'finished']]);

    const again = await view(server, finished.id);
    for (const key of ['game', 'format', 'rounds', 'concurrency', 'entrants', 'args', 'state', 'error', 'created_at', 'ended_at', 'total', 'results', 'standings']) {
      assert.deepEqual(again[key], finished[key], key);
    }
    assert.equal(again.results.length, 6);

    const interrupted = await view(server, running.id);
    assert.equal(interrupted.error, 'server shutdown');
    assert.deepEqual(interrupted.running, []);
    // The matches running at the shutdown ended with it, recorded and counted unfinished.
    assert.ok(interrupted.results.length >= 1 && interrupted.results.length < interrupted.total);
    assert.ok(interrupted.results.every((r: any) => r.outcome === '*' && r.reason === 'server shutdown'));
    for (const r of interrupted.results) {
      const record = await fetch(http(server, `api/history/${r.match}`));
      assert.equal(record.status, 200, `match ${r.match} is in the history`);
    }
    // Over: it cannot be stopped, and a follower's long poll answers at once.
    const stop = await fetch(http(server, `api/tournaments/${running.id}/stop`), { method: 'POST', body: JSON.stringify({ password: 'master' }) });
    assert.equal(stop.status, 409);
    assert.equal((await view(server, running.id, 0)).state, 'interrupted');
  } finally {
    await server?.stop();
    rmSync(dir, { recursive: true, force: true });
  }
});

import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pg from 'pg';
import { ROOT, coco, newMatch, runCocod, startCoco, startServer, type ServerProcess } from '../support/processes.js';
import { freePort, startPostgres, type PostgresServer } from '../support/services.js';
import { PostgresHistoryStore } from '../../src/store/postgres-history-store.js';
import { SqliteHistoryStore } from '../../src/store/sqlite-history-store.js';

// `cocod --postgres URL`: the history in a real PostgreSQL (test/support/services.ts), for one
// server and for `--nodes 2`, and `cocod migrate-history` from a file a real cocod wrote. The URLs
// carry a password (the test server trusts loopback, so any password connects): it must never
// show in what cocod writes.
const BOT = join(ROOT, 'test/fixtures/gesture_bot.py');
const PASSWORD = 's3cret-pw';
let postgres: PostgresServer;

before(async () => {
  postgres = await startPostgres();
});
after(async () => {
  await postgres.stop();
});

/** A fresh database's URL, with PASSWORD in it. */
async function database(name: string): Promise<string> {
  const url = new URL(await postgres.createDatabase(name));
  url.password = PASSWORD;
  return url.toString();
}

async function matchIds(url: string): Promise<string[]> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    return (await client.query<{ id: string }>('SELECT id FROM matches ORDER BY ended_at')).rows.map((row) => row.id);
  } finally {
    await client.end();
  }
}

/** Plays a verified roshambo match of `rounds` against the server bot; returns its id once recorded. */
async function playVerified(server: ServerProcess, player: string, rounds = 2): Promise<{ id: string; stdout: string }> {
  const id = await newMatch(server.url, ['roshambo', '-b', '1', '-v', 'master', '-a', `rounds=${rounds}`, '-a', 'pace=0']);
  const played = await coco(server.url, ['connect', id, '-n', player, '--', 'python3', BOT, 'ROCK']);
  assert.equal(played.code, 0, played.stderr);
  await server.recorded(id);
  return { id, stdout: played.stdout };
}

async function apiHistory(server: ServerProcess): Promise<{ id: string; players: string[] }[]> {
  const response = await fetch(`http://127.0.0.1:${server.port}/api/history`);
  assert.equal(response.status, 200);
  return ((await response.json()) as { matches: { id: string; players: string[] }[] }).matches;
}

test('cocod --postgres URL: a match played is recorded in PostgreSQL and shown by coco history and /api/history; the password is never logged', async () => {
  const url = await database('single_node');
  const server = await startServer(['--postgres', url], null);
  try {
    assert.match(server.log(), /history in PostgreSQL at postgres:\/\/coco:\*\*\*@127\.0\.0\.1:\d+\/single_node \(schema version 5\)/);
    assert.match(server.log(), /listening on \S+ \(history: postgres:\/\/coco:\*\*\*@127\.0\.0\.1:\d+\/single_node\)/);
    const id = (await playVerified(server, 'alice')).id;
    assert.deepEqual(await matchIds(url), [id]);
    const table = await coco(server.url, ['history']);
    assert.equal(table.code, 0, table.stderr);
    assert.match(table.stdout, new RegExp(`^${id}\\s+roshambo\\s`, 'm'));
    const stream = await coco(server.url, ['history', id]);
    assert.equal(stream.code, 0, stream.stderr);
    assert.ok(stream.stdout.length > 0);
    assert.deepEqual((await apiHistory(server)).map((m) => m.id), [id]);
    const ratings = await coco(server.url, ['ratings', 'roshambo', '--json']);
    assert.deepEqual((JSON.parse(ratings.stdout) as { player: string }[]).map((row) => row.player).sort(), ['ServerBot', 'alice']);
  } finally {
    await server.stop();
  }
  assert.doesNotMatch(server.rawLog(), new RegExp(PASSWORD));
  // Kept: a server started again on the same database shows the match.
  const again = await startServer(['--postgres', url], null);
  try {
    assert.equal((await apiHistory(again)).length, 1);
  } finally {
    await again.stop();
  }
});

test('cocod --nodes 2 --postgres URL: the primary owns the PostgreSQL store, and a match played on any node is in it', async () => {
  const url = await database('two_nodes');
  const server = await startServer(['--nodes', '2', '--postgres', url], null);
  try {
    await server.waitForLog(/listening on \S+ \(2 nodes, history: postgres:\/\/coco:\*\*\*@127\.0\.0\.1:\d+\/two_nodes\)/);
    const first = (await playVerified(server, 'carol')).id;
    const second = (await playVerified(server, 'dave')).id;
    assert.deepEqual(await matchIds(url), [first, second]);
    assert.deepEqual((await apiHistory(server)).map((m) => m.id), [second, first]);
    const table = await coco(server.url, ['history']);
    assert.match(table.stdout, new RegExp(`^${second}\\s+roshambo[^]*^${first}\\s+roshambo`, 'm'));
  } finally {
    await server.stop();
  }
  assert.doesNotMatch(server.rawLog(), new RegExp(PASSWORD));
});

test('cocod --postgres with the database down mid-run: the match ends normally, reads fail clearly, and once it is back the match is in the history', async () => {
  const url = await database('outage');
  const server = await startServer(['--postgres', url], null);
  try {
    const before = (await playVerified(server, 'hana')).id;
    await postgres.halt();
    let during: string;
    try {
      // The match ends as usual and the record waits in the server's memory; coco, which reads the
      // result from the history, asks it for a while, then says why it cannot show it.
      const played = await playVerified(server, 'ivan');
      during = played.id;
      assert.match(played.stdout, new RegExp(`> match ended; its result cannot be read yet: the match history is unavailable for now; try again later \\(coco history ${during}\\)`));
      await server.waitForLog(/history database postgres:\/\/coco:\*\*\*@\S+ unreachable \(.*\): records wait in memory \(up to 67108864 bytes, history-backlog-max-bytes\)/);
      // "Try again later" in each front door's terms, not a server error.
      const refused = await fetch(`http://127.0.0.1:${server.port}/api/history`);
      assert.equal(refused.status, 503);
      assert.deepEqual(await refused.json(), { error: 'the match history is unavailable for now; try again later' });
      const failed = await coco(server.url, ['history']);
      assert.equal(failed.code, 1);
      assert.match(failed.stderr, /the server cannot answer for now: the match history is unavailable for now; try again later/);
      // The reference protocol's request says it in its own terms: the connection closed with 1013.
      const byProtocol = await coco(server.url, ['history', during]);
      assert.notEqual(byProtocol.code, 0);
      assert.match(byProtocol.stderr, /\(1013\): history unavailable, try again later/);
      assert.match(server.log(), /the history database postgres:\/\/coco:\*\*\*@\S+ is unreachable: .*\(1 matches wait to be recorded\)/);
    } finally {
      await postgres.start();
    }
    // A read writes the backlog first: no waiting for the retry timer.
    assert.deepEqual((await apiHistory(server)).map((m) => m.id), [during, before]);
    assert.deepEqual(await matchIds(url), [before, during]);
    await server.waitForLog(/reachable again after \d+ s: 1 matches recorded from the backlog/);
    const ratings = JSON.parse((await coco(server.url, ['ratings', 'roshambo', '--json'])).stdout) as { player: string }[];
    assert.deepEqual(ratings.map((row) => row.player).sort(), ['ServerBot', 'hana', 'ivan']);
  } finally {
    await server.stop();
  }
  assert.doesNotMatch(server.rawLog(), new RegExp(PASSWORD));
});

test('cocod --postgres with the database unreachable at start: one line naming it with the password masked, status 1 (one node and --nodes 2)', async () => {
  const port = await freePort();
  const url = `postgres://coco:${PASSWORD}@127.0.0.1:${port}/history`;
  for (const extra of [[], ['--nodes', '2']]) {
    const refused = await runCocod(['-p', '0', '-v', 'master', '--postgres', url, ...extra]);
    assert.equal(refused.code, 1, refused.stderr);
    assert.match(refused.stderr, new RegExp(`^cocod: cannot start: history database postgres://coco:\\*\\*\\*@127\\.0\\.0\\.1:${port}/history: .*ECONNREFUSED.*\\n$`));
    assert.doesNotMatch(refused.stderr + refused.stdout, new RegExp(PASSWORD));
  }
});

test('cocod migrate-history copies a real cocod history file into PostgreSQL whole, in batches with progress, and a second run copies nothing twice', async () => {
  const dir = mkdtempSync(join(tmpdir(), 'cocod-migrate-'));
  try {
    const file = join(dir, 'history.sqlite');
    const server = await startServer([], file);
    const played: string[] = [];
    try {
      played.push((await playVerified(server, 'erin', 3)).id);
      played.push((await playVerified(server, 'frank', 2)).id);
      const unverified = await newMatch(server.url, ['roshambo', '-b', '1', '-a', 'rounds=1', '-a', 'pace=0']);
      const running = startCoco(server.url, ['connect', unverified, '-n', 'gina', '--', 'python3', BOT, 'PAPER']);
      assert.equal((await running.done).code, 0);
      await server.recorded(unverified);
      played.push(unverified);
    } finally {
      await server.stop();
    }
    const url = await database('migrated');

    const first = await runCocod(['migrate-history', '--from', file, '--to', url, '--batch', '2']);
    assert.equal(first.code, 0, first.stderr);
    assert.equal(
      first.stdout,
      [
        `copying ${file} into postgres://coco:***@127.0.0.1:${postgres.port}/migrated, 2 matches a batch`,
        '2 of 3 matches: 2 copied, 0 already there',
        '3 of 3 matches: 3 copied, 0 already there',
        `done: 3 matches in ${file}, 3 copied, 0 already in PostgreSQL`,
        '',
      ].join('\n'),
    );
    const second = await runCocod(['migrate-history', '--from', file, '--to', url]);
    assert.equal(second.code, 0, second.stderr);
    assert.match(second.stdout, new RegExp(`\\ndone: 3 matches in ${file.replace(/[.]/g, '\\.')}, 0 copied, 3 already in PostgreSQL\\n$`));
    assert.doesNotMatch(first.stdout + first.stderr + second.stdout + second.stderr, new RegExp(PASSWORD));

    // Whole records, and the same leaderboard and rating histories as the file's.
    const sqlite = await SqliteHistoryStore.open(file);
    const copy = await PostgresHistoryStore.open(url);
    try {
      assert.deepEqual(await copy.ids(), await sqlite.ids());
      assert.deepEqual((await copy.ids()).sort(), [...played].sort());
      for (const id of played) assert.deepEqual(await copy.get(id), await sqlite.get(id), id);
      assert.deepEqual(await copy.list(), await sqlite.list());
      assert.deepEqual(await copy.ratings('roshambo'), await sqlite.ratings('roshambo'));
      for (const player of ['erin', 'frank', 'ServerBot']) assert.deepEqual(await copy.ratingHistory('roshambo', player), await sqlite.ratingHistory('roshambo', player), player);
    } finally {
      await sqlite.close();
      await copy.close();
    }

    // And a server on PostgreSQL serves the migrated history.
    const onPostgres = await startServer(['--postgres', url], null);
    try {
      assert.deepEqual((await apiHistory(onPostgres)).map((m) => m.id).sort(), [...played].sort());
    } finally {
      await onPostgres.stop();
    }
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

test('cocod migrate-history refuses a missing file (status 1) and a wrong command line (status 2), in one line', async () => {
  const url = await database('refusals');
  const missing = await runCocod(['migrate-history', '--from', '/nonexistent/h.sqlite', '--to', url]);
  assert.equal(missing.code, 1);
  assert.match(missing.stderr, /^cocod migrate-history: no such history file: \/nonexistent\/h\.sqlite \(postgres:\/\/coco:\*\*\*@[^)]+\)\n$/);
  const noTarget = await runCocod(['migrate-history', '--from', 'h.sqlite']);
  assert.equal(noTarget.code, 2);
  assert.match(noTarget.stderr, /^cocod migrate-history: migrate-history needs --to postgres:\/\/\.\.\. \(or COCOD_POSTGRES\)/);
  const badBatch = await runCocod(['migrate-history', '--from', 'h.sqlite', '--to', url, '--batch', '0']);
  assert.equal(badBatch.code, 2);
  assert.doesNotMatch(missing.stderr + noTarget.stderr + badBatch.stderr, new RegExp(PASSWORD));
});

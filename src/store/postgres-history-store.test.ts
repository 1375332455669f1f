import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import pg from 'pg';
import { HistoryUnavailableError, storedSize, type MatchRecord } from './history-store.js';
import { errorText, isTransientPostgresError, isPostgresUrl, maskedUrl } from './postgres-connection.js';
import { PostgresHistoryDb } from './postgres-history-db.js';
import { BACKLOG_RETRY_FIRST_MS, BACKLOG_RETRY_MAX_MS, PostgresHistoryStore } from './postgres-history-store.js';
import { POSTGRES_MIGRATIONS, migratePostgres } from './postgres-schema.js';
import { INITIAL_SKILL, rateMatch } from '../ratings/rating.js';
import { ManualClock } from '../util/clock.js';
import { lineLog } from '../util/log.js';
import { startPostgres, type PostgresServer } from '../../test/support/services.js';

let postgres: PostgresServer;
let databases = 0;
before(async () => {
  postgres = await startPostgres();
});
after(async () => {
  await postgres.stop();
});

function fresh(): Promise<string> {
  return postgres.createDatabase(`pgstore_${++databases}`);
}

function match(id: string, endedAt: number, extra: Partial<MatchRecord> = {}): MatchRecord {
  return {
    id,
    game: 'roshambo',
    name: `match ${id}`,
    args: { rounds: '3' },
    players: ['alice', 'bob'],
    bots: 0,
    scores: [2, 1],
    reason: 'done',
    error: null,
    seed: 's',
    verified: true,
    startedAt: endedAt - 1000,
    endedAt,
    spectatorStream: Buffer.from(`stream of ${id}\n`),
    visJson: '[]',
    artifacts: { 'replay.log': `log of ${id}\n` },
    ...extra,
  };
}

/** A log kept as lines, with a way to wait for one (the store's own report, not a sleep). */
function recordingLog(): { lines: string[]; log: ReturnType<typeof lineLog>; waitFor(pattern: RegExp): Promise<string> } {
  const lines: string[] = [];
  const waiters: { pattern: RegExp; resolve: (line: string) => void }[] = [];
  const log = lineLog((line) => {
    lines.push(line);
    for (const waiter of [...waiters]) {
      if (waiter.pattern.test(line)) {
        waiters.splice(waiters.indexOf(waiter), 1);
        waiter.resolve(line);
      }
    }
  });
  return {
    lines,
    log,
    waitFor: (pattern) => {
      const seen = lines.find((line) => pattern.test(line));
      return seen !== undefined ? Promise.resolve(seen) : new Promise((resolve) => waiters.push({ pattern, resolve }));
    },
  };
}

async function query<T extends pg.QueryResultRow>(url: string, sql: string): Promise<T[]> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    return (await client.query<T>(sql)).rows;
  } finally {
    await client.end();
  }
}

test('the database unreachable: record() keeps the matches in memory, reads fail with a clear error, and the retry timer writes them once it is back', async () => {
  const url = await fresh();
  const clock = new ManualClock(1_800_000_000_000);
  const { log, lines, waitFor } = recordingLog();
  const store = await PostgresHistoryStore.open(url, { clock, log });
  try {
    await store.record(match('before', 1000));
    await postgres.halt();
    // Each record() resolves: the match ends normally for its players.
    await store.record(match('during1', 2000));
    await store.record(match('during2', 3000, { verified: false }));
    assert.equal(store.queueDepth, 2);
    assert.equal(store.backlogBytes, storedSize(match('during1', 2000)) + storedSize(match('during2', 3000, { verified: false })));
    assert.ok(lines.some((line) => /^warn: history database postgres:\/\/coco@127\.0\.0\.1:\d+\/pgstore_\d+ unreachable \(.*\): records wait in memory \(up to 67108864 bytes/.test(line)), lines.join('\n'));
    await assert.rejects(store.list(), /the history database postgres:\/\/.* is unreachable: .*\(2 matches wait to be recorded\)/);
    await assert.rejects(store.ratings('roshambo'), HistoryUnavailableError);
    // The first try after the outage began was armed; the failed read moved the next one later.
    await clock.timerSet(BACKLOG_RETRY_FIRST_MS);
    await postgres.start();
    await clock.advance(BACKLOG_RETRY_MAX_MS);
    assert.match(await waitFor(/reachable again/), /history database .* reachable again after \d+ s: 2 matches recorded from the backlog/);
    assert.equal(store.queueDepth, 0);
    assert.deepEqual(await store.ids(), ['before', 'during1', 'during2']);
    assert.deepEqual(await store.get('during1'), match('during1', 2000));
    // The verified match of the outage was rated when it arrived, in the same transaction.
    assert.deepEqual((await store.ratingHistory('roshambo', 'alice')).map((p) => p.matchId), ['before', 'during1']);
    // Back to normal: the next record is written at once.
    await store.record(match('after', 4000));
    assert.equal(store.queueDepth, 0);
    assert.equal(clock.pending, 0, 'no retry left armed');
  } finally {
    await postgres.start();
    await store.close();
  }
});

test('the retries back off: each failed try doubles the wait, up to BACKLOG_RETRY_MAX_MS; flush() drains at once when the database is back', async () => {
  const url = await fresh();
  const clock = new ManualClock();
  const store = await PostgresHistoryStore.open(url, { clock });
  try {
    await postgres.halt();
    await store.record(match('a', 1000));
    await clock.timerSet(BACKLOG_RETRY_FIRST_MS, 1);
    // Each try fails (the server is down) and arms the next, twice as far: 2 s, 4 s, ... 60 s.
    let wait = BACKLOG_RETRY_FIRST_MS;
    for (let i = 0; i < 8; i++) {
      await clock.advance(wait);
      const next = Math.min(wait * 2, BACKLOG_RETRY_MAX_MS);
      await clock.timerSet(next, next === wait ? 2 : 1);
      wait = next;
    }
    assert.equal(wait, BACKLOG_RETRY_MAX_MS);
    await assert.rejects(store.flush());
    assert.equal(store.queueDepth, 1);
    await postgres.start();
    await store.flush();
    assert.equal(store.queueDepth, 0);
    assert.deepEqual(await store.ids(), ['a']);
  } finally {
    await postgres.start();
    await store.close();
  }
});

test('past history-backlog-max-bytes the oldest waiting match is dropped, and the log names it', async () => {
  const url = await fresh();
  const clock = new ManualClock();
  const { log, lines } = recordingLog();
  const each = storedSize(match('m1', 1000));
  const store = await PostgresHistoryStore.open(url, { clock, log, backlogMaxBytes: 2 * each });
  try {
    await postgres.halt();
    for (const [i, id] of ['m1', 'm2', 'm3'].entries()) await store.record(match(id, 1000 * (i + 1)));
    assert.equal(store.queueDepth, 2);
    assert.ok(lines.some((line) => line.startsWith('error: match m1 not recorded: dropped from the full backlog (history-backlog-max-bytes=')), lines.join('\n'));
    await postgres.start();
    await store.flush();
    assert.deepEqual(await store.ids(), ['m2', 'm3']);
  } finally {
    await postgres.start();
    await store.close();
  }
});

test('a record the database refuses is not kept for retrying: record() rejects with the reason', async () => {
  const url = await fresh();
  const store = await PostgresHistoryStore.open(url);
  try {
    // PostgreSQL text cannot hold a NUL character: the statement's fault, not an outage.
    await assert.rejects(store.record(match('bad', 1000, { name: 'a\u0000b' })), /0x00/);
    assert.equal(store.queueDepth, 0);
    assert.deepEqual(await store.ids(), []);
    assert.deepEqual(await store.ratings('roshambo'), []);
  } finally {
    await store.close();
  }
});

test('ratings are written in the transaction of their records: a batch that fails leaves no rating behind', async () => {
  const url = await fresh();
  const db = await PostgresHistoryDb.open(url);
  try {
    const bad = { ...match('bad', 2000, { players: ['carol', 'dave'] }), game: null as unknown as string };
    await assert.rejects(db.write([match('good', 1000), bad], 3000));
    assert.deepEqual(await db.ratingBoard('roshambo'), []);
    assert.deepEqual(await db.ids(), []);
    assert.equal(await db.storedBytes(), 0);
    await db.write([match('good', 1000)], 3000);
    assert.deepEqual((await db.ratingBoard('roshambo')).map((r) => r.player), ['alice', 'bob']);
    assert.equal(await db.storedBytes(), storedSize(match('good', 1000)));
  } finally {
    await db.close();
  }
});

test('servers starting together on an empty database migrate it once (advisory lock), each migration in the schema table once', async () => {
  const url = await fresh();
  const opened = await Promise.all(Array.from({ length: 4 }, () => PostgresHistoryDb.open(url)));
  try {
    assert.deepEqual(opened.map((db) => db.schemaVersion), [5, 5, 5, 5]);
    const rows = await query<{ version: number }>(url, 'SELECT version FROM history_schema ORDER BY version');
    assert.deepEqual(rows.map((row) => row.version), [1, 2, 3, 4, 5]);
    assert.equal(POSTGRES_MIGRATIONS.length, 5);
  } finally {
    for (const db of opened) await db.close();
  }
});

test('a database at schema version 1 is upgraded to the newest in place, its matches kept', async () => {
  const url = await fresh();
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  await migratePostgres(client, POSTGRES_MIGRATIONS.slice(0, 1));
  await client.query(
    `INSERT INTO matches (id, game, name, args, bots, scores, reason, error, seed, verified, started_at, ended_at, spectator_stream, vis, size)
     VALUES ('old', 'roshambo', 'old', '{}', 0, NULL, 'done', NULL, 's', false, 1, 2, '\\x', '\\x5b5d', 10)`,
  );
  await client.end();
  const db = await PostgresHistoryDb.open(url);
  try {
    assert.equal(db.schemaVersion, POSTGRES_MIGRATIONS.length);
    assert.deepEqual(await db.ids(), ['old']);
    assert.equal((await db.get('old'))!.visJson, '[]');
  } finally {
    await db.close();
  }
});

test('a database whose schema is newer than the server knows is refused and not touched', async () => {
  const url = await fresh();
  await (await PostgresHistoryDb.open(url)).close();
  await query(url, 'INSERT INTO history_schema (version) VALUES (99)');
  await assert.rejects(PostgresHistoryStore.open(url), /history database postgres:\/\/.*: the history database has schema version 99, newer than this server knows \(5\)/);
  assert.deepEqual((await query<{ version: number }>(url, 'SELECT max(version) AS version FROM history_schema'))[0], { version: 99 });
});

test('a database that cannot be reached at start is refused in one line naming it, its password masked', async () => {
  const url = `postgres://coco:s3cret@127.0.0.1:${postgres.port}/no_such_database`;
  const error = await PostgresHistoryStore.open(url).then(
    () => assert.fail('opened'),
    (e: Error) => e,
  );
  assert.match(error.message, /^history database postgres:\/\/coco:\*\*\*@127\.0\.0\.1:\d+\/no_such_database: .*does not exist/);
  assert.doesNotMatch(error.message, /s3cret/);
  assert.doesNotMatch(error.message, /\n/);
});

test('opening applies a lowered retention to what the database holds', async () => {
  const url = await fresh();
  const first = await PostgresHistoryStore.open(url);
  for (const id of ['a', 'b', 'c']) await first.record(match(id, id.charCodeAt(0)));
  await first.close();
  const second = await PostgresHistoryStore.open(url, { retention: { maxBytes: storedSize(match('c', 0)) } });
  try {
    assert.deepEqual(await second.ids(), ['c']);
  } finally {
    await second.close();
  }
});

test('maskedUrl hides passwords in the user part and in parameters; isPostgresUrl takes postgres:// and postgresql://', () => {
  assert.equal(maskedUrl('postgres://coco:hunter2@db.example:5432/history'), 'postgres://coco:***@db.example:5432/history');
  assert.equal(maskedUrl('postgresql://coco@db/history?sslmode=require&password=hunter2'), 'postgresql://coco@db/history?sslmode=require&password=***');
  assert.equal(maskedUrl('postgres://db/history'), 'postgres://db/history');
  assert.doesNotMatch(maskedUrl('postgres://coco:hunter2@[bad'), /hunter2/);
  assert.ok(isPostgresUrl('postgres://coco@127.0.0.1:5432/h'));
  assert.ok(isPostgresUrl('postgresql://h/db'));
  assert.ok(!isPostgresUrl('mysql://h/db'));
  assert.ok(!isPostgresUrl('history.sqlite'));
});

test('an error is transient when the connection failed, final when the statement did', () => {
  assert.ok(isTransientPostgresError(Object.assign(new Error('connect ECONNREFUSED 127.0.0.1:1'), { code: 'ECONNREFUSED' })));
  assert.ok(isTransientPostgresError(new Error('Connection terminated unexpectedly')));
  for (const code of ['08006', '57P01', '57P03', '53300', '40001', '40P01']) assert.ok(isTransientPostgresError(Object.assign(new Error(code), { code })), code);
  for (const code of ['22021', '23502', '42P01', '08P01']) assert.ok(!isTransientPostgresError(Object.assign(new Error(code), { code })), code);
  assert.ok(!isTransientPostgresError(new TypeError('Do not know how to serialize a BigInt')));
  assert.equal(errorText(new AggregateError([new Error('connect ECONNREFUSED ::1:5432'), new Error('connect ECONNREFUSED 127.0.0.1:5432')])), 'connect ECONNREFUSED ::1:5432; connect ECONNREFUSED 127.0.0.1:5432');
});

test('servers on two machines recording into one database at once: each match rated once, in turn, and the stored total exact', async () => {
  const url = await fresh();
  const [one, two] = await Promise.all([PostgresHistoryStore.open(url), PostgresHistoryStore.open(url)]);
  try {
    const matches = Array.from({ length: 40 }, (_, i) => match(`m${i}`, 1000 + i));
    // Interleaved: both stores' transactions are in flight together.
    await Promise.all(matches.map((m, i) => (i % 2 ? one : two).record(m)));
    const board = await one.ratings('roshambo');
    assert.deepEqual(board.map((r) => [r.player, r.games]), [['alice', 40], ['bob', 40]]);
    // Every match is alice 2, bob 1: whatever order they committed in, 40 updates one after the
    // other give one result; an update lost to a concurrent read would leave alice lower.
    let alice = INITIAL_SKILL;
    let bob = INITIAL_SKILL;
    for (let i = 0; i < 40; i++) [alice, bob] = rateMatch([{ player: 'alice', score: 2 }, { player: 'bob', score: 1 }], (p) => (p === 'alice' ? alice : bob)) as [typeof alice, typeof bob];
    assert.ok(Math.abs(board[0]!.mu - alice.mu) < 1e-9 && Math.abs(board[0]!.sigma - alice.sigma) < 1e-9, `${JSON.stringify(board[0])} vs ${JSON.stringify(alice)}`);
    assert.equal((await one.ratingHistory('roshambo', 'alice', { limit: 1000 })).length, 40);
    const db = await PostgresHistoryDb.open(url);
    try {
      assert.equal(await db.storedBytes(), matches.reduce((sum, m) => sum + storedSize(m), 0));
    } finally {
      await db.close();
    }
  } finally {
    await one.close();
    await two.close();
  }
});

test('a server whose database user may read and write the tables but not create any starts on a migrated database', async () => {
  const url = await fresh();
  await (await PostgresHistoryDb.open(url)).close();
  const name = new URL(url).pathname.slice(1);
  await query(url, `CREATE ROLE writer LOGIN; REVOKE CREATE ON SCHEMA public FROM PUBLIC; REVOKE ALL ON DATABASE ${name} FROM PUBLIC;
    GRANT CONNECT ON DATABASE ${name} TO writer; GRANT USAGE ON SCHEMA public TO writer;
    GRANT SELECT, INSERT, UPDATE, DELETE ON ALL TABLES IN SCHEMA public TO writer; GRANT USAGE ON ALL SEQUENCES IN SCHEMA public TO writer`);
  const asWriter = new URL(url);
  asWriter.username = 'writer';
  const store = await PostgresHistoryStore.open(asWriter.toString());
  try {
    await store.record(match('w', 1000));
    assert.deepEqual(await store.ids(), ['w']);
    await assert.rejects(query(asWriter.toString(), 'CREATE TABLE t (x integer)'), /permission denied/);
  } finally {
    await store.close();
  }
});

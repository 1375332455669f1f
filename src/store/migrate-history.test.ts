import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { MatchRecord } from './history-store.js';
import { DEFAULT_MIGRATE_BATCH, migrateHistory, type MigrateProgress } from './migrate-history.js';
import { PostgresHistoryStore } from './postgres-history-store.js';
import { SqliteHistoryDb } from './sqlite-history-db.js';
import { SqliteHistoryStore } from './sqlite-history-store.js';
import { startPostgres, type PostgresServer } from '../../test/support/services.js';

let postgres: PostgresServer;
let dir: string;
before(async () => {
  postgres = await startPostgres();
  dir = mkdtempSync(join(tmpdir(), 'cocod-migrate-'));
});
after(async () => {
  await postgres.stop();
  rmSync(dir, { recursive: true, force: true });
});

/** Records with every kind of content: artifacts, multi-byte text, bytes, a failed game, bots. */
function records(): MatchRecord[] {
  const base = (id: string, endedAt: number): MatchRecord => ({
    id,
    game: 'roshambo',
    name: `match ${id}`,
    args: { rounds: '3', pace: '0' },
    players: ['alice', 'bob'],
    bots: 0,
    scores: [2, 1],
    reason: 'done',
    error: null,
    seed: `seed-${id}`,
    verified: true,
    startedAt: endedAt - 500,
    endedAt,
    spectatorStream: Buffer.from([0, 1, 2, 255, 10]),
    visJson: '[{"t":0,"log":{"line":"héllo, 世界"}}]',
    artifacts: {},
  });
  return [
    { ...base('a', 1000), artifacts: { 'replay.log': '000.000001 > start\n', 'ü.txt': 'ünïcode ✓\n' } },
    { ...base('b', 2000), players: ['bob', 'ServerBot$0', 'ServerBot$1'], bots: 2, scores: [1, 3, 0] },
    { ...base('c', 3000), scores: null, error: 'the game crashed: ✗', verified: false },
    { ...base('d', 4000), game: 'royalur', players: ['carol', 'dave'] },
    base('e', 5000),
  ];
}

test('migrateHistory copies every match whole, in batches, rebuilds the same ratings, copies the tournaments and the claimed names, and copies nothing twice', async () => {
  assert.equal(DEFAULT_MIGRATE_BATCH, 200);
  const file = join(dir, 'h.sqlite');
  const source = new SqliteHistoryDb(file);
  source.record(records(), 0);
  source.saveTournament({ id: 't1', createdAt: 500, body: '{"version":1}' });
  source.addTournamentResult('t1', 0, '{"match":"a"}');
  source.addTournamentResult('t1', 1, '{"match":"b"}');
  source.saveTournament({ id: 't2', createdAt: 500, body: '{}' });
  source.claimName('alice', 'a'.repeat(64));
  source.close();
  const url = await postgres.createDatabase('migrated');
  const seen: MigrateProgress[] = [];
  const first = await migrateHistory(file, url, { batch: 2, progress: (p) => seen.push(p) });
  assert.deepEqual(first, { total: 5, done: 5, copied: 5, skipped: 0 });
  assert.deepEqual(seen.map((p) => [p.done, p.copied, p.skipped]), [[2, 2, 0], [4, 4, 0], [5, 5, 0]]);
  const second = await migrateHistory(file, url);
  assert.deepEqual(second, { total: 5, done: 5, copied: 0, skipped: 5 });

  const sqlite = await SqliteHistoryStore.open(file);
  const copy = await PostgresHistoryStore.open(url);
  try {
    assert.deepEqual(await copy.ids(), ['a', 'b', 'c', 'd', 'e']);
    for (const match of records()) assert.deepEqual(await copy.get(match.id), match, match.id);
    for (const game of ['roshambo', 'royalur']) assert.deepEqual(await copy.ratings(game), await sqlite.ratings(game), game);
    for (const player of ['alice', 'bob', 'ServerBot']) assert.deepEqual(await copy.ratingHistory('roshambo', player), await sqlite.ratingHistory('roshambo', player), player);
    // A second run rated nothing again.
    assert.equal((await copy.ratings('roshambo')).find((r) => r.player === 'bob')!.games, 3);
    // The server tournaments, with their results, in the same order; once each.
    assert.deepEqual(await copy.tournaments(), await sqlite.tournaments());
    assert.deepEqual((await copy.tournaments()).map((t) => [t.id, t.results.length]), [['t2', 0], ['t1', 2]]);
    // The claimed names, their token digests as they were (the tokens themselves are kept nowhere).
    assert.equal(await copy.nameDigest('alice'), 'a'.repeat(64));
    assert.equal(await copy.nameDigest('bob'), null);
  } finally {
    await sqlite.close();
    await copy.close();
  }
});

test('migrateHistory continues an interrupted copy: the matches already there are skipped, the rest copied', async () => {
  const file = join(dir, 'partial.sqlite');
  const source = new SqliteHistoryDb(file);
  source.record(records(), 0);
  source.close();
  const url = await postgres.createDatabase('partial');
  // As if a run stopped after its first batch: two matches already copied.
  const early = await PostgresHistoryStore.open(url);
  for (const match of records().slice(0, 2)) await early.record(match);
  await early.close();
  assert.deepEqual(await migrateHistory(file, url, { batch: 3 }), { total: 5, done: 5, copied: 3, skipped: 2 });
  const copy = await PostgresHistoryStore.open(url);
  try {
    assert.deepEqual(await copy.ids(), ['a', 'b', 'c', 'd', 'e']);
  } finally {
    await copy.close();
  }
});

test('migrateHistory refuses a missing file (never creating one) and a batch below 1', async () => {
  const url = await postgres.createDatabase('refused');
  await assert.rejects(migrateHistory(join(dir, 'missing.sqlite'), url), /no such history file: .*missing\.sqlite/);
  await assert.rejects(migrateHistory(join(dir, 'missing.sqlite'), url, { batch: 0 }), RangeError);
});

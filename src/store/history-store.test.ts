import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { HistoryStore, MatchRecord } from './history-store.js';
import { MemoryHistoryStore } from './memory-history-store.js';
import Database from 'better-sqlite3';
import { SqliteHistoryDb } from './sqlite-history-db.js';
import { SqliteHistoryStore } from './sqlite-history-store.js';

function record(id: string, game: string, players: string[], endedAt: number): MatchRecord {
  return {
    id,
    game,
    name: `match ${id}`,
    args: { rounds: '3' },
    players,
    bots: players.filter((p) => p.includes('$')).length,
    scores: players.map((_, i) => i),
    reason: 'done',
    error: null,
    seed: 's',
    verified: false,
    startedAt: endedAt - 1000,
    endedAt,
    spectatorStream: Buffer.from(`${players.join('\n')}\n`),
    visJson: '[{"t":0,"log":{"line":"hello"}}]',
    artifacts: { 'replay.log': `000.000001 > start ${id}\n` },
  };
}

/** The contract every HistoryStore keeps. */
function contract(name: string, open: () => Promise<{ store: HistoryStore; cleanup: () => void }> | { store: HistoryStore; cleanup: () => void }): void {
  test(`${name}: records come back whole, newest first, filtered by game and player`, async () => {
    const { store, cleanup } = await open();
    try {
      await store.record(record('a', 'roshambo', ['alice', 'bob'], 1000));
      await store.record(record('b', 'royalur', ['bob', 'ServerBot$0'], 2000));
      await store.record(record('c', 'roshambo', ['carol', 'dave'], 3000));
      assert.deepEqual((await store.list()).map((m) => m.id), ['c', 'b', 'a']);
      assert.deepEqual((await store.list({ game: 'roshambo' })).map((m) => m.id), ['c', 'a']);
      assert.deepEqual((await store.list({ player: 'bob' })).map((m) => m.id), ['b', 'a']);
      assert.deepEqual((await store.list({ before: 3000, limit: 1 })).map((m) => m.id), ['b']);
      assert.deepEqual(await store.ids(), ['a', 'b', 'c']);
      const b = await store.get('b');
      assert.deepEqual(b, record('b', 'royalur', ['bob', 'ServerBot$0'], 2000));
      assert.equal(await store.get('zzz'), null);
    } finally {
      await store.close();
      cleanup();
    }
  });
}

contract('memory', () => ({ store: new MemoryHistoryStore(), cleanup: () => {} }));

contract('sqlite', async () => {
  const dir = mkdtempSync(join(tmpdir(), 'cocod-store-'));
  return { store: await SqliteHistoryStore.open(join(dir, 'h.sqlite')), cleanup: () => rmSync(dir, { recursive: true, force: true }) };
});

test('sqlite: the history survives closing and reopening the file, at the current schema version', async () => {
  const dir = mkdtempSync(join(tmpdir(), 'cocod-store-'));
  try {
    const file = join(dir, 'h.sqlite');
    const first = await SqliteHistoryStore.open(file);
    await first.record(record('a', 'roshambo', ['alice', 'bob'], 1000));
    await first.close();
    const second = await SqliteHistoryStore.open(file);
    assert.equal(second.schemaVersion, 2);
    assert.deepEqual(await second.get('a'), record('a', 'roshambo', ['alice', 'bob'], 1000));
    await second.close();
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

test('sqlite: records sent together are all kept, and a read sees every record sent before it', async () => {
  const dir = mkdtempSync(join(tmpdir(), 'cocod-store-'));
  const store = await SqliteHistoryStore.open(join(dir, 'h.sqlite'));
  try {
    const writes = Array.from({ length: 200 }, (_, i) => store.record(record(`m${i}`, 'roshambo', [`p${i}`, 'q'], 1000 + i)));
    // Not awaited yet: the read is queued behind the writes and must see them.
    const ids = await store.ids();
    await Promise.all(writes);
    assert.equal(ids.length, 200);
    assert.deepEqual(await store.get('m199'), record('m199', 'roshambo', ['p199', 'q'], 1199));
  } finally {
    await store.close();
    rmSync(dir, { recursive: true, force: true });
  }
});

test('sqlite: a file that cannot be opened is refused with the reason, and a newer schema is not touched', async () => {
  const dir = mkdtempSync(join(tmpdir(), 'cocod-store-'));
  try {
    await assert.rejects(SqliteHistoryStore.open(dir), /history file .*: /);
    const file = join(dir, 'future.sqlite');
    const db = new SqliteHistoryDb(file);
    db.close();
    const raw = new Database(file);
    raw.pragma('user_version = 99');
    raw.close();
    await assert.rejects(SqliteHistoryStore.open(file), /schema version 99, newer than this server knows/);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { PartCache } from './part-cache.js';
import { SqliteHistoryDb } from './sqlite-history-db.js';

test('the part cache keeps parts within its byte budget, dropping the least recently used first, and never one larger than the budget', () => {
  const cache = new PartCache(100);
  cache.keep('a', 'vis', Buffer.alloc(40));
  cache.keep('b', 'vis', Buffer.alloc(40));
  assert.ok(cache.get('a', 'vis'));
  cache.keep('c', 'stream', Buffer.alloc(40));
  assert.equal(cache.get('b', 'vis'), undefined, 'b was the least recently used');
  assert.ok(cache.get('a', 'vis'));
  assert.ok(cache.get('c', 'stream'));
  assert.equal(cache.heldBytes, 80);
  cache.keep('d', 'vis', Buffer.alloc(101));
  assert.equal(cache.get('d', 'vis'), undefined);
  assert.equal(cache.heldBytes, 80);
});

test("forgetting a match drops all of its parts and only its", () => {
  const cache = new PartCache(1000);
  cache.keep('a', 'vis', Buffer.alloc(10));
  cache.keep('a', 'artifact:x', Buffer.alloc(10));
  cache.keep('ab', 'vis', Buffer.alloc(10));
  cache.forgetMatch('a');
  assert.equal(cache.get('a', 'vis'), undefined);
  assert.equal(cache.get('a', 'artifact:x'), undefined);
  assert.ok(cache.get('ab', 'vis'));
  assert.equal(cache.heldBytes, 10);
});

test('a part larger than the SQLite store\'s part cache is still read right a range at a time', () => {
  const dir = mkdtempSync(join(tmpdir(), 'cocod-parts-'));
  const db = new SqliteHistoryDb(join(dir, 'h.db'), { partCacheBytes: 1024 });
  try {
    const log = 'ü line\n'.repeat(1000);
    db.record([{ id: 'm', game: 'g', name: 'n', args: {}, players: ['a'], bots: 0, scores: null, reason: 'r', error: null, seed: 's', verified: false, startedAt: 1, endedAt: 2, spectatorStream: Buffer.from('s'), visJson: '[]', artifacts: { 'replay.log': log } }], 3);
    const pieces: Buffer[] = [];
    for (let offset = 0; ; offset += 333) {
      const piece = db.readPart('m', { kind: 'artifact', name: 'replay.log' }, { offset, length: 333 })!;
      if (piece.length === 0) break;
      pieces.push(piece);
    }
    assert.equal(Buffer.concat(pieces).toString(), log);
  } finally {
    db.close();
    rmSync(dir, { recursive: true, force: true });
  }
});

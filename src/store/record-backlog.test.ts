import { test } from 'node:test';
import assert from 'node:assert/strict';
import { storedSize, type NewMatchRecord } from './history-store.js';
import { DEFAULT_BACKLOG_MAX_BYTES, RecordBacklog } from './record-backlog.js';
import { DEFAULT_LIMITS } from '../gateways/server-limits.js';

function sized(id: string, bytes: number): NewMatchRecord {
  return {
    id,
    game: 'roshambo',
    name: id,
    args: {},
    players: ['alice', 'bob'],
    bots: 0,
    scores: [1, 0],
    reason: 'done',
    error: null,
    seed: 's',
    verified: false,
    startedAt: 0,
    endedAt: 1,
    spectatorStream: Buffer.alloc(bytes),
    visJson: '[]',
    artifacts: {},
  };
}

test('the backlog budget defaults to 64 MiB, the default of the history-backlog-max-bytes limit', () => {
  assert.equal(DEFAULT_BACKLOG_MAX_BYTES, 64 * 1024 * 1024);
  assert.equal(DEFAULT_LIMITS['history-backlog-max-bytes'], DEFAULT_BACKLOG_MAX_BYTES);
  assert.equal(new RecordBacklog().maxBytes, DEFAULT_BACKLOG_MAX_BYTES);
  assert.throws(() => new RecordBacklog(0), RangeError);
});

test('past its byte budget the backlog drops the oldest records to keep the newest', () => {
  const each = storedSize(sized('a', 100));
  const backlog = new RecordBacklog(2 * each);
  assert.deepEqual(backlog.push(sized('a', 100)), []);
  assert.deepEqual(backlog.push(sized('b', 100)), []);
  assert.deepEqual(backlog.bytes, 2 * each);
  const dropped = backlog.push(sized('c', 100));
  assert.deepEqual(dropped.map((entry) => entry.record.id), ['a']);
  assert.deepEqual(backlog.front(10).map((entry) => entry.record.id), ['b', 'c']);
  assert.equal(backlog.bytes, 2 * each);
});

test('a record larger than the whole budget is refused and the waiting ones stay', () => {
  const backlog = new RecordBacklog(storedSize(sized('a', 100)));
  backlog.push(sized('a', 100));
  const refused = backlog.push(sized('huge', 10_000));
  assert.deepEqual(refused.map((entry) => entry.record.id), ['huge']);
  assert.deepEqual(backlog.front(10).map((entry) => entry.record.id), ['a']);
});

test('a record pushed again replaces the waiting one; remove keeps what came meanwhile; clear empties', () => {
  const backlog = new RecordBacklog(1 << 20);
  backlog.push(sized('a', 100));
  backlog.push(sized('a', 200));
  assert.equal(backlog.count, 1);
  assert.equal(backlog.bytes, storedSize(sized('a', 200)));
  const batch = backlog.front(5);
  backlog.push(sized('b', 10));
  backlog.remove(batch);
  assert.deepEqual(backlog.front(5).map((entry) => entry.record.id), ['b']);
  assert.deepEqual(backlog.clear().map((entry) => entry.record.id), ['b']);
  assert.deepEqual([backlog.count, backlog.bytes], [0, 0]);
});

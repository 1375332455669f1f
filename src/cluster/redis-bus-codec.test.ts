import { test } from 'node:test';
import assert from 'node:assert/strict';
import { decodeBatch, encodeBatch } from './redis-bus-codec.js';
import type { BridgeMessage } from './seams.js';

test('a batch of bus messages round-trips, bytes raw after a JSON header (no base64, no arrays of numbers)', () => {
  const bytes = new Uint8Array(1000).map((_, i) => i % 256);
  const messages: BridgeMessage[] = [
    { t: 'to-player', key: 'n:1', bytes },
    { t: 'stream-start', key: 'n:2', history: new Uint8Array([1, 2, 3]) },
    { t: 'vis-history', key: 'n:5', history: new Uint8Array(Buffer.from('[{"t":0,"log":{"line":"ÿ"}}]')) },
    { t: 'join', key: 'n:3', id: 'abc', name: 'ålice', password: null },
    { t: 'leave', key: 'n:4' },
  ];
  const payload = encodeBatch('nøde-1', messages);
  assert.ok(payload.length < 1000 + 300, `${payload.length} bytes: the seat bytes cost their own size`);
  const decoded = decodeBatch(payload);
  assert.equal(decoded?.from, 'nøde-1');
  assert.deepEqual(decoded?.messages.map((m) => ({ ...m })), messages.map((m) => ({ ...m })));
});

test('a payload that is not a whole batch is refused, not half read', () => {
  const payload = encodeBatch('a', [{ t: 'to-player', key: 'k', bytes: new Uint8Array(10) }]);
  assert.equal(decodeBatch(payload.subarray(0, payload.length - 1)), null);
  assert.equal(decodeBatch(Buffer.from([0])), null);
  assert.equal(decodeBatch(Buffer.from('\u0000\u0001a\u0000\u0000\u0000\u0002{}\u0000\u0000\u0000\u0000')), null, 'a header without t and key');
});

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { Random } from './random.js';

test('equal seeds give equal sequences, different seeds differ', () => {
  const a = Random.fromSeed('x');
  const b = Random.fromSeed('x');
  const c = Random.fromSeed('y');
  const seqA = Array.from({ length: 8 }, () => a.uint32());
  assert.deepEqual(seqA, Array.from({ length: 8 }, () => b.uint32()));
  assert.notDeepEqual(seqA, Array.from({ length: 8 }, () => c.uint32()));
});

test('int stays in range and covers it', () => {
  const random = Random.fromSeed(1);
  const seen = new Set<number>();
  for (let i = 0; i < 1000; i++) {
    const v = random.int(6);
    assert.ok(v >= 0 && v < 6);
    seen.add(v);
  }
  assert.equal(seen.size, 6);
});

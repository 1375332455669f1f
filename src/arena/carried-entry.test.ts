import { test } from 'node:test';
import assert from 'node:assert/strict';
import { NOTHING_CARRIED, parseCarriedEntry } from './carried-entry.js';

const BOUNDS = { places: 2, seats: 2, name: 'amy', maxWaitMs: 60_000 };

test('carried entry: waits are kept longest first, within [0, the bound]; a claim past the bound is cut to it', () => {
  assert.deepEqual(parseCarriedEntry({ waitedMs: [1_000, 5_000], lastMet: ['bob'] }, BOUNDS), { waitedMs: [5_000, 1_000], lastMet: ['bob'] });
  assert.deepEqual(parseCarriedEntry({ waitedMs: [1e15, 2_500.7], lastMet: [] }, BOUNDS).waitedMs, [60_000, 2_500], 'longer than arena-carried-wait-seconds: cut to it');
  assert.deepEqual(parseCarriedEntry({ waitedMs: [-5_000, Number.NaN], lastMet: [] }, BOUNDS).waitedMs, [0, 0], 'a wait in the future (a clock ahead) or not a number counts as none');
  assert.deepEqual(parseCarriedEntry({ waitedMs: [1, 2, 3, 4], lastMet: [] }, BOUNDS).waitedMs, [2, 1], 'no more places than the entry has');
  assert.deepEqual(parseCarriedEntry({ waitedMs: [1_000], lastMet: [] }, { ...BOUNDS, maxWaitMs: 0 }).waitedMs, [0], 'a bound of 0: waiting starts again');
});

test('carried entry: only names a player can have are met, never the entry itself, at most one table\'s others', () => {
  assert.deepEqual(parseCarriedEntry({ waitedMs: [], lastMet: ['amy', 'bob'] }, BOUNDS).lastMet, ['bob'], 'not itself');
  assert.deepEqual(parseCarriedEntry({ waitedMs: [], lastMet: ['bob', 'cid'] }, BOUNDS).lastMet, ['bob'], 'a table of two has one other');
  assert.deepEqual(parseCarriedEntry({ waitedMs: [], lastMet: [42, 'has space', 'x'.repeat(1000), 'ServerBot', 'ServerBot$hard'] }, { ...BOUNDS, seats: 8 }).lastMet, ['ServerBot', 'ServerBot$hard'], 'anchors are players; garbage is not');
  assert.deepEqual(parseCarriedEntry({ waitedMs: [], lastMet: ['bob', 'bob'] }, { ...BOUNDS, seats: 4 }).lastMet, ['bob']);
});

test('carried entry: something that is not a carried entry carries nothing', () => {
  for (const raw of [null, 7, 'text', [], { waitedMs: 'x', lastMet: { a: 1 } }]) {
    const parsed = parseCarriedEntry(raw, BOUNDS);
    assert.deepEqual(parsed, raw === null || typeof raw !== 'object' ? NOTHING_CARRIED : { waitedMs: [], lastMet: [] }, JSON.stringify(raw));
  }
});

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { pairTables, seatOrder, tableKey, windowOf, type PairingWindow, type QueuedSlot } from './pairing.js';

const NARROW: PairingWindow = { baseMu: 2, muPerSecond: 1, rematchAfterMs: 3_000 };
const WIDE: PairingWindow = { baseMu: 100, muPerSecond: 0, rematchAfterMs: 3_000 };
const T0 = 1_000_000;

function slot(key: string, mu: number, since = T0, name = key, anchor = false): QueuedSlot {
  return { key, name, mu, since, anchor };
}

test('pairing: the nearest rating is chosen first, not the order of arrival', () => {
  const queue = [slot('a', 25, T0), slot('far', 40, T0 + 1), slot('near', 26, T0 + 2), slot('mid', 30, T0 + 3)];
  assert.deepEqual(pairTables(queue, 2, T0 + 10, WIDE), [
    ['a', 'near'],
    ['far', 'mid'],
  ]);
});

test('pairing: an entry outside the window waits, and is paired once its wait has widened the window', () => {
  const queue = [slot('a', 25, T0), slot('b', 35, T0)];
  assert.deepEqual(pairTables(queue, 2, T0, NARROW), []);
  // 10 apart: the window is 2 + 1/s, so 8 s are needed.
  assert.deepEqual(pairTables(queue, 2, T0 + 7_999, NARROW), []);
  assert.deepEqual(pairTables(queue, 2, T0 + 8_000, NARROW), [['a', 'b']]);
  assert.equal(windowOf(queue[0]!, T0 + 8_000, NARROW), 10);
});

test('pairing: the longer waiter\'s window is enough for both', () => {
  const queue = [slot('old', 25, T0), slot('new', 33, T0 + 6_000)];
  assert.deepEqual(pairTables(queue, 2, T0 + 6_000, NARROW), [['old', 'new']]);
});

test('pairing: a name never meets itself, even when its two slots are the nearest', () => {
  const queue = [slot('x#1', 25, T0, 'x'), slot('x#2', 25, T0, 'x'), slot('y', 30, T0 + 1)];
  assert.deepEqual(pairTables(queue, 2, T0, WIDE), [['x#1', 'y']]);
  assert.deepEqual(pairTables([slot('x#1', 25, T0, 'x'), slot('x#2', 25, T0, 'x')], 2, T0 + 60_000, NARROW), []);
});

test('pairing: anchors play entrants but never make a table of anchors only', () => {
  const bots = [slot('bot1', 25, T0, 'bot1', true), slot('bot2', 25, T0, 'bot2', true)];
  assert.deepEqual(pairTables(bots, 2, T0 + 600_000, NARROW), []);
  assert.deepEqual(pairTables([...bots, slot('p', 26, T0 + 5)], 2, T0 + 10, NARROW), [['bot1', 'p']]);
});

test('pairing: a game of 3 seats fills tables of 3 from the queue, the remainder waits', () => {
  const queue = ['a', 'b', 'c', 'd', 'e'].map((key, i) => slot(key, 25 + i, T0 + i));
  const tables = pairTables(queue, 3, T0 + 10, WIDE);
  assert.deepEqual(tables, [['a', 'b', 'c']]);
  assert.deepEqual(pairTables(queue.slice(0, 2), 3, T0 + 600_000, NARROW), []);
});

test('pairing: the same queue at the same time gives the same tables (ties by wait, then key)', () => {
  const queue = [slot('c', 25, T0), slot('b', 26, T0), slot('a', 24, T0)];
  const first = pairTables(queue, 2, T0, NARROW);
  assert.deepEqual(first, [['a', 'c']]);
  assert.deepEqual(pairTables([...queue].reverse(), 2, T0, NARROW), first);
});

test('seat order: two names alternate the first seat game by game; k names each take every seat in turn', () => {
  assert.deepEqual(seatOrder(['bob', 'amy'], 0), ['amy', 'bob']);
  assert.deepEqual(seatOrder(['amy', 'bob'], 1), ['bob', 'amy']);
  assert.deepEqual(seatOrder(['bob', 'amy'], 2), ['amy', 'bob']);
  const firsts = [0, 1, 2].map((n) => seatOrder(['c', 'a', 'b'], n)[0]);
  assert.deepEqual(firsts, ['a', 'b', 'c']);
  assert.equal(tableKey(['b', 'a']), tableKey(['a', 'b']));
});

test('pairing: the last opponent is met again only after both waited the rematch delay; anybody else at once', () => {
  const a = { ...slot('a', 25, T0), lastMet: ['b'] };
  const b = { ...slot('b', 25, T0), lastMet: ['a'] };
  assert.deepEqual(pairTables([a, b], 2, T0 + 2_999, NARROW), []);
  assert.deepEqual(pairTables([a, b], 2, T0 + 3_000, NARROW), [['a', 'b']]);
  // Another player, farther in rating but within the window, is taken at once.
  assert.deepEqual(pairTables([a, b, slot('c', 26, T0 + 10)], 2, T0 + 100, NARROW), [['a', 'c']]);
});

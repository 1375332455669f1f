import { test } from 'node:test';
import assert from 'node:assert/strict';
import { liveClocks, liveStatuses, readLiveSeats } from './live-seats.js';

const SEATS = readLiveSeats({
  id: 'm',
  now: 10,
  seats: [
    { name: 'ann', turn: [8, null, 30], closed: null },
    { name: 'bob', turn: [2, 7.5, 30], closed: null },
    { name: 'cy', turn: null, closed: null },
  ],
})!;

test('the seat to move runs from the server\'s time moved on by the page; an answered one shows what it had left', () => {
  assert.deepEqual(liveClocks(SEATS, 10), [
    { left: 28, limit: 30, running: true },
    { left: 24.5, limit: 30, running: false },
    { left: null, limit: null, running: false },
  ]);
  assert.deepEqual(liveClocks(SEATS, 12.5)[0], { left: 25.5, limit: 30, running: true });
  assert.deepEqual(liveClocks(SEATS, 100)[0], { left: 0, limit: 30, running: true }, 'never below zero');
});

test('a seat closed while to move stops at the server\'s time of the message, with the closure as its status', () => {
  const seats = readLiveSeats({ now: 38, seats: [{ name: 'ann', turn: [8, null, 30], closed: 'timeout' }, { name: 'bob', turn: [1, 2, null], closed: 'match-over' }] })!;
  assert.deepEqual(liveClocks(seats, 50), [
    { left: 0, limit: 30, running: false },
    { left: null, limit: null, running: false },
  ]);
  assert.deepEqual(liveStatuses(seats).map((s) => s.status), ['timeout', 'ok']);
  assert.deepEqual(liveStatuses(SEATS).map((s) => s.status), ['ok', 'ok', 'ok']);
});

test('a payload that is not VisSeats is refused; bad seats become harmless', () => {
  assert.equal(readLiveSeats(null), null);
  assert.equal(readLiveSeats({ now: 'x', seats: [] }), null);
  assert.deepEqual(readLiveSeats({ now: 1, seats: [7, { name: 'a', turn: ['x'], closed: 3 }] })!.seats, [
    { name: '', turn: null, closed: null },
    { name: 'a', turn: null, closed: null },
  ]);
});

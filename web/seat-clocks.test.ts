import { test } from 'node:test';
import assert from 'node:assert/strict';
import { clocksAt, formatClock, readClockRecord } from './seat-clocks.js';

const RECORD = JSON.stringify({
  version: 1,
  ended: 20,
  seats: [
    { turns: [[0, 2.5, 30], [5, 6, 30]], dropped: 0 },
    { turns: [[2.5, 5, 30], [6, null, 30]], dropped: 0 },
  ],
});

test('the seat to move has its clock running: the limit less the time since it was asked', () => {
  const clock = readClockRecord(RECORD)!;
  assert.deepEqual(clocksAt(clock, 1), [
    { left: 29, limit: 30, running: true },
    { left: null, limit: 30, running: false },
  ]);
  assert.deepEqual(clocksAt(clock, 3.5), [
    { left: 27.5, limit: 30, running: false },
    { left: 29, limit: 30, running: true },
  ]);
});

test('between its turns a seat shows what it had left when it answered; an unanswered turn stops at the end of the game', () => {
  const clock = readClockRecord(RECORD)!;
  assert.deepEqual(clocksAt(clock, 5.5), [
    { left: 29.5, limit: 30, running: true },
    { left: 27.5, limit: 30, running: false },
  ]);
  assert.deepEqual(clocksAt(clock, 100), [
    { left: 29, limit: 30, running: false },
    { left: 16, limit: 30, running: false },
  ]);
});

test('a turn with no answer ends at the same seat\'s next turn; a clock never goes below zero', () => {
  const clock = readClockRecord(JSON.stringify({ version: 1, ended: 50, seats: [{ turns: [[0, null, 3], [10, 11, 3]] }] }))!;
  assert.deepEqual(clocksAt(clock, 5), [{ left: 0, limit: 3, running: true }]);
  assert.deepEqual(clocksAt(clock, 9.9), [{ left: 0, limit: 3, running: true }]);
  assert.deepEqual(clocksAt(clock, 10.5), [{ left: 2.5, limit: 3, running: true }]);
});

test('between a move and the next ask (a pace), the seat asked next is shown to move with its whole limit, as lichess switches clocks with the move', () => {
  const clock = readClockRecord(JSON.stringify({ version: 1, ended: 20, seats: [{ turns: [[0, 1, 10]] }, { turns: [[1.5, 3, 10]] }] }))!;
  assert.deepEqual(clocksAt(clock, 0.5), [
    { left: 9.5, limit: 10, running: true },
    { left: null, limit: 10, running: false },
  ]);
  assert.deepEqual(clocksAt(clock, 1.2), [
    { left: 9, limit: 10, running: false },
    { left: 10, limit: 10, running: true },
  ]);
});

test('a move with no limit has no time left to show', () => {
  const clock = readClockRecord(JSON.stringify({ version: 1, ended: 5, seats: [{ turns: [[1, 2, null]] }] }))!;
  assert.deepEqual(clocksAt(clock, 1.5), [{ left: null, limit: null, running: true }]);
});

test('no clock from an old record, a malformed one or an unknown version', () => {
  assert.equal(readClockRecord(null), null);
  assert.equal(readClockRecord('{'), null);
  assert.equal(readClockRecord(JSON.stringify({ version: 2, ended: 1, seats: [] })), null);
  const junk = readClockRecord(JSON.stringify({ version: 1, ended: 1, seats: [{ turns: [['x'], [1, 'y', -1], 7] }, 'z'] }))!;
  assert.deepEqual(junk.seats, [[{ asked: 1, answered: null, limit: null }], []]);
});

test('a clock reads as lichess\'s: tenths under a minute, m:ss from one, h:mm:ss from an hour', () => {
  assert.equal(formatClock(9.87), '9.8');
  assert.equal(formatClock(-1), '0.0');
  assert.equal(formatClock(90), '1:30');
  assert.equal(formatClock(3725), '1:02:05');
});

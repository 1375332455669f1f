import { test } from 'node:test';
import assert from 'node:assert/strict';
import { clocksAt, drawnByTimes, eventsShown, formatClock, readClockRecord } from './seat-clocks.js';

/** Seat 0 asked after 2 events, answers 2.5 s later (its move drawn as events 2-3); seat 1 likewise after 4, then seat 0 again, who never answers (ran out). */
const RECORD = JSON.stringify({
  version: 1,
  ended: 20,
  seats: [
    { turns: [[0, 2.5, 30, 2, 2], [5, null, 3, 6, null]], dropped: 0 },
    { turns: [[2.5, 5, 30, 4, 4]], dropped: 0 },
  ],
});

test('before a seat is asked it has no time shown; the seat asked is to move with its whole limit', () => {
  const clock = readClockRecord(RECORD)!;
  assert.deepEqual(clocksAt(clock, 0), [
    { left: null, limit: 30, running: false },
    { left: null, limit: 30, running: false },
  ]);
  assert.deepEqual(clocksAt(clock, 2), [
    { left: 30, limit: 30, running: true },
    { left: null, limit: 30, running: false },
  ]);
});

test('once its move is drawn a seat shows what it had left when it answered, and the next seat is to move', () => {
  const clock = readClockRecord(RECORD)!;
  assert.deepEqual(clocksAt(clock, 3), [
    { left: 27.5, limit: 30, running: false },
    { left: null, limit: 30, running: false },
  ]);
  assert.deepEqual(clocksAt(clock, 4), [
    { left: 27.5, limit: 30, running: false },
    { left: 30, limit: 30, running: true },
  ]);
  assert.deepEqual(clocksAt(clock, 6), [
    { left: 3, limit: 3, running: true },
    { left: 27.5, limit: 30, running: false },
  ]);
});

test('at the end a turn never answered shows what was left when it ended: 0.0 for a seat that ran out', () => {
  const clock = readClockRecord(RECORD)!;
  assert.deepEqual(clocksAt(clock, 7, true), [
    { left: 0, limit: 3, running: false },
    { left: 27.5, limit: 30, running: false },
  ]);
  const early = readClockRecord(JSON.stringify({ version: 1, ended: 4, seats: [{ turns: [[3, null, 30, 0]] }] }))!;
  assert.deepEqual(clocksAt(early, 1, true), [{ left: 29, limit: 30, running: false }], 'the match ended first');
});

test('a move with no limit has no time left to show', () => {
  const clock = readClockRecord(JSON.stringify({ version: 1, ended: 5, seats: [{ turns: [[1, 2, null, 0, 0]] }] }))!;
  assert.deepEqual(clocksAt(clock, 0), [{ left: null, limit: null, running: true }]);
  assert.deepEqual(clocksAt(clock, 1), [{ left: null, limit: null, running: false }]);
});

test('the events drawn at a picture time: a prefix of the record, an event drawn ahead of its successors counted at its own time', () => {
  const times = drawnByTimes([{ t: 0 }, { t: 0 }, { t: 1.5 }, { t: 1 }, { t: 2 }]);
  assert.deepEqual(times, [0, 0, 1.5, 1.5, 2]);
  assert.equal(eventsShown(times, -1), 0);
  assert.equal(eventsShown(times, 0), 2);
  assert.equal(eventsShown(times, 1.2), 2);
  assert.equal(eventsShown(times, 1.5), 4);
  assert.equal(eventsShown(times, 9), 5);
});

test('no clock from an old record, a malformed one or an unknown version; malformed turns are left out', () => {
  assert.equal(readClockRecord(null), null);
  assert.equal(readClockRecord('{'), null);
  assert.equal(readClockRecord(JSON.stringify({ version: 2, ended: 1, seats: [] })), null);
  const junk = readClockRecord(JSON.stringify({ version: 1, ended: 1, seats: [{ turns: [['x'], [1, 'y', -1, 3], [1, 2, 5], 7] }, 'z'] }))!;
  assert.deepEqual(junk.seats, [[{ asked: 1, answered: null, limit: null, eventsBeforeAsk: 3, eventsBeforeAnswer: null }], []]);
});

test('turns kept unplaced (a derived game\'s record read before the server placed them) are skipped: no clock rather than a wrong one', () => {
  const raw = readClockRecord('{"version":1,"ended":12,"seats":[{"turns":[[0,2,10],[2,null,10]],"dropped":0},{"turns":[[0,1.5,10]],"dropped":0}]}')!;
  assert.deepEqual(raw.seats, [[], []]);
  assert.deepEqual(clocksAt(raw, 5, true), [{ left: null, limit: null, running: false }, { left: null, limit: null, running: false }]);
});

test('a clock reads as lichess\'s: tenths under a minute, m:ss from one, h:mm:ss from an hour', () => {
  assert.equal(formatClock(9.87), '9.8');
  assert.equal(formatClock(-1), '0.0');
  assert.equal(formatClock(90), '1:30');
  assert.equal(formatClock(3725), '1:02:05');
});

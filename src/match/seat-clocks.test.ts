import { test } from 'node:test';
import assert from 'node:assert/strict';
import { CLOCK_RECORD, SeatClocks } from './seat-clocks.js';

function clocksAt(times: number[]): { clocks: SeatClocks; tick: () => void } {
  let i = 0;
  return { clocks: new SeatClocks(2, () => times[Math.min(i, times.length - 1)]!), tick: () => i++ };
}

test('a turn runs from the ask to the answer, with its limit, in match seconds rounded to the millisecond, and the pictures drawn before each', () => {
  let now = 0.0104;
  let events = 3;
  const clocks = new SeatClocks(2, () => now, { visEvents: () => events });
  clocks.toMove(0, 30);
  now = 1.5206;
  events = 5;
  clocks.moved(0);
  events = 8;
  now = 2;
  clocks.toMove(1, 30);
  now = 2.25;
  assert.deepEqual(JSON.parse(clocks.json()!), {
    version: CLOCK_RECORD.version,
    ended: 2.25,
    seats: [
      { turns: [[0.01, 1.521, 30, 3, 5]], dropped: 0 },
      { turns: [[2, null, 30, 8, null]], dropped: 0 },
    ],
  });
});

test('a game that never says who is to move leaves no clock (json is null)', () => {
  const { clocks } = clocksAt([0]);
  clocks.moved(0);
  assert.equal(clocks.json(), null);
});

test('a line taken with no turn open changes nothing; asked again before answering, the earlier turn ends unanswered', () => {
  let now = 1;
  const clocks = new SeatClocks(1, () => now);
  clocks.moved(0);
  clocks.toMove(0, 10);
  now = 4;
  clocks.toMove(0, Number.POSITIVE_INFINITY);
  now = 5;
  clocks.moved(0);
  clocks.moved(0);
  assert.deepEqual(JSON.parse(clocks.json()!).seats[0].turns, [
    [1, null, 10, 0, null],
    [4, 5, null, 0, 0],
  ]);
});

test(`a seat keeps at most ${CLOCK_RECORD.maxTurnsPerSeat} turns and counts the rest as dropped`, () => {
  let now = 0;
  const clocks = new SeatClocks(1, () => now);
  for (let i = 0; i < CLOCK_RECORD.maxTurnsPerSeat + 3; i++) {
    clocks.toMove(0, 1);
    now += 0.5;
    clocks.moved(0);
  }
  const seat = JSON.parse(clocks.json()!).seats[0];
  assert.equal(seat.turns.length, CLOCK_RECORD.maxTurnsPerSeat);
  assert.equal(seat.dropped, 3);
});

test('a seat out of range is ignored', () => {
  const { clocks } = clocksAt([0]);
  clocks.toMove(5, 1);
  clocks.moved(-1);
  assert.equal(clocks.json(), null);
});

test('without keeping turns (a game whose pictures are derived) the latest turn is still told, changed in place, and the record has no clock', () => {
  let now = 1;
  let changes = 0;
  const clocks = new SeatClocks(1, () => now, { keepTurns: false, onChange: () => changes++ });
  assert.equal(clocks.latest(0), null);
  clocks.toMove(0, 30);
  now = 2;
  clocks.moved(0);
  const first = clocks.latest(0);
  assert.deepEqual(first, [1, 2, 30]);
  clocks.toMove(0, 30);
  assert.deepEqual(clocks.latest(0), [2, null, 30]);
  assert.deepEqual(first, [1, 2, 30], 'latest gives a copy');
  assert.equal(changes, 3);
  assert.equal(clocks.json(), null);
});

test(`past ${CLOCK_RECORD.maxTurnsPerSeat} turns the record stops growing, but a live viewer still sees each turn`, () => {
  let now = 0;
  const clocks = new SeatClocks(1, () => now);
  for (let i = 0; i <= CLOCK_RECORD.maxTurnsPerSeat; i++) {
    clocks.toMove(0, 1);
    now += 1;
    clocks.moved(0);
  }
  assert.deepEqual(clocks.latest(0), [CLOCK_RECORD.maxTurnsPerSeat, CLOCK_RECORD.maxTurnsPerSeat + 1, 1]);
});

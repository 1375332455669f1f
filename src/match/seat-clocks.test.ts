import { test } from 'node:test';
import assert from 'node:assert/strict';
import { CLOCK_RECORD, SeatClocks, TurnPlaces } from './seat-clocks.js';

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

test('placed by a replay (a game whose pictures are derived), the record keeps each turn unplaced, and the latest turn is still told, changed in place', () => {
  let now = 1;
  let changes = 0;
  const clocks = new SeatClocks(1, () => now, { placement: 'replay', onChange: () => changes++, visEvents: () => 7 });
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
  assert.equal(clocks.json(), '{"version":1,"ended":2,"seats":[{"turns":[[1,2,30],[2,null,30]],"dropped":0}]}');
});

test('a replay places the unplaced turns by the events it drew at each ask and answer, seat by seat, as a game drawn while played would have', () => {
  let now = 0;
  const clocks = new SeatClocks(2, () => now, { placement: 'replay' });
  let drawn = 0;
  const places = new TurnPlaces(2, () => drawn);
  // The match: both seats asked at 0; seat 1 answers at 1.5, seat 0 at 2; seat 0 asked again, never answers.
  clocks.toMove(0, 10);
  clocks.toMove(1, 10);
  now = 1.5;
  clocks.moved(1);
  now = 2;
  clocks.moved(0);
  clocks.toMove(0, 10);
  now = 12;
  // The replay: the same asks and lines, in the same order per seat, with the events drawn between.
  drawn = 1;
  places.toMove(0);
  places.toMove(1);
  places.moved(0);
  places.moved(1);
  drawn = 3;
  places.toMove(0);
  places.moved(1); // no turn of seat 1 open: nothing
  assert.equal(
    places.place(clocks.json()!),
    '{"version":1,"ended":12,"seats":[{"turns":[[0,2,10,1,1],[2,null,10,3,null]],"dropped":0},{"turns":[[0,1.5,10,1,1]],"dropped":0}]}',
  );
});

test('turns the replay did not see stay unplaced (a reader skips them); a text that is not a clock record is refused', () => {
  const places = new TurnPlaces(1, () => 4);
  places.toMove(0);
  places.moved(0);
  assert.equal(
    places.place('{"version":1,"ended":9,"seats":[{"turns":[[0,1,5],[1,2,5]],"dropped":0},{"turns":[[0,null,5]],"dropped":0}]}'),
    '{"version":1,"ended":9,"seats":[{"turns":[[0,1,5,4,4],[1,2,5]],"dropped":0},{"turns":[[0,null,5]],"dropped":0}]}',
  );
  assert.equal(places.place('not json'), null);
  assert.equal(places.place('{"version":1}'), null);
});

test(`a replay places at most ${CLOCK_RECORD.maxTurnsPerSeat} turns a seat, as the record keeps`, () => {
  let drawn = 0;
  const places = new TurnPlaces(1, () => drawn);
  for (let i = 0; i < CLOCK_RECORD.maxTurnsPerSeat + 2; i++) {
    places.toMove(0);
    drawn++;
    places.moved(0);
  }
  const turns = Array.from({ length: CLOCK_RECORD.maxTurnsPerSeat }, (_, i) => [i, i + 1, 1]);
  const placed = JSON.parse(places.place(JSON.stringify({ version: 1, ended: 1, seats: [{ turns, dropped: 2 }] }))!);
  assert.deepEqual(placed.seats[0].turns.at(-1), [CLOCK_RECORD.maxTurnsPerSeat - 1, CLOCK_RECORD.maxTurnsPerSeat, 1, CLOCK_RECORD.maxTurnsPerSeat - 1, CLOCK_RECORD.maxTurnsPerSeat]);
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

test('the record is written as JSON.stringify would write it, in both placements, over seeded random turns', () => {
  let seed = 7;
  const next = (): number => (seed = (seed * 48271) % 2147483647) / 2147483647;
  for (const placement of ['events', 'replay'] as const) {
    for (let trial = 0; trial < 50; trial++) {
      let now = 0;
      let events = 0;
      const clocks = new SeatClocks(3, () => now, { placement, visEvents: () => events });
      for (let step = 0; step < 40; step++) {
        const seat = Math.floor(next() * 4) - 1 + (step === 0 ? 1 : 0);
        now += next() * 3;
        events += Math.floor(next() * 3);
        if (next() < 0.6) clocks.toMove(seat, [30, 0.0005, Number.POSITIVE_INFINITY, Number.NaN][Math.floor(next() * 4)]!);
        else clocks.moved(seat);
      }
      const text = clocks.json()!;
      assert.equal(text, JSON.stringify(JSON.parse(text)));
      const turns = (JSON.parse(text) as { seats: { turns: unknown[][] }[] }).seats.flatMap((seat) => seat.turns);
      assert.ok(turns.every((turn) => turn.length === (placement === 'events' ? 5 : 3)));
    }
  }
});

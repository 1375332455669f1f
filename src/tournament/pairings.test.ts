import { test } from 'node:test';
import assert from 'node:assert/strict';
import { gauntlet, meetingKey, roundRobin, swissRound, type Pairing } from './pairings.js';

/** How many times each ordered seating `a,b` occurs. */
function seatings(pairings: readonly Pairing[]): Map<string, number> {
  const counts = new Map<string, number>();
  for (const p of pairings) counts.set(p.seats.join(','), (counts.get(p.seats.join(',')) ?? 0) + 1);
  return counts;
}

test('round-robin: with 2 rounds every pair plays 4 games, 2 in each seat order, numbered 0..n-1', () => {
  const schedule = roundRobin(3, 2);
  assert.equal(schedule.length, 3 * 4);
  assert.deepEqual(schedule.map((p) => p.index), [...schedule.keys()]);
  assert.deepEqual(Object.fromEntries(seatings(schedule)), { '0,1': 2, '1,0': 2, '0,2': 2, '2,0': 2, '1,2': 2, '2,1': 2 });
  // Each repetition is complete before the next begins.
  assert.deepEqual(schedule.map((p) => p.round), [0, 0, 0, 0, 0, 0, 1, 1, 1, 1, 1, 1]);
});

test('round-robin: each player sits in seat 0 as often as in seat 1', () => {
  const schedule = roundRobin(5, 3);
  for (let player = 0; player < 5; player++) {
    assert.equal(schedule.filter((p) => p.seats[0] === player).length, schedule.filter((p) => p.seats[1] === player).length);
  }
});

test('gauntlet: the first player meets each other one, N games in each seat order, and nobody else meets', () => {
  const schedule = gauntlet(4, 2);
  assert.equal(schedule.length, 3 * 4);
  assert.ok(schedule.every((p) => p.seats.includes(0)));
  assert.deepEqual(Object.fromEntries(seatings(schedule)), { '0,1': 2, '1,0': 2, '0,2': 2, '2,0': 2, '0,3': 2, '3,0': 2 });
});

test('swiss: the first round pairs everyone, two games per pair in both seat orders, from the given index', () => {
  const round = swissRound({ points: [0, 0, 0, 0], met: new Set(), byes: [0, 0, 0, 0] }, 0, 'seed', 10);
  assert.equal(round.bye, null);
  assert.equal(round.pairings.length, 4);
  assert.deepEqual(round.pairings.map((p) => p.index), [10, 11, 12, 13]);
  assert.deepEqual(round.pairings[1]!.seats, [round.pairings[0]!.seats[1], round.pairings[0]!.seats[0]]);
  const seen = round.pairings.flatMap((p) => p.seats);
  assert.deepEqual([...new Set(seen)].sort(), [0, 1, 2, 3]);
});

test('swiss: the same seed and results give the same round; another seed may break ties otherwise', () => {
  const state = { points: [0, 0, 0, 0, 0, 0], met: new Set<string>(), byes: [0, 0, 0, 0, 0, 0] };
  assert.deepEqual(swissRound(state, 0, 'a', 0), swissRound(state, 0, 'a', 0));
  const firsts = new Set(['a', 'b', 'c', 'd', 'e', 'f'].map((seed) => JSON.stringify(swissRound(state, 0, seed, 0).pairings)));
  assert.ok(firsts.size > 1);
});

test('swiss: players are paired by score, and pairs that met are not paired again', () => {
  // 0 and 1 lead with 2 points but met already: each takes the nearest other player.
  const state = { points: [2, 2, 1, 1], met: new Set([meetingKey(0, 1), meetingKey(2, 3)]), byes: [0, 0, 0, 0] };
  const round = swissRound(state, 1, 'seed', 4);
  const meetings = round.pairings.filter((_, i) => i % 2 === 0).map((p) => meetingKey(...p.seats));
  assert.ok(!meetings.includes(meetingKey(0, 1)) && !meetings.includes(meetingKey(2, 3)), meetings.join(' '));
  // With nobody met and clear scores, the top two meet.
  const fresh = swissRound({ points: [0, 3, 1, 2], met: new Set(), byes: [0, 0, 0, 0] }, 1, 'seed', 0);
  assert.deepEqual(fresh.pairings.filter((_, i) => i % 2 === 0).map((p) => meetingKey(...p.seats)), [meetingKey(1, 3), meetingKey(2, 0)]);
});

test('swiss: with an odd number of players the lowest-ranked without a bye sits out; repeats when unavoidable', () => {
  const round = swissRound({ points: [3, 0, 2], met: new Set(), byes: [0, 0, 0] }, 1, 'seed', 0);
  assert.equal(round.bye, 1);
  const next = swissRound({ points: [3, 0, 2], met: new Set(), byes: [0, 1, 0] }, 2, 'seed', 0);
  assert.equal(next.bye, 2);
  const repeat = swissRound({ points: [1, 1], met: new Set([meetingKey(0, 1)]), byes: [0, 0] }, 3, 'seed', 0);
  assert.equal(repeat.pairings.length, 2);
});

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

/** How many times each player sits in each seat: counts[player][seat]. */
function seatCounts(pairings: readonly Pairing[], players: number, seats: number): number[][] {
  const counts = Array.from({ length: players }, () => new Array<number>(seats).fill(0));
  for (const p of pairings) p.seats.forEach((player, seat) => counts[player]![seat]!++);
  return counts;
}

/** The schedule's tables: each pairing's players as a sorted key, with how many games it played. */
function tables(pairings: readonly Pairing[]): Map<string, number> {
  const counts = new Map<string, number>();
  for (const p of pairings) {
    const key = [...p.seats].sort((a, b) => a - b).join(',');
    counts.set(key, (counts.get(key) ?? 0) + 1);
  }
  return counts;
}

/** Whether each table's games, in schedule order, are the rotations of its first game's seats. */
function rotations(pairings: readonly Pairing[], k: number): boolean {
  for (let t = 0; t < pairings.length; t += k) {
    const first = pairings[t]!.seats;
    for (let shift = 0; shift < k; shift++) {
      const expected = [...first.slice(shift), ...first.slice(0, shift)];
      if (pairings[t + shift]!.seats.join(',') !== expected.join(',')) return false;
    }
  }
  return true;
}

test('2-player schedules are the same as they always were: pairs in order, both seat orders, one after the other', () => {
  assert.deepEqual(roundRobin(3, 1).map((p) => p.seats), [[0, 1], [1, 0], [0, 2], [2, 0], [1, 2], [2, 1]]);
  assert.deepEqual(gauntlet(3, 1).map((p) => [p.index, p.seats]), [[0, [0, 1]], [1, [1, 0]], [2, [0, 2]], [3, [2, 0]]]);
  assert.deepEqual(roundRobin(4, 2, 2), roundRobin(4, 2));
});

for (const k of [3, 4]) {
  test(`round-robin at tables of ${k}: every ${k}-subset once per round, in each rotation, each player in each seat equally often`, () => {
    const players = 6;
    const rounds = 2;
    const schedule = roundRobin(players, rounds, k);
    const subsetsCount = k === 3 ? 20 : 15;
    assert.equal(schedule.length, subsetsCount * k * rounds);
    assert.deepEqual(schedule.map((p) => p.index), [...schedule.keys()]);
    assert.ok(schedule.every((p) => p.seats.length === k && new Set(p.seats).size === k));
    assert.equal(tables(schedule).size, subsetsCount);
    assert.ok([...tables(schedule).values()].every((games) => games === k * rounds));
    assert.ok(rotations(schedule, k));
    // Each player is at C(5, k-1) tables a round and plays each of them once in each seat.
    const perSeat = (k === 3 ? 10 : 10) * rounds;
    assert.deepEqual(seatCounts(schedule, players, k), Array.from({ length: players }, () => new Array<number>(k).fill(perSeat)));
    assert.deepEqual(schedule.map((p) => p.round), [...new Array<number>(schedule.length / 2).fill(0), ...new Array<number>(schedule.length / 2).fill(1)]);
  });

  test(`gauntlet at tables of ${k}: the first player with every ${k - 1} of the others, each in each seat equally often`, () => {
    const players = 5;
    const schedule = gauntlet(players, 1, k);
    const others = k === 3 ? 6 : 4; // C(4, k-1)
    assert.equal(schedule.length, others * k);
    assert.ok(schedule.every((p) => p.seats.includes(0) && p.seats.length === k));
    assert.equal(tables(schedule).size, others);
    assert.ok(rotations(schedule, k));
    const counts = seatCounts(schedule, players, k);
    assert.deepEqual(counts[0], new Array<number>(k).fill(others));
    // The others: each is at C(3, k-2) tables, once in each seat at each.
    const each = k === 3 ? 3 : 3;
    for (let player = 1; player < players; player++) assert.deepEqual(counts[player], new Array<number>(k).fill(each));
  });

  test(`swiss at tables of ${k}: whole tables in every rotation, the players left over sit out, fewest byes first`, () => {
    const players = 2 * k + 1;
    const round = swissRound({ points: new Array<number>(players).fill(0), met: new Set(), byes: new Array<number>(players).fill(0) }, 0, 'seed', 7, k);
    assert.equal(round.pairings.length, 2 * k);
    assert.deepEqual(round.pairings.map((p) => p.index), Array.from({ length: 2 * k }, (_, i) => 7 + i));
    assert.ok(rotations(round.pairings, k));
    assert.equal(round.sittingOut.length, 1);
    assert.equal(round.bye, round.sittingOut[0]);
    const seated = round.pairings.flatMap((p) => p.seats);
    assert.deepEqual([...new Set([...seated, ...round.sittingOut])].sort((a, b) => a - b), Array.from({ length: players }, (_, i) => i));
    const counts = seatCounts(round.pairings, players, k);
    for (let player = 0; player < players; player++) {
      assert.deepEqual(counts[player], new Array<number>(k).fill(round.sittingOut.includes(player) ? 0 : 1));
    }
    // Two left over: the lowest-ranked two; next round, those with a bye already play.
    const twoOver = swissRound({ points: Array.from({ length: k + 2 }, (_, i) => k + 2 - i), met: new Set(), byes: new Array<number>(k + 2).fill(0) }, 1, 'seed', 0, k);
    assert.deepEqual(twoOver.sittingOut, [k + 1, k]);
    assert.equal(twoOver.bye, null);
    const next = swissRound({ points: Array.from({ length: k + 2 }, (_, i) => k + 2 - i), met: new Set(), byes: [...new Array<number>(k).fill(0), 1, 1] }, 2, 'seed', 0, k);
    assert.deepEqual(next.sittingOut, [k - 1, k - 2]);
  });
}

test('swiss at tables of 3: nearest scores sit together, and no two players who met share a table again while it can be avoided', () => {
  const fresh = swissRound({ points: [5, 4, 3, 2, 1, 0], met: new Set(), byes: new Array<number>(6).fill(0) }, 1, 'seed', 0, 3);
  assert.deepEqual(fresh.pairings.filter((_, i) => i % 3 === 0).map((p) => p.seats), [[0, 1, 2], [3, 4, 5]]);
  // 0 and 1 met: 0 takes the nearest two it may sit with (2 and 3), and 1 the rest.
  const apart = swissRound({ points: [5, 4, 3, 2, 1, 0], met: new Set([meetingKey(0, 1)]), byes: new Array<number>(6).fill(0) }, 1, 'seed', 0, 3);
  assert.deepEqual(apart.pairings.filter((_, i) => i % 3 === 0).map((p) => p.seats), [[0, 2, 3], [1, 4, 5]]);
  // Everyone met everyone: repeats are allowed, by score.
  const all = new Set(['0-1', '0-2', '1-2']);
  const repeat = swissRound({ points: [0, 2, 1], met: all, byes: [0, 0, 0] }, 3, 'seed', 0, 3);
  assert.deepEqual(repeat.pairings.map((p) => p.seats), [[1, 2, 0], [2, 0, 1], [0, 1, 2]]);
});

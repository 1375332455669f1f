import { test } from 'node:test';
import assert from 'node:assert/strict';
import { tableMeetings, type Pairing } from './pairings.js';
import { placesFromScores } from './places.js';
import type { ResultLine } from './results-file.js';
import { checkSchedule, matchesPerRound, runSchedule, SCHEDULE_LIMITS, scheduleSize } from './schedule.js';

test('schedule sizes: the 2-player counts of before, and k times the tables for k seats', () => {
  assert.equal(scheduleSize('round-robin', 5, 2), 5 * 4 * 2);
  assert.equal(scheduleSize('gauntlet', 5, 3), 2 * 4 * 3);
  assert.equal(scheduleSize('swiss', 5, 2), 4 * 2);
  assert.equal(matchesPerRound('round-robin', 6, 3), 3 * 20);
  assert.equal(matchesPerRound('gauntlet', 6, 4), 4 * 10);
  assert.equal(matchesPerRound('swiss', 10, 4), 8);
});

test('a schedule needs k entrants, and is refused past its limit (SCHEDULE_LIMITS.matches) before a pairing is made', () => {
  assert.deepEqual(checkSchedule('round-robin', 2, 1, 3), { ok: false, error: 'a game of 3 players needs at least 3 entrants, not 2' });
  assert.deepEqual(checkSchedule('round-robin', 6, 1, 3), { ok: true, value: 60 });
  assert.deepEqual(checkSchedule('round-robin', 6, 1, 3, 59), { ok: false, error: 'a round-robin of 6 entrants at tables of 3 over 1 rounds is 60 matches: at most 59' });
  // 64 entrants at tables of 32: some 10^19 matches, refused without making them.
  const huge = checkSchedule('round-robin', 64, 1, 32);
  assert.equal(huge.ok, false);
  assert.equal(SCHEDULE_LIMITS.matches, 1_000_000);
  assert.equal(checkSchedule('round-robin', 1001, 1, 2).ok, false);
  assert.equal(checkSchedule('round-robin', 1000, 1, 2).ok, true);
});

/** Plays a schedule with a stand-in for the matches: the seat with the lowest player index wins each game. */
async function play(format: 'round-robin' | 'gauntlet' | 'swiss', players: number, rounds: number, k: number, previous: readonly ResultLine[] = []): Promise<{ played: Pairing[]; results: ResultLine[] }> {
  const names = Array.from({ length: players }, (_, i) => `p${i}`);
  const results = [...previous];
  const played: Pairing[] = [];
  await runSchedule(
    { format, rounds, names, seatsPerMatch: k, seed: 'fixed', concurrency: 3 },
    {
      results,
      done: new Set(previous.map((r) => r.pairing)),
      more: () => true,
      play: async (pairing) => {
        played.push(pairing);
        const scores = pairing.seats.map((i) => players - i);
        results.push({ pairing: pairing.index, players: pairing.seats.map((i) => names[i]!), scores, outcome: placesFromScores(scores).join('-') as ResultLine['outcome'], match: `m${pairing.index}`, reason: '', crashed: [], timedOut: [], illegal: [] });
      },
    },
  );
  return { played, results };
}

test('swiss at tables of 3 over 2 rounds of 9: nobody shares a table twice', async () => {
  const { played } = await play('swiss', 9, 2, 3);
  assert.equal(played.length, 2 * 9);
  const met = new Map<string, number>();
  for (let t = 0; t < played.length; t += 3) for (const key of tableMeetings(played[t]!.seats)) met.set(key, (met.get(key) ?? 0) + 1);
  assert.equal(met.size, 18);
  assert.ok([...met.values()].every((n) => n === 1), JSON.stringify([...met]));
});

test('swiss at tables of 3 over 3 rounds of 7: one sits out each round, each a different one; repeats only where a round cannot avoid them', async () => {
  const { played } = await play('swiss', 7, 3, 3);
  assert.equal(played.length, 3 * 6);
  const out = [0, 1, 2].map((round) => {
    const seated = new Set(played.filter((p) => p.round === round).flatMap((p) => p.seats));
    return Array.from({ length: 7 }, (_, i) => i).filter((i) => !seated.has(i));
  });
  assert.ok(out.every((o) => o.length === 1));
  assert.equal(new Set(out.flat()).size, 3);
  // Round 1 seats two tables of 3 apart from the one out; round 2 has 6 players, 3 of whom
  // shared a table in round 1, at 2 tables: two of those 3 must meet again, and only they do.
  const round = (r: number): string[] => played.filter((p) => p.round === r && p.index % 3 === 0).flatMap((p) => tableMeetings(p.seats));
  const repeats = round(1).filter((key) => round(0).includes(key));
  assert.ok(repeats.length >= 1 && repeats.length <= 2, repeats.join(' '));
});

test('resume of a 4-seat schedule: the games already in the results are not played again, and the rest make the same schedule', async () => {
  const whole = await play('round-robin', 5, 1, 4);
  assert.equal(whole.played.length, 20);
  const resumed = await play('round-robin', 5, 1, 4, whole.results.slice(0, 7));
  assert.deepEqual(resumed.played.map((p) => p.index), whole.played.slice(7).map((p) => p.index).sort((a, b) => a - b));
  const swiss = await play('swiss', 9, 3, 4);
  const swissResumed = await play('swiss', 9, 3, 4, swiss.results.slice(0, 10));
  // The same seating for every game, whether played in one go or resumed.
  const bySeat = (results: readonly ResultLine[]): string[] => [...results].sort((a, b) => a.pairing - b.pairing).map((r) => `${r.pairing}:${r.players.join(' ')}`);
  assert.deepEqual(bySeat(swissResumed.results), bySeat(swiss.results));
});

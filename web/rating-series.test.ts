import { test } from 'node:test';
import assert from 'node:assert/strict';
import { matchLabel, ratingSeries } from './rating-series.js';
import { readPlayerRatings, readRatings } from './ratings-api.js';

test('the chart has one point a match, evenly spaced, with the rating and mu of each', () => {
  const history = [
    { matchId: 'm1', endedAt: Date.UTC(2026, 10, 24, 19, 27), rating: -3.5, mu: 25.5, sigma: 9.6 },
    { matchId: 'm2', endedAt: Date.UTC(2026, 10, 24, 19, 30), rating: 0.25, mu: 26, sigma: 8.5 },
  ];
  assert.deepEqual(ratingSeries(history), [[1, 2], [-3.5, 0.25], [25.5, 26]]);
  assert.deepEqual(ratingSeries([]), [[], [], []]);
  const date = (ms: number): string => new Date(ms).toISOString().slice(0, 16);
  assert.equal(matchLabel(history, 2, date), 'match 2 of 2, 2026-11-24T19:30');
  assert.equal(matchLabel(history, null, date), '');
  assert.equal(matchLabel(history, 3, date), '');
});

test('ratings bodies are read field by field; rows and points without a name, id or rating are left out', () => {
  assert.deepEqual(readRatings({ ratings: [{ rank: 1, player: 'ann', rating: 1.5, mu: 20, sigma: 6, games: 2 }, { rank: 2, rating: 1 }, 'x'] }), [
    { rank: 1, player: 'ann', rating: 1.5, mu: 20, sigma: 6, games: 2 },
  ]);
  assert.deepEqual(readRatings(null), []);
  const player = readPlayerRatings({ history: [{ match_id: 'm1', ended_at: 5, rating: 2, mu: 25, sigma: 7 }, { match_id: 'm2', rating: 'high' }], matches: 'nope' });
  assert.deepEqual(player, { history: [{ matchId: 'm1', endedAt: 5, rating: 2, mu: 25, sigma: 7 }], matches: [] });
});

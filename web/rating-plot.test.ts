import { test } from 'node:test';
import assert from 'node:assert/strict';
import { plotGeometry } from './rating-plot.js';
import { readPlayerRatings, readRatings } from './ratings-api.js';

test('the plot spaces matches evenly, the highest rating at the top edge and the lowest at the bottom', () => {
  assert.deepEqual(plotGeometry([0, 10, 5], 100, 50, 5), { points: '5,45 50,5 95,25', top: 10, bottom: 0 });
});

test('one match, or a flat line, is drawn across the middle; no match is no plot', () => {
  assert.deepEqual(plotGeometry([3], 100, 50, 5), { points: '50,25', top: 4, bottom: 2 });
  assert.equal(plotGeometry([2, 2], 100, 50, 5)!.points, '5,25 95,25');
  assert.equal(plotGeometry([], 100, 50, 5), null);
});

test('ratings bodies are read field by field; rows and points without a name, id or rating are left out', () => {
  assert.deepEqual(readRatings({ ratings: [{ rank: 1, player: 'ann', rating: 1.5, mu: 20, sigma: 6, games: 2 }, { rank: 2, rating: 1 }, 'x'] }), [
    { rank: 1, player: 'ann', rating: 1.5, mu: 20, sigma: 6, games: 2 },
  ]);
  assert.deepEqual(readRatings(null), []);
  const player = readPlayerRatings({ history: [{ match_id: 'm1', ended_at: 5, rating: 2, mu: 25, sigma: 7 }, { match_id: 'm2', rating: 'high' }], matches: 'nope' });
  assert.deepEqual(player, { history: [{ matchId: 'm1', endedAt: 5, rating: 2, mu: 25, sigma: 7 }], matches: [] });
});

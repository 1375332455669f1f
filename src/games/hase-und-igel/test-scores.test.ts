import { test } from 'node:test';
import assert from 'node:assert/strict';
import type { PlayerScore } from './messages.js';
import { MAX_TEST_SCORE_NAMES, TestScores } from './test-scores.js';

const score = (points: number, index: number, carrots: number): PlayerScore => ({ cause: 'REGULAR', reason: null, points, index, carrots });

test('test mode sums the match points and averages field and carrots per display name', () => {
  const scores = new TestScores();
  scores.record(['a', 'b'], [score(2, 64, 5), score(0, 40, 30)]);
  assert.equal(scores.scoreOf('a'), null, 'nothing is counted outside test mode');
  scores.testMode = true;
  scores.record(['a', 'b'], [score(2, 64, 5), score(0, 40, 30)]);
  scores.record(['b', 'a'], [score(1, 50, 10), score(1, 50, 20)]);
  assert.deepEqual(scores.scoreOf('a'), { displayName: 'a', games: 2, values: [3, 57, 12.5] });
  assert.deepEqual(scores.scoreOf('b'), { displayName: 'b', games: 2, values: [1, 45, 20] });
});

test(`at most ${MAX_TEST_SCORE_NAMES} display names are kept; the one updated longest ago goes first`, () => {
  const scores = new TestScores(3);
  scores.testMode = true;
  scores.record(['a', 'b'], [score(2, 1, 1), score(0, 1, 1)]);
  scores.record(['c', 'a'], [score(2, 1, 1), score(0, 1, 1)]);
  scores.record(['d', 'a'], [score(2, 1, 1), score(0, 1, 1)]);
  assert.equal(scores.scoreOf('b'), null, 'b was forgotten');
  assert.equal(scores.scoreOf('c')?.games, 1);
  assert.equal(scores.scoreOf('a')?.games, 3);
  assert.equal(MAX_TEST_SCORE_NAMES, 1000);
});

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { placesFromScores, placesOf, seatPoints } from './places.js';

test('places are competition ranks from the scores: tied seats share the better place', () => {
  assert.deepEqual(placesFromScores([5, 3, 3, 1]), [1, 2, 2, 4]);
  assert.deepEqual(placesFromScores([0, 2, 2]), [3, 1, 1]);
  assert.deepEqual(placesFromScores([4, 4, 4]), [1, 1, 1]);
  assert.deepEqual(placesFromScores([3, 0]), [1, 2]);
});

test('places from an outcome: the 2-player notation, the places of more seats, none without a result', () => {
  assert.deepEqual(placesOf('1-0'), [1, 2]);
  assert.deepEqual(placesOf('0-1'), [2, 1]);
  assert.deepEqual(placesOf('1/2-1/2'), [1, 1]);
  assert.deepEqual(placesOf('2-1-2-4'), [2, 1, 2, 4]);
  assert.equal(placesOf('*'), null);
});

test('points per game: opponents beaten plus half those tied, over k - 1; 1, 0.5, 0 for 2 players; k/2 in all', () => {
  assert.deepEqual(seatPoints([1, 2]), [1, 0]);
  assert.deepEqual(seatPoints([1, 1]), [0.5, 0.5]);
  assert.deepEqual(seatPoints([1, 2, 2, 4]), [1, 0.5, 0.5, 0]);
  assert.deepEqual(seatPoints([1, 2, 3]), [1, 0.5, 0]);
  assert.deepEqual(seatPoints([1, 1, 3]), [0.75, 0.75, 0]);
  for (const places of [[1, 2, 2, 4], [3, 1, 1], [1, 2, 3, 4, 5]]) assert.equal(seatPoints(places).reduce((a, b) => a + b, 0), places.length / 2);
});

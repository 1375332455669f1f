import { test } from 'node:test';
import assert from 'node:assert/strict';
import { formatSeatCount, matchSeatCount } from './seat-count.js';

test('a seat count is the seats taken, bots included, over the seats, with the bots spelled out', () => {
  assert.equal(formatSeatCount(0, 0, 2), '0/2');
  assert.equal(formatSeatCount(0, 1, 2), '1/2 (1 bot)');
  assert.equal(formatSeatCount(1, 2, 4), '3/4 (2 bots)');
  assert.equal(matchSeatCount({ connected: ['ann'], bots: 1, players: 3 }), '2/3 (1 bot)');
  assert.equal(matchSeatCount({ connected: [], bots: 0, players: 2 }), '0/2');
});

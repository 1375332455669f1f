import { test } from 'node:test';
import assert from 'node:assert/strict';
import { seatClosure } from './seat-closure.js';

const HEADER = '# seat 0, bob: "<" received from the game, ">" sent by the player; seconds since the match started\n';

test('a seat closed for a timeout says the player did not answer in time', () => {
  assert.equal(seatClosure(`${HEADER}0.000 < bob\n1.003 # the seat was closed: timeout\n`), 'you did not answer in time');
});

test('a seat the game removed names the last line the player sent', () => {
  assert.equal(seatClosure(`${HEADER}0.000 < go\n0.010 > e2e5\n0.011 > z9\n0.012 # the seat was closed: removed\n`), 'the game removed you after your line "z9"');
});

test('a seat closed at the end of the match, or by a shutdown, is no news', () => {
  assert.equal(seatClosure(`${HEADER}0.010 > ROCK\n0.020 # the seat was closed: match-over\n`), null);
  assert.equal(seatClosure(`${HEADER}0.020 # the seat was closed: shutdown\n`), null);
  assert.equal(seatClosure(HEADER), null);
});

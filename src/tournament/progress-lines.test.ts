import { test } from 'node:test';
import assert from 'node:assert/strict';
import type { ResultLine } from './results-file.js';
import { formatFinished, formatScore, formatStarted } from './progress-lines.js';

function result(pairing: number, players: string[], outcome: ResultLine['outcome'], fields: Partial<ResultLine> = {}): ResultLine {
  return { pairing, players, scores: outcome === '*' ? null : [1, 0], outcome, match: `m${pairing}`, reason: '', crashed: [], timedOut: [], illegal: [], ...fields };
}

test('a started game names its number of the total, its players in seat order and its match', () => {
  assert.equal(formatStarted(3, 10, ['a', 'b'], 'abc'), 'Started game 3 of 10 (a vs b), match abc\n');
});

test('a finished game gives its outcome and, in braces, the reason and each incident', () => {
  assert.equal(formatFinished(result(0, ['a', 'b'], '1-0', { reason: 'a wins 3-0' })), 'Finished game 1 (a vs b): 1-0 {a wins 3-0}, match m0\n');
  assert.equal(formatFinished(result(4, ['a', 'b'], '0-1', { reason: 'b wins', crashed: ['a'] })), 'Finished game 5 (a vs b): 0-1 {b wins; a crashed}, match m4\n');
  assert.equal(formatFinished(result(1, ['a', 'b', 'c'], '2-1-3')), 'Finished game 2 (a vs b vs c): places 2-1-3 {no reason given}, match m1\n');
  assert.equal(formatFinished(result(2, ['a', 'b', 'c'], '*', { reason: 'the server has no record of the match' })), 'Finished game 3 (a vs b vs c): * {the server has no record of the match}, match m2\n');
});

test('the score counts wins, losses and draws from the first player\'s side whatever the seats, and skips games with no result', () => {
  const results = [result(0, ['a', 'b'], '1-0'), result(1, ['b', 'a'], '1-0'), result(2, ['b', 'a'], '0-1'), result(3, ['a', 'b'], '1/2-1/2'), result(4, ['a', 'b'], '*')];
  assert.equal(formatScore('a', 'b', results), 'Score of a vs b: 2 - 1 - 1  [0.625] 4\n');
  assert.equal(formatScore('b', 'a', results), 'Score of b vs a: 1 - 2 - 1  [0.375] 4\n');
  assert.equal(formatScore('a', 'b', []), 'Score of a vs b: 0 - 0 - 0  [-] 0\n');
});

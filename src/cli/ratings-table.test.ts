import { test } from 'node:test';
import assert from 'node:assert/strict';
import { formatRatingsTable } from './ratings-table.js';

test('the ratings table has a header, a rule and one row a player, numbers to two decimals and right-aligned', () => {
  const table = formatRatingsTable([
    { rank: 1, player: 'alice', rating: 3.4123, mu: 27.635, sigma: 8.066, games: 12 },
    { rank: 2, player: 'ServerBot', rating: -1.5, mu: 22.364, sigma: 7.95, games: 3 },
  ]);
  assert.equal(
    table,
    [
      'Rank  Player     Rating     Mu  Sigma  Games',
      '----  ---------  ------  -----  -----  -----',
      '   1  alice        3.41  27.64   8.07     12',
      '   2  ServerBot   -1.50  22.36   7.95      3',
    ].join('\n'),
  );
});

test('an empty board is the header and the rule', () => {
  assert.equal(formatRatingsTable([]).split('\n').length, 2);
});

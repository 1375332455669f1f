import { test } from 'node:test';
import assert from 'node:assert/strict';
import type { ResultLine } from './results-file.js';
import { formatPoints, formatStandings, standings } from './standings.js';

function result(pairing: number, players: [string, string], outcome: ResultLine['outcome'], fields: Partial<ResultLine> = {}): ResultLine {
  const scores = outcome === '1-0' ? [1, 0] : outcome === '0-1' ? [0, 1] : outcome === '*' ? null : [0.5, 0.5];
  return { pairing, players, scores, outcome, match: `m${pairing}`, reason: '', crashed: [], timedOut: [], illegal: [], ...fields };
}

const RESULTS = [
  result(0, ['a', 'b'], '1-0'),
  result(1, ['b', 'a'], '0-1'),
  result(2, ['a', 'c'], '1/2-1/2'),
  result(3, ['c', 'a'], '1-0', { crashed: ['a'] }),
  result(4, ['b', 'c'], '1-0'),
  result(5, ['c', 'b'], '*', { timedOut: ['b'], reason: 'no result' }),
];

test('standings count points, W/D/L and incidents per player, best Elo first', () => {
  const table = standings(['a', 'b', 'c'], RESULTS);
  assert.deepEqual(
    table.rows.map((r) => [r.name, r.points, r.games, r.wins, r.draws, r.losses, r.crashes, r.timeouts, r.unfinished]),
    [
      ['a', 2.5, 4, 2, 1, 1, 1, 0, 0],
      ['c', 1.5, 3, 1, 1, 1, 0, 0, 1],
      ['b', 1, 3, 1, 0, 2, 0, 1, 1],
    ],
  );
  assert.equal(table.games, 5);
  assert.equal(table.draws, 1);
  assert.deepEqual(table.crashes, [{ player: 'a', match: 'm3' }]);
  assert.ok(table.rows[0]!.losNext! > 0.5 && table.rows[2]!.losNext === null);
  assert.ok(Math.abs(table.rows.reduce((sum, r) => sum + r.elo, 0)) < 1e-6);
});

test('the formatted table has a header, a row per player, the draw rate and the crashed matches', () => {
  const text = formatStandings(standings(['a', 'b', 'c'], RESULTS));
  const lines = text.trimEnd().split('\n');
  assert.match(lines[0]!, /^#\s+player\s+Elo\s+±95%\s+LOS\s+points\s+games\s+W\s+D\s+L\s+draws\s+crash\s+time\s+illegal\s+no result$/);
  assert.match(lines[1]!, /^1\s+a\s+\S+\s+\S+\s+\S+%\s+2\.5\s+4\s+2\s+1\s+1\s+25\.0%\s+1\s+0\s+0\s+0$/);
  assert.match(lines[3]!, /^3\s+b\s.*\s-\s+1\s+3\s+1\s+0\s+2\s+0\.0%\s+0\s+1\s+0\s+1$/);
  assert.equal(lines[4], '5 games, draw rate 20.0%');
  assert.equal(lines[5], 'crash: a in match m3');
});

test('the live line lists points, best first', () => {
  assert.equal(formatPoints(['a', 'b', 'c'], RESULTS), 'a 2.5, c 1.5, b 1');
});

/** A game of more seats, its outcome the places of `scores`. */
function ranked(pairing: number, players: string[], scores: number[], outcome: ResultLine['outcome']): ResultLine {
  return { pairing, players, scores, outcome, match: `m${pairing}`, reason: '', crashed: [], timedOut: [], illegal: [] };
}

test('3-seat games: points by opponents beaten and tied over 2, a win is first alone, a draw first shared, the mean place', () => {
  const results = [
    // a first, b and c tied for second: a 1, b and c 0.25 each.
    ranked(0, ['a', 'b', 'c'], [5, 3, 3], '1-2-2'),
    // b and c tied for first, a third: b and c 0.75 each, a 0.
    ranked(1, ['b', 'c', 'a'], [2, 2, 1], '1-1-3'),
    ranked(2, ['c', 'a', 'b'], [0, 0, 0], '*'),
  ];
  const table = standings(['a', 'b', 'c'], results);
  const byName = new Map(table.rows.map((r) => [r.name, r]));
  assert.deepEqual(['a', 'b', 'c'].map((name) => { const r = byName.get(name)!; return [r.points, r.games, r.wins, r.draws, r.losses, r.place, r.unfinished]; }), [
    [1, 2, 1, 0, 1, 2, 1],
    [1, 2, 0, 1, 1, 1.5, 1],
    [1, 2, 0, 1, 1, 1.5, 1],
  ]);
  assert.equal(table.games, 2);
  assert.equal(table.draws, 1);
  assert.equal(table.seats, 3);
  const text = formatStandings(table);
  assert.match(text, /^#\s+player\s+Elo\s+±95%\s+LOS\s+points\s+games\s+W\s+D\s+L\s+place\s+draws\s+crash/m);
  assert.match(text, /^2 games, draw rate 50\.0% \(first place shared\)/m);
  assert.equal(formatPoints(['a', 'b', 'c'], results), 'a 1, b 1, c 1');
  assert.equal(formatPoints(['a', 'b', 'c'], results.slice(0, 1)), 'a 1, b 0.25, c 0.25');
});

test('a table of 2-player games has no place column, as before', () => {
  assert.doesNotMatch(formatStandings(standings(['a', 'b', 'c'], RESULTS)), /place/);
});

test('a tournament stopped before any game shows no interval and no LOS: dashes, not "inf" or a prior\'s percentage', () => {
  const text = formatStandings(standings(['a', 'b'], []));
  assert.doesNotMatch(text.split('\n').slice(1).join('\n'), /inf|\d%|virtual draw/);
  for (const line of text.trimEnd().split('\n').slice(1, 3)) assert.match(line, /^\d\s+[ab]\s+0\.0\s+-\s+-\s+0\s+0\s/);
});

test('an entrant with no games has no LOS, nor has the player ranked just above it', () => {
  const table = standings(['a', 'b', 'idle'], [result(0, ['a', 'b'], '1-0'), result(1, ['b', 'a'], '1/2-1/2')]);
  const byName = new Map(table.rows.map((r) => [r.name, r]));
  assert.equal(byName.get('idle')!.losNext, null);
  assert.ok(table.rows.filter((r) => r.name !== 'idle').some((r) => r.losNext !== null) || table.rows.at(-1)!.name !== 'idle');
  const above = table.rows[table.rows.findIndex((r) => r.name === 'idle') - 1];
  if (above !== undefined) assert.equal(above.losNext, null);
  assert.match(formatStandings(table), /^\d\s+idle\s+\S+\s+-\s+-\s+0\s+0\s/m);
});

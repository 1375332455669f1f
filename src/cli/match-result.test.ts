import { test } from 'node:test';
import assert from 'node:assert/strict';
import type { MatchSummary } from './match-record.js';
import { describeResult } from './match-result.js';

function match(fields: Partial<MatchSummary>): MatchSummary {
  return { id: 'm', game: 'roshambo', name: 'm', players: ['alice', 'bob'], scores: [1, 0], reason: 'alice wins 1-0', error: null, ended_at: 0, ...fields };
}

const CASES: readonly { readonly why: string; readonly match: MatchSummary; readonly seat: string | null; readonly closure?: string; readonly line: string }[] = [
  { why: 'a win, own score first', match: match({ reason: 'bob retired in round 1' }), seat: 'alice', line: 'you won 1-0 (bob retired in round 1)' },
  { why: 'a loss, own score first', match: match({}), seat: 'bob', line: 'you lost 0-1 (alice wins 1-0)' },
  { why: 'a draw', match: match({ scores: [0.5, 0.5], reason: 'draw by repetition' }), seat: 'bob', line: 'a draw 0.5-0.5 (draw by repetition)' },
  { why: 'three seats name the others', match: match({ players: ['a', 'b', 'c'], scores: [3, 1, 0] }), seat: 'b', line: 'you lost 1 (a 3, c 0) (alice wins 1-0)' },
  { why: 'a spectator sees every seat', match: match({}), seat: null, line: 'alice 1, bob 0 (alice wins 1-0)' },
  { why: 'no result: the reason only', match: match({ scores: null, reason: 'server shutdown' }), seat: 'alice', line: 'no result (server shutdown)' },
  { why: 'a failed game says its error', match: match({ scores: null, reason: 'the game failed', error: 'crashed' }), seat: 'alice', line: 'no result (the game failed: crashed)' },
  { why: "the seat's closing follows the game's reason", match: match({ reason: 'alice wins: bob did not move' }), seat: 'bob', closure: 'you did not answer in time', line: 'you lost 0-1 (alice wins: bob did not move; you did not answer in time)' },
  { why: 'scores rounded as the page rounds them', match: match({ scores: [0.1 + 0.2, 0] , reason: '' }), seat: 'alice', line: 'you won 0.3-0' },
];

for (const c of CASES) {
  test(`the end-of-match line: ${c.why}`, () => {
    assert.equal(describeResult(c.match, c.seat, c.closure ?? null), c.line);
  });
}

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { check, parseEnding, type MatchObservation, type StoredMatch } from './checker.js';
import { FAULT_KINDS, faultSchedule } from './schedule.js';

const row = (id: string, reason: string, scores: number[] | null, seq = 1): StoredMatch => ({ id, seq, reason, scores, endedAt: 1000 });
const seen = (id: string, ...endings: (string | null)[]): MatchObservation => ({ id, started: true, endings });

test('chaos checker: a run where every started match is recorded once, as its players saw it, passes', () => {
  const report = check({
    matches: [seen('a', 'a draw 0-0 (done)', 'a draw 0-0 (done)'), seen('b', 'no result (node failure)', null), { id: 'c', started: false, endings: [] }],
    stored: [row('a', 'done', [0, 0]), row('b', 'node failure', null, 2)],
    snapshots: [[row('a', 'done', [0, 0])]],
    stillRunning: [],
  });
  assert.deepEqual(report.problems, []);
  assert.equal(report.started, 2);
  assert.equal(report.recorded, 2);
  assert.deepEqual(report.byReason, { done: 1, 'node failure': 1 });
});

test('chaos checker: it names a lost match, a repeated id, a result other than the players saw, an overwrite and a process left running', () => {
  const report = check({
    matches: [seen('lost', null), seen('twice', null), seen('twice', null), seen('odd', 'no result (node failure)'), seen('over', 'a draw 1-1 (done)')],
    stored: [row('twice', 'done', [1, 1]), row('odd', 'server shutdown', null), row('over', 'done', [1, 1], 9)],
    snapshots: [[row('over', 'done', [1, 1], 3)]],
    stillRunning: ['node 2 (pid 7)'],
  });
  assert.deepEqual(report.problems, [
    'match lost started but is not recorded',
    'match id twice was given out twice',
    'match odd: a player saw "node failure", the record says "server shutdown"',
    'match over was overwritten: {"id":"over","seq":3,"reason":"done","scores":[1,1],"endedAt":1000} became {"id":"over","seq":9,"reason":"done","scores":[1,1],"endedAt":1000}',
    'node 2 (pid 7) is still running after the run',
  ]);
});

const CUT_OFF = 'cut off (this node stopped before your match ended: the node running it goes on without you)';

test('chaos checker: a player cut off by its node\'s stop while its match went on elsewhere is right when the record says it retired or lost, and wrong otherwise', () => {
  const ok = check({
    matches: [
      { id: 'retired', started: true, endings: [CUT_OFF, 'you won 1-0 (p0 retired in round 1)'], names: ['p0', 'p1'] },
      { id: 'lost', started: true, endings: [CUT_OFF], names: ['p1'] },
      // Without names the checker cannot tell the winner, but still wants a result.
      seen('anonymous', CUT_OFF),
    ],
    stored: [row('retired', 'p0 retired in round 1', [0, 1]), row('lost', 'p0 wins 20-0 after 20 rounds', [20, 0]), row('anonymous', 'p1 retired in round 3', [1, 0])],
    snapshots: [],
    stillRunning: [],
  });
  assert.deepEqual(ok.problems, []);
  const wrong = check({
    matches: [
      { id: 'won', started: true, endings: [CUT_OFF], names: ['p0'] },
      { id: 'none', started: true, endings: [CUT_OFF], names: ['p0'] },
    ],
    stored: [row('won', 'p0 wins 20-0 after 20 rounds', [20, 0]), row('none', 'node failure', null)],
    snapshots: [],
    stillRunning: [],
  });
  assert.deepEqual(wrong.problems, [
    'match won: p0 was cut off, the record says "p0 wins 20-0 after 20 rounds"',
    'match none: a player was cut off while it went on, the record has no result (node failure)',
  ]);
  // Its own node's reason is still wrong for such a player (the bug this ending replaces).
  assert.deepEqual(check({ matches: [seen('x', 'no result (node failure)')], stored: [row('x', 'p0 retired in round 1', [0, 1])], snapshots: [], stillRunning: [] }).problems.length, 2);
});

test('chaos checker: coco\'s endings are read as a result or none, with their reason', () => {
  assert.deepEqual(parseEnding('no result (node failure)'), { scores: 'none', reason: 'node failure' });
  assert.deepEqual(parseEnding('you won 3-1 (done)'), { scores: 'some', reason: 'done' });
  assert.deepEqual(parseEnding('a draw 0-0'), { scores: 'some', reason: null });
  assert.equal(parseEnding('match ended for you; the match goes on'), null);
  assert.deepEqual(parseEnding(CUT_OFF), { scores: 'cut-off', reason: null });
  assert.equal(parseEnding('cut off (something else)'), null);
});

test('chaos schedule: a seed gives one schedule; every kind comes once before any repeats', () => {
  const one = faultSchedule('seed-1', 12, 3);
  assert.deepEqual(faultSchedule('seed-1', 12, 3), one);
  assert.notDeepEqual(faultSchedule('seed-2', 12, 3), one);
  assert.deepEqual(new Set(one.slice(0, FAULT_KINDS.length).map((f) => f.kind)), new Set(FAULT_KINDS));
  for (const fault of one) assert.ok(fault.node >= 0 && fault.node < 3 && fault.matchesBefore >= 1);
});

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

test('chaos checker: coco\'s endings are read as a result or none, with their reason', () => {
  assert.deepEqual(parseEnding('no result (node failure)'), { scores: 'none', reason: 'node failure' });
  assert.deepEqual(parseEnding('you won 3-1 (done)'), { scores: 'some', reason: 'done' });
  assert.deepEqual(parseEnding('a draw 0-0'), { scores: 'some', reason: null });
  assert.equal(parseEnding('match ended for you; the match goes on'), null);
});

test('chaos schedule: a seed gives one schedule; every kind comes once before any repeats', () => {
  const one = faultSchedule('seed-1', 12, 3);
  assert.deepEqual(faultSchedule('seed-1', 12, 3), one);
  assert.notDeepEqual(faultSchedule('seed-2', 12, 3), one);
  assert.deepEqual(new Set(one.slice(0, FAULT_KINDS.length).map((f) => f.kind)), new Set(FAULT_KINDS));
  for (const fault of one) assert.ok(fault.node >= 0 && fault.node < 3 && fault.matchesBefore >= 1);
});

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { DecisionLog } from './decision-log.js';

test('a recall gets the decisions in order, waits for one not made yet, and gets null once the log has ended', async () => {
  const log = new DecisionLog();
  log.note(3);
  assert.equal(await log.recall(), 3);
  const waiting = log.recall();
  log.note(0);
  log.note(7);
  assert.equal(await waiting, 0);
  const last = log.recall();
  log.end();
  assert.equal(await last, 7, 'what was noted before the end is still recalled');
  assert.equal(await log.recall(), null);
  log.note(9);
  assert.deepEqual(log.all, [3, 0, 7], 'nothing is noted after the end');
  const ending = new DecisionLog();
  const pending = ending.recall();
  ending.end();
  assert.equal(await pending, null, 'a recall waiting when the log ends gets null');
});

test('a log made from a record recalls its decisions, and only one recall may wait', async () => {
  const recorded = new DecisionLog([1, 2]);
  recorded.end();
  assert.deepEqual([await recorded.recall(), await recorded.recall(), await recorded.recall()], [1, 2, null]);
  const live = new DecisionLog();
  void live.recall();
  assert.throws(() => live.recall(), /one reader/);
});

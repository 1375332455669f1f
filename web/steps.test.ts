import { test } from 'node:test';
import assert from 'node:assert/strict';
import { Steps } from './steps.js';

test('a step is shown settled: just before the next line, or at the end for the last; lines at one time are stepped one by one', () => {
  const steps = new Steps([0, 1, 1, 3]);
  const end = 4;
  assert.equal(steps.total, 4);
  assert.equal(steps.at(0.5, end), 1);
  assert.equal(steps.at(1, end), 3, 'both lines at 1 are shown');
  assert.equal(steps.go(1, end), 1 - 1e-6, 'the first step just before the second line');
  assert.equal(steps.at(1 - 1e-6, end), 1);
  assert.equal(steps.go(2, end), 1, 'the second line shares its time with the third');
  assert.equal(steps.at(1, end), 2, 'stepping names the second line, though the third has the same time');
  assert.equal(steps.go(3, end), 3 - 1e-6);
  assert.equal(steps.at(3 - 1e-6, end), 3);
  assert.equal(steps.at(2, end), 3, 'moving on forgets the pin');
  assert.equal(steps.go(99, end), 4, 'clamped to the last step, shown at the end of the match');
  assert.equal(steps.at(4, end), 4);
  assert.equal(steps.go(-5, end), 0);
  assert.equal(steps.at(0, end), 0, 'first move: the start position, step 0, though a line has time 0');
  assert.equal(steps.go(1, end), 1 - 1e-6, 'the line at time 0 is step 1');
  assert.equal(steps.at(0.5, end), 1);
});

test('"First move" is step 0 whatever number of lines a game writes at time 0', () => {
  for (const times of [[1, 2], [0, 1, 2], [0, 0, 1, 2]]) {
    const steps = new Steps(times);
    assert.equal(steps.at(0, 3), 0, `fresh, lines at ${times.join(',')}`);
    steps.go(2, 3);
    const start = steps.go(0, 3);
    assert.ok(start <= times[0]!, 'no line is passed yet');
    assert.equal(steps.at(start, 3), 0, `after First, lines at ${times.join(',')}`);
  }
});

test('"First move" shows the board as set up: just before the first line, never before the first event; step 0', () => {
  // Chess: squares at 0.0998 s, pieces up to 0.1001 s, "White: ann, Black: bob" at 0.1003 s.
  const steps = new Steps([0.1003, 1.2, 5.6]);
  steps.go(2, 6, 0.0998);
  assert.equal(steps.go(0, 6, 0.0998), 0.1003 - 1e-6, 'the pieces are there, the line not yet');
  assert.equal(steps.at(0.1003 - 1e-6, 6, 0.0998), 0);
  assert.equal(steps.go(1, 6, 0.0998), 1.2 - 1e-6, 'the setup line is step 1');
  assert.equal(steps.at(0.5, 6, 0.0998), 1);
  // Setup and its line at one time (connect four at 0): the start is that time, not before the board.
  const together = new Steps([0, 0.6]);
  assert.equal(together.go(0, 1, 0), 0);
  assert.equal(together.at(0, 1, 0), 0);
  // No line at all: the first event.
  assert.equal(new Steps([]).go(0, 1, 0.3), 0.3);
});

test('per-move playback spends one second per step however long the step lasted', () => {
  const steps = new Steps([0, 10, 10.5, 100]);
  // Half a second at one step per second: half way from 0 to 10.
  assert.equal(steps.advancePerMove(0, 0.5, 1, 101), 5);
  // From 5, one second: the second half of [0, 10] and half of [10, 10.5].
  assert.equal(steps.advancePerMove(5, 1, 1, 101), 10.25);
  // Two steps per second: a quarter second crosses half of [10.5, 100].
  assert.equal(steps.advancePerMove(10.5, 0.25, 2, 101), 55.25);
  // After the last line, the rest of the match is one step; then it stops at the end.
  assert.equal(steps.advancePerMove(100, 0.5, 1, 101), 100.5);
  assert.equal(steps.advancePerMove(100.5, 5, 1, 101), 101);
});

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { ManualClock } from './clock.js';

test('a manual clock fires the timers due within an advance in time order, each at its own time', async () => {
  const clock = new ManualClock(1000);
  const fired: string[] = [];
  clock.setTimer(30, () => fired.push(`b@${clock.monotonic()}`));
  clock.setTimer(10, () => {
    fired.push(`a@${clock.monotonic()}`);
    // A timer set by a timer fires in the same advance when it falls due within it.
    clock.setTimer(5, () => fired.push(`a2@${clock.monotonic()}`));
  });
  const cancel = clock.setTimer(20, () => fired.push('cancelled'));
  cancel();
  clock.setTimer(50, () => fired.push('later'));
  await clock.advance(40);
  assert.deepEqual(fired, ['a@10', 'a2@15', 'b@30']);
  assert.equal(clock.now(), 1040);
  assert.equal(clock.pending, 1, 'the timer due after the advance still waits');
});

test('runUntil moves time exactly as far as the work waits for it', async () => {
  const clock = new ManualClock();
  const sleep = (ms: number) => new Promise<void>((resolve) => clock.setTimer(ms, resolve));
  const work = (async () => {
    await sleep(30_000);
    await Promise.resolve();
    await sleep(5_000);
    return clock.monotonic();
  })();
  assert.equal(await clock.runUntil(work), 35_000);
  assert.equal(clock.monotonic(), 35_000, 'no further than the last timer the work waited for');
});

test('runUntil waits in real time while no timer is pending, and passes the failure of the work on', async () => {
  const clock = new ManualClock();
  // Work that waits for something outside the clock (here a real timer) with no clock timer pending.
  const outside = new Promise<number>((resolve) => setTimeout(() => resolve(clock.monotonic()), 20));
  assert.equal(await clock.runUntil(outside), 0, 'time did not move');
  const failing = (async () => {
    await new Promise<void>((resolve) => clock.setTimer(10, resolve));
    throw new Error('it broke');
  })();
  await assert.rejects(clock.runUntil(failing), /it broke/);
});

test('timerSet resolves once the wanted number of timers of a length has been set', async () => {
  const clock = new ManualClock();
  const events: string[] = [];
  void clock.timerSet(300, 2).then(() => events.push('two of 300 ms'));
  clock.setTimer(300, () => {});
  clock.setTimer(100, () => {});
  await clock.advance(0);
  assert.deepEqual(events, []);
  clock.setTimer(300, () => {});
  await clock.advance(0);
  assert.deepEqual(events, ['two of 300 ms']);
  await clock.timerSet(100);
});

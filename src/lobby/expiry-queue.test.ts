import { test } from 'node:test';
import assert from 'node:assert/strict';
import { ManualClock } from '../util/clock.js';
import { ExpiryQueue } from './expiry-queue.js';

function makeQueue(ms = 1000): { clock: ManualClock; queue: ExpiryQueue<string>; expired: string[] } {
  const clock = new ManualClock();
  const expired: string[] = [];
  const queue = new ExpiryQueue<string>(clock, ms, (item) => expired.push(item));
  return { clock, queue, expired };
}

test('each item expires exactly its countdown after its last restart, in deadline order', async () => {
  const { clock, queue, expired } = makeQueue();
  queue.restart('a');
  await clock.advance(300);
  queue.restart('b');
  await clock.advance(300);
  queue.restart('a'); // now due at 1600, after b (1300)
  await clock.advance(699);
  assert.deepEqual(expired, []);
  await clock.advance(1);
  assert.deepEqual(expired, ['b'], 'b expired at 1300');
  await clock.advance(299);
  assert.deepEqual(expired, ['b']);
  await clock.advance(1);
  assert.deepEqual(expired, ['b', 'a'], 'a expired 1000 after its restart at 600');
  assert.equal(queue.size, 0);
});

test('items due at the same time expire together, in the order they were started', async () => {
  const { clock, queue, expired } = makeQueue();
  for (const item of ['x', 'y', 'z']) queue.restart(item);
  await clock.advance(1000);
  assert.deepEqual(expired, ['x', 'y', 'z']);
});

test('a removed item never expires, and an empty queue leaves no timer behind', async () => {
  const { clock, queue, expired } = makeQueue();
  queue.restart('a');
  queue.restart('b');
  queue.remove('a');
  queue.remove('b');
  queue.remove('never added');
  assert.equal(clock.pending, 0);
  await clock.advance(5000);
  assert.deepEqual(expired, []);
});

test('ten thousand countdowns share one timer', () => {
  const { clock, queue } = makeQueue();
  for (let i = 0; i < 10_000; i++) queue.restart(`m${i}`);
  for (let i = 0; i < 10_000; i += 2) queue.restart(`m${i}`);
  assert.equal(queue.size, 10_000);
  assert.equal(clock.pending, 1);
});

test('an item expiring may restart another: the timer is armed for the new first deadline', async () => {
  const clock = new ManualClock();
  const expired: string[] = [];
  const queue: ExpiryQueue<string> = new ExpiryQueue<string>(clock, 1000, (item) => {
    expired.push(item);
    if (item === 'a') queue.restart('c');
  });
  queue.restart('a');
  await clock.advance(500);
  queue.restart('b');
  await clock.advance(2000);
  assert.deepEqual(expired, ['a', 'b', 'c']);
  assert.equal(clock.pending, 0);
});

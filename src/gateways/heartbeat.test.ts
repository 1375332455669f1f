import { test } from 'node:test';
import assert from 'node:assert/strict';
import { ManualClock } from '../util/clock.js';
import { Heartbeat } from './heartbeat.js';

function peer(events: string[], name: string) {
  return { ping: () => void events.push(`ping ${name}`), dead: () => void events.push(`dead ${name}`) };
}

test('a silent peer is pinged after the period and dropped when the pong does not come within another', async () => {
  const clock = new ManualClock();
  const heartbeat = new Heartbeat(clock, 25);
  const events: string[] = [];
  const silent = peer(events, 'silent');
  const answering = peer(events, 'answering');
  heartbeat.add(silent);
  heartbeat.add(answering);
  heartbeat.start();
  await clock.advance(24_000);
  assert.deepEqual(events, []);
  await clock.advance(1_000);
  assert.deepEqual(events, ['ping silent', 'ping answering']);
  await clock.advance(10_000);
  heartbeat.heard(answering);
  await clock.advance(15_000);
  assert.deepEqual(events, ['ping silent', 'ping answering', 'dead silent'], 'the answer came in time');
  await clock.advance(10_000);
  assert.deepEqual(events.slice(3), ['ping answering'], 'silent again for a period: pinged again');
  await clock.advance(25_000);
  assert.deepEqual(events.slice(4), ['dead answering']);
  heartbeat.stop();
  assert.equal(clock.pending, 0, 'stop leaves no timer');
});

test('a peer that keeps talking is never pinged', async () => {
  const clock = new ManualClock();
  const heartbeat = new Heartbeat(clock, 10);
  const events: string[] = [];
  const chatty = peer(events, 'chatty');
  heartbeat.add(chatty);
  heartbeat.start();
  for (let i = 0; i < 20; i++) {
    await clock.advance(5_000);
    heartbeat.heard(chatty);
  }
  assert.deepEqual(events, []);
  heartbeat.remove(chatty);
  heartbeat.stop();
});

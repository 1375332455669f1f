import { test } from 'node:test';
import assert from 'node:assert/strict';
import {
  connectCommand,
  formatClock,
  formatScore,
  formatSpan,
  formatTimeout,
  lobbyTiming,
  serverFlagFor,
  socketUrlFor,
  timestampMs,
} from './format.js';

test('spans are printed the way coco lobby prints them', () => {
  assert.equal(formatSpan(0), '0s');
  assert.equal(formatSpan(59.9), '59s');
  assert.equal(formatSpan(599), '9m59s');
  assert.equal(formatSpan(3723), '1h2m3s');
  assert.equal(formatSpan(3600), '1h0m0s');
  assert.equal(formatSpan(-5), '0s');
});

test('the lobby timing column says when a waiting match expires or how long a running one has run', () => {
  assert.equal(lobbyTiming({ running: false, time: 1000 + 599 }, 1000), 'Expires in 9m59s');
  assert.equal(lobbyTiming({ running: true, time: 1000 }, 1000 + 3723), 'Running for 1h2m3s');
  assert.equal(lobbyTiming({ running: false, time: 900 }, 1000), 'Expires in 0s');
});

test('playback clocks and timeouts', () => {
  assert.equal(formatClock(0), '0:00.0');
  assert.equal(formatClock(7.46), '0:07.5');
  assert.equal(formatClock(723), '12:03.0');
  assert.equal(formatClock(3723.04), '1:02:03.0');
  assert.equal(formatTimeout(30), '30s');
  assert.equal(formatTimeout(0.5), '0.5s');
});

test('history timestamps may be unix seconds, milliseconds or ISO text', () => {
  assert.equal(timestampMs(1700000000), 1700000000000);
  assert.equal(timestampMs(1700000000123), 1700000000123);
  assert.equal(timestampMs('1700000000'), 1700000000000);
  assert.equal(timestampMs('2023-11-14T22:13:20Z'), 1700000000000);
  assert.ok(Number.isNaN(timestampMs(null)));
});

test('the connect command names the server only when it is not the default one', () => {
  assert.equal(socketUrlFor({ protocol: 'http:', host: 'example.org:8088' }), 'ws://example.org:8088/');
  assert.equal(socketUrlFor({ protocol: 'https:', host: 'example.org' }), 'wss://example.org/');
  assert.equal(serverFlagFor('ws://127.0.0.1:8088/'), null);
  assert.equal(serverFlagFor('ws://localhost:8088/'), null);
  assert.equal(connectCommand('abc', null, false), 'coco connect abc -- ./your-program');
  assert.equal(connectCommand('abc', 'wss://example.org/', true), 'coco -s wss://example.org/ connect abc -p PASSWORD -- ./your-program');
});

test('scores are shown rounded to 12 significant digits, whole numbers whole, infinite ones as ∞', () => {
  assert.equal(formatScore(57.00000000000001), '57');
  assert.equal(formatScore(0.1 + 0.2), '0.3');
  assert.equal(formatScore(2.5), '2.5');
  assert.equal(formatScore(-1 / 3), '-0.333333333333');
  assert.equal(formatScore(123456789012345), '123456789012345');
  assert.equal(formatScore(1e-7), '1e-7');
  assert.equal(formatScore(Number.MAX_VALUE), '∞');
  assert.equal(formatScore(-Number.MAX_VALUE), '−∞');
  assert.equal(formatScore(NaN), '—');
});

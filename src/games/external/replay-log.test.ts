import { test } from 'node:test';
import assert from 'node:assert/strict';
import { formatReplayTime, importReplayLog, parseReplayLog, ReplayLog } from './replay-log.js';

test('times are written as SSS.UUUUUU seconds since the game server started', () => {
  assert.equal(formatReplayTime(0), '000.000000');
  assert.equal(formatReplayTime(1.234567), '001.234567');
  assert.equal(formatReplayTime(61.5), '061.500000');
  assert.equal(formatReplayTime(1234.000001), '1234.000001');
});

test('the log records both directions in the reference format and parses back', () => {
  let now = 0;
  const log = new ReplayLog(() => now);
  log.sent('vis inline');
  now = 0.25;
  log.received('vis {t:0,create:{id:1,geom:[{circle:{r:0.1}}]}}');
  now = 1.234567;
  log.sent('recv 1 hello world');
  const text = log.text();
  assert.equal(
    text,
    '000.000000 > vis inline\n000.250000 < vis {t:0,create:{id:1,geom:[{circle:{r:0.1}}]}}\n001.234567 > recv 1 hello world\n',
  );
  assert.deepEqual(parseReplayLog(text), {
    ok: true,
    value: [
      { seconds: 0, direction: '>', line: 'vis inline' },
      { seconds: 0.25, direction: '<', line: 'vis {t:0,create:{id:1,geom:[{circle:{r:0.1}}]}}' },
      { seconds: 1.234567, direction: '>', line: 'recv 1 hello world' },
    ],
  });
});

test('the log stops at its size limit and says so', () => {
  const log = new ReplayLog(() => 0, 40);
  log.sent('a');
  log.received('b');
  assert.equal(log.truncated, false);
  log.sent('c');
  log.sent('d');
  assert.equal(log.truncated, true);
  assert.equal(log.text(), '000.000000 > a\n000.000000 < b\n');
});

test('importing a log gives the vis events the game server printed, in order, with t never decreasing', () => {
  const text = [
    '000.001000 > vis inline',
    '000.002000 > param 2',
    '000.100000 < vis {t:0,create:{id:1,geom:[{circle:{r:0.1}}]}}',
    '000.200000 < sendall hello',
    '000.300000 > recv 1 vis {t:9,log:{line:"not from the game server"}}',
    '001.500000 < vis {"log":{"line":"no t: takes the log time"}}',
    '001.600000 < vis {t:1,destroy:{id:1}}',
    '002.000000 < over 1 0 done',
    '',
  ].join('\n');
  assert.deepEqual(importReplayLog(text), {
    ok: true,
    value: [
      { t: 0, create: { id: 1, geom: [{ circle: { r: 0.1 } }] } },
      { t: 1.5, log: { line: 'no t: takes the log time' } },
      { t: 1.5, destroy: { id: 1 } },
    ],
  });
});

test('importing a malformed log names the bad line', () => {
  assert.deepEqual(importReplayLog('000.000000 > vis inline\n0.5 < vis {}\n'), {
    ok: false,
    error: 'replay log line 2 is not "SSS.UUUUUU > line" or "SSS.UUUUUU < line"',
  });
  const bad = importReplayLog('000.000000 < vis {t:0,create:{id:1,geom:[{square:{}}]}}\n');
  assert.ok(!bad.ok);
  assert.match(bad.error, /entry 1: vis\/bad-shape: create.geom/);
});

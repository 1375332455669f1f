import { test } from 'node:test';
import assert from 'node:assert/strict';
import { parseServerLine } from './server-line.js';

test('each game-server command parses into its typed form (players numbered 1..P)', () => {
  const cases: [string, unknown][] = [
    ['send 2 hello world', { kind: 'send', player: 2, message: 'hello world' }],
    ['send 1', { kind: 'send', player: 1, message: '' }],
    ['sendall round 3', { kind: 'sendall', message: 'round 3' }],
    ['sendall', { kind: 'sendall', message: '' }],
    ['playererror 3 not your turn', { kind: 'playererror', player: 3, text: 'not your turn' }],
    ['playererror 01 x', { kind: 'playererror', player: 1, text: 'x' }],
    ['playererror 0 nobody', { kind: 'stray-playererror', number: 0, text: 'nobody' }],
    ['playererror 4', { kind: 'stray-playererror', number: 4, text: '' }],
    ['playererror 0099 x', { kind: 'stray-playererror', number: 99, text: 'x' }],
    ['over 1 0.5 -2.5e1 Player 1 wins', { kind: 'over', scores: [1, 0.5, -25], printed: ['1', '0.5', '-2.5e1'], reason: 'Player 1 wins' }],
    ['over 1 0 2', { kind: 'over', scores: [1, 0, 2], printed: ['1', '0', '2'], reason: '' }],
    ['over inf -Infinity NaN draw', { kind: 'over', scores: [Infinity, -Infinity, NaN], printed: ['inf', '-Infinity', 'NaN'], reason: 'draw' }],
    ['over 1. .5 1E400', { kind: 'over', scores: [1, 0.5, Infinity], printed: ['1.', '.5', '1E400'], reason: '' }],
    ['timer 12 1500ms', { kind: 'timer', id: 12, ms: 1500 }],
    ['timer 1 0ms', { kind: 'timer', id: 1, ms: 0 }],
    ['vis {t:0,log:{line:"hi"}}', { kind: 'vis', body: '{t:0,log:{line:"hi"}}' }],
    ['vis not checked here', { kind: 'vis', body: 'not checked here' }],
  ];
  for (const [line, command] of cases) assert.deepEqual(parseServerLine(line, 3), { ok: true, value: command }, line);
});

test('bad lines give stable error codes', () => {
  const cases: [string, string][] = [
    ['send 4 hi', 'server/bad-player'],
    ['send 0 hi', 'server/bad-player'],
    ['send x hi', 'server/bad-player'],
    ['playererror x text', 'server/bad-player'],
    ['playererror -1 text', 'server/bad-player'],
    ['playererror', 'server/bad-player'],
    ['over 1 0', 'server/bad-scores'],
    ['over 1 0 infinit draw', 'server/bad-scores'],
    ['over 1 . 0 x', 'server/bad-scores'],
    ['over 1 1e 0 x', 'server/bad-scores'],
    ['over 1 0x10 0 x', 'server/bad-scores'],
    ['over 1  0 2', 'server/bad-scores'],
    ['timer 0 10ms', 'server/bad-timer'],
    ['timer 1 10', 'server/bad-timer'],
    ['timer 1 -5ms', 'server/bad-timer'],
    ['timer 1 86400001ms', 'server/bad-timer'],
    ['Send 1 x', 'server/unknown-command'],
    ['ready', 'server/unknown-command'],
    [' send 1 x', 'server/unknown-command'],
  ];
  for (const [line, code] of cases) {
    const parsed = parseServerLine(line, 3);
    assert.ok(!parsed.ok, line);
    assert.equal(parsed.error.code, code, line);
  }
});

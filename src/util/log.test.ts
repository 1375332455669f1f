import { test } from 'node:test';
import assert from 'node:assert/strict';
import { LOG_LIMITS, cleanLogText, lineLog } from './log.js';

test('a newline or other control character from a peer cannot start a log line of its own', () => {
  assert.equal(cleanLogText('match name\n2031-01-01T00:00:00Z forged\r\u0000'), 'match name\\n2031-01-01T00:00:00Z forged\\r\\u0000');
  assert.equal(cleanLogText('line\u2028separator'), 'line\\u2028separator');
});

test('a long text is cut to the limit, escapes included, and says how long it was', () => {
  const cut = cleanLogText('x'.repeat(15 << 20));
  assert.ok(cut.length < LOG_LIMITS.maxMessageChars + 60, `${cut.length} characters`);
  assert.match(cut, /\.\.\.\(cut; 15728640 characters in all\)$/);
  const controls = cleanLogText('\u0001'.repeat(5000));
  assert.ok(controls.length < LOG_LIMITS.maxMessageChars + 60, `${controls.length} characters`);
  assert.equal(cleanLogText('short'), 'short');
});

test('fields are escaped and cut as messages are', () => {
  const lines: string[] = [];
  lineLog((line) => lines.push(line)).warn('refused', { name: `a\nb${'y'.repeat(1000)}`, count: 3 });
  assert.equal(lines.length, 1);
  assert.match(lines[0]!, /^warn: refused name=a\\nby+\.\.\.\(cut; 1003 characters in all\) count=3$/);
});

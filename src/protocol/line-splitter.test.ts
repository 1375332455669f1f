import { test } from 'node:test';
import assert from 'node:assert/strict';
import { LineSplitter, type LineError } from './line-splitter.js';

function split(chunks: (string | Uint8Array)[], max = 16): { lines: string[]; errors: LineError[] } {
  const lines: string[] = [];
  const errors: LineError[] = [];
  const splitter = new LineSplitter(max, { line: (l) => lines.push(l), error: (e) => errors.push(e) });
  for (const chunk of chunks) splitter.push(typeof chunk === 'string' ? Buffer.from(chunk) : chunk);
  splitter.end();
  return { lines, errors };
}

test('lines split across chunks are joined, several lines in one chunk are separated', () => {
  assert.deepEqual(split(['RO', 'CK\nPAP', 'ER\nSC', 'ISSORS\n']).lines, ['ROCK', 'PAPER', 'SCISSORS']);
});

test('a CR before LF is dropped and a last line without LF is delivered at the end', () => {
  assert.deepEqual(split(['a\r\nb']).lines, ['a', 'b']);
});

test('a line over the limit is an error before it is buffered', () => {
  assert.deepEqual(split(['0123456789', '0123456789\nok\n']), { lines: [], errors: ['line/too-long'] });
  assert.deepEqual(split(['0123456789012345\n']).lines, ['0123456789012345']);
});

test('invalid UTF-8 is an error, multi-byte characters split across chunks are fine', () => {
  assert.deepEqual(split([new Uint8Array([0x61, 0xff, 0x0a])]).errors, ['line/invalid-utf8']);
  const euro = Buffer.from('€\n');
  assert.deepEqual(split([euro.subarray(0, 1), euro.subarray(1)]).lines, ['€']);
});

test('each line comes with the bytes it was decoded from, without its CR and LF', () => {
  const lines: [string, string][] = [];
  const splitter = new LineSplitter(16, { line: (text, bytes) => lines.push([text, Buffer.from(bytes).toString('hex')]), error: () => {} });
  const input = Buffer.from('€a\r\n\nb\r');
  splitter.push(input.subarray(0, 1));
  splitter.push(input.subarray(1, 6));
  splitter.push(input.subarray(6));
  splitter.end();
  assert.deepEqual(lines, [
    ['€a', Buffer.from('€a').toString('hex')],
    ['', ''],
    ['b', Buffer.from('b').toString('hex')],
  ]);
});

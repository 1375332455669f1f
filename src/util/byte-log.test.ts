import { test } from 'node:test';
import assert from 'node:assert/strict';
import { Random } from '../match/random.js';
import { ByteLog } from './byte-log.js';

test('a byte log gives back exactly what was appended, across chunk boundaries and multi-byte characters', () => {
  const random = Random.fromSeed('byte-log');
  const log = new ByteLog(8, 64);
  const expected: Buffer[] = [];
  const pieces = ['', 'a', 'line\n', 'è', '日本語テキスト', '🙂 emoji', 'x'.repeat(200)];
  for (let i = 0; i < 2000; i++) {
    const piece = pieces[random.int(pieces.length)]!;
    const asBytes = random.int(2) === 0;
    const bytes = Buffer.from(piece, 'utf8');
    log.append(asBytes ? new Uint8Array(bytes) : piece);
    expected.push(bytes);
    if (i % 250 === 0) assert.deepEqual(log.toBuffer(), Buffer.concat(expected));
  }
  const whole = Buffer.concat(expected);
  assert.equal(log.length, whole.length);
  assert.deepEqual(log.toBuffer(), whole);
});

test('an empty byte log is an empty buffer', () => {
  assert.equal(new ByteLog().toBuffer().length, 0);
});

test('a byte log takes its first chunk at its first append, not before', () => {
  const log = new ByteLog(8, 64);
  assert.equal(log.reservedBytes, 0, 'a log nothing was written to (a match still waiting) holds no chunk');
  log.append('');
  log.append('abc');
  assert.equal(log.reservedBytes, 8);
  log.append(Buffer.from('defghij'));
  assert.equal(log.reservedBytes, 8 + 16);
  assert.equal(log.toBuffer().toString(), 'abcdefghij');
});

test('single bytes appended among strings and buffers come back in place, across chunk boundaries', () => {
  const random = Random.fromSeed('byte-log single bytes');
  const log = new ByteLog(8, 32);
  const expected: number[] = [];
  for (let i = 0; i < 1000; i++) {
    if (random.int(3) === 0) {
      const text = 'é'.repeat(random.int(20));
      log.append(text);
      expected.push(...Buffer.from(text, 'utf8'));
    } else {
      const byte = random.int(256);
      log.appendByte(byte);
      expected.push(byte);
    }
  }
  assert.equal(log.length, expected.length);
  assert.deepEqual(log.toBuffer(), Buffer.from(expected));
});

test('a byte log whose first append is one byte takes its first chunk then', () => {
  const log = new ByteLog(8, 64);
  log.appendByte(0xff);
  assert.equal(log.reservedBytes, 8);
  assert.deepEqual(log.toBuffer(), Buffer.from([0xff]));
});

test('the chunks of a byte log, in order, are exactly what was appended', () => {
  const log = new ByteLog(4, 8);
  assert.equal(Buffer.concat(log.chunks()).length, 0);
  log.append('abcdefghijklmnopq');
  log.appendByte(0x21);
  const chunks = log.chunks();
  assert.equal(Buffer.concat(chunks).toString(), 'abcdefghijklmnopq!');
  assert.ok(chunks.length > 2, 'spread over several chunks');
});

test('ranges of buffers appended come back as their bytes, short and long, inside a chunk and across chunk boundaries', () => {
  const random = Random.fromSeed('byte-log-ranges');
  const log = new ByteLog(8, 128);
  const expected: Buffer[] = [];
  const source = new Uint8Array(Array.from({ length: 300 }, (_, i) => i % 251));
  for (let i = 0; i < 2000; i++) {
    if (random.int(4) === 0) {
      log.append('x');
      expected.push(Buffer.from('x'));
      continue;
    }
    const start = random.int(source.length);
    const longest = Math.min(source.length - start, random.int(2) === 0 ? 10 : 200);
    const end = start + random.int(longest + 1);
    log.appendRange(source, start, end);
    expected.push(Buffer.from(source.subarray(start, end)));
  }
  assert.deepEqual(log.toBuffer(), Buffer.concat(expected));
  assert.equal(log.length, Buffer.concat(expected).length);
});

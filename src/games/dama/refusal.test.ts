import { test } from 'node:test';
import assert from 'node:assert/strict';
import { parseSquare } from './board.js';
import { parseMoveLine } from './notation.js';
import { judgeMoveLine, referenceObjection, type Refusal } from './refusal.js';
import { startPosition, type Position } from './rules.js';
import { setup } from './test-positions.js';

const squares = (...names: string[]) => names.map((name) => parseSquare(name)!);

test('move lines are read as the reference reads them: CR, LF and TAB deleted, split on spaces, two-byte squares', () => {
  assert.deepEqual(parseMoveLine('6a 5b'), { ok: true, value: squares('6a', '5b') });
  assert.deepEqual(parseMoveLine('6A 4C 2A'), { ok: true, value: squares('6a', '4c', '2a') });
  assert.deepEqual(parseMoveLine('  6a   5b \r'), { ok: true, value: squares('6a', '5b') }, 'extra spaces and a CR are fine');
  assert.deepEqual(parseMoveLine('6a\r 5b'), { ok: true, value: squares('6a', '5b') }, 'a CR anywhere is deleted');
  assert.deepEqual(parseMoveLine('6a \t5b'), { ok: true, value: squares('6a', '5b') }, 'a tab next to a space disappears');
  assert.deepEqual(parseMoveLine('6A\t5B'), { ok: false, error: 'move/bad-square' }, 'a tab glues two squares into one word');
  assert.deepEqual(parseMoveLine(''), { ok: false, error: 'move/empty' });
  assert.deepEqual(parseMoveLine('   '), { ok: false, error: 'move/empty' });
  assert.deepEqual(parseMoveLine('6A'), { ok: false, error: 'move/too-short' });
  for (const line of ['hello', '9A 8B', '6a5b', '6À 5B', '6A 5B xx', 'A6 B5', '6A\v5B', '6A\u00a05B', '6A 5B\f']) {
    assert.deepEqual(parseMoveLine(line), { ok: false, error: 'move/bad-square' }, JSON.stringify(line));
  }
});

/** The refusal of a line from the start position (White to move), or of a line in `position`. */
function refusal(line: string, position: Position = startPosition()): Refusal | 'accepted' {
  const judged = judgeMoveLine(position, line);
  return judged.ok ? 'accepted' : judged.error;
}

const step = (code: Refusal['code'], from: string, to: string) => ({ code, from: parseSquare(from)!, to: parseSquare(to)! });

test('each refusal the reference gives from the start position, with the step it names', () => {
  const table: [string, Refusal][] = [
    ['hello', { code: 'line/syntax' }],
    ['6A', { code: 'line/syntax' }],
    ['3B 4A', { code: 'move/not-your-piece' }],
    ['5A 4B', { code: 'move/not-your-piece' }],
    ['6A 6B', step('move/same-row', '6a', '6b')],
    ['6A 5A', step('move/not-diagonal', '6a', '5a')],
    ['7B 6A', step('move/occupied', '7b', '6a')],
    ['6A 7B', step('move/man-rows', '6a', '7b')],
    ['6A 3D', step('move/man-rows', '6a', '3d')],
    ['6A 5B 4C', step('move/man-rows', '6a', '5b')],
    ['6C 4E', step('capture/not-diagonal', '6c', '4e')],
    ['7B 5D', step('capture/not-diagonal', '7b', '5d')],
    ['8A 6C', step('capture/occupied', '8a', '6c')],
  ];
  for (const [line, expected] of table) assert.deepEqual(refusal(line), expected, line);
  assert.equal(refusal('6a 5b'), 'accepted');
});

test("Black's refusals: backwards, landing occupied, a white piece", () => {
  const position: Position = { ...startPosition(), turn: 'black' };
  assert.deepEqual(refusal('3D 2C', position), step('move/man-rows', '3d', '2c'));
  assert.deepEqual(refusal('1B 3D', position), step('capture/occupied', '1b', '3d'));
  assert.deepEqual(refusal('6A 5B', position), { code: 'move/not-your-piece' });
});

test("a man may not take a king; a king's wrong rows have their own words; paths the reference allows but the rules refuse are generic", () => {
  // White: a man on 8A before a black king on 7B, a king on 5D, and a man on 6G that must take 5F and 3F.
  const position = setup({ b: ['8a', '6g'], B: ['5d'], n: ['5f', '3f', '1h'], N: ['7b'] }, 'white');
  assert.deepEqual(refusal('8A 6C', position), step('capture/not-diagonal', '8a', '6c'));
  assert.deepEqual(refusal('5D 2G', position), step('move/king-rows', '5d', '2g'));
  assert.deepEqual(refusal('5D 4C 3B', position), step('move/king-rows', '5d', '4c'), 'a step inside a longer path');
  assert.deepEqual(refusal('5D 5F', position), step('move/same-row', '5d', '5f'));
  assert.deepEqual(refusal('5D 6E', position), { code: 'move/illegal' }, 'a king may step back, but a capture is compulsory');
  assert.deepEqual(refusal('6G 4E', position), { code: 'move/illegal' }, 'a capture cut short');
  assert.equal(refusal('6G 4E 2G', position), 'accepted');
});

test('the reference checks every step on the board as it was (the moving piece still on its square); a legal move is accepted anyway', () => {
  // A white king takes four men in a ring and ends on its own starting square: legal here, so accepted,
  // though the reference would call the landing square occupied.
  const ring = setup({ B: ['6c'], n: ['5d', '3d', '3b', '5b'], N: ['1h'] }, 'white');
  assert.equal(refusal('6C 4E 2C 4A 6C', ring), 'accepted');
  assert.deepEqual(referenceObjection(ring.board, 'white', squares('6c', '4e', '2c', '4a', '6c')), step('capture/occupied', '4a', '6c'));
});

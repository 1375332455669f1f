import { test } from 'node:test';
import assert from 'node:assert/strict';
import { parseSquare } from './board.js';
import { formatBoard, parseBoard } from './notation.js';
import { perft } from './perft.js';
import {
  QUIET_PLY_LIMIT,
  applyMove,
  findMove,
  legalMoves,
  outcome,
  startPosition,
  type Position,
} from './rules.js';
import { SPEC_CAPTURE_BOARD, START_DRAWING, moveLines, setup } from './test-positions.js';

const sq = (name: string): number => parseSquare(name)!;
const path = (line: string): number[] => line.split(' ').map(sq);

function play(position: Position, line: string): Position {
  const move = findMove(position, path(line));
  assert.ok(move, `${line} should be legal; legal: ${moveLines(position).join(', ')}`);
  return applyMove(position, move);
}



test('the start position has 12 men a side on the dark squares of rows 1-3 (black) and 6-8 (white), white to move', () => {
  const start = startPosition();
  assert.equal(formatBoard(start.board), START_DRAWING);
  assert.equal(start.turn, 'white');
  assert.deepEqual(moveLines(start), ['6a 5b', '6c 5b', '6c 5d', '6e 5d', '6e 5f', '6g 5f', '6g 5h']);
});

test('perft from the start position matches the known 8x8 counts (7, 49, 302, 1469)', () => {
  const board = Int8Array.from(startPosition().board);
  assert.deepEqual([1, 2, 3, 4].map((depth) => perft(board, 1, depth)), [7, 49, 302, 1469]);
  assert.deepEqual(Array.from(board), startPosition().board, 'perft leaves the board as it found it');
});

test('men move one square diagonally forward only: white up, black down', () => {
  assert.deepEqual(moveLines(setup({ b: ['5d'], n: ['2a'] }, 'white')), ['5d 4c', '5d 4e']);
  assert.deepEqual(moveLines(setup({ b: ['8a'], n: ['4e'] }, 'black')), ['4e 5d', '4e 5f']);
  assert.deepEqual(moveLines(setup({ b: ['6a'], n: ['1h'] }, 'white')), ['6a 5b'], 'a man on the edge has one step');
});

test('kings move one square diagonally in all four directions', () => {
  assert.deepEqual(moveLines(setup({ B: ['5d'], n: ['1b'] }, 'white')), ['5d 4c', '5d 4e', '5d 6c', '5d 6e']);
  assert.deepEqual(moveLines(setup({ b: ['8a'], N: ['4e'] }, 'black')), ['4e 3d', '4e 3f', '4e 5d', '4e 5f']);
});

test('a piece cannot move onto an occupied square', () => {
  assert.deepEqual(moveLines(setup({ b: ['5d', '4c'], n: ['1b'] }, 'white')), ['4c 3b', '4c 3d', '5d 4e']);
});

test('capturing is compulsory: when a capture exists no step is legal', () => {
  const position = setup({ b: ['6e', '8a'], n: ['5f', '1b'] }, 'white');
  assert.deepEqual(moveLines(position), ['6e 4g']);
  assert.equal(findMove(position, path('8a 7b')), null);
});

test('men capture forward only', () => {
  assert.deepEqual(moveLines(setup({ b: ['4e'], n: ['5d', '1h'] }, 'white')), ['4e 3d', '4e 3f']);
  assert.deepEqual(moveLines(setup({ b: ['4e', '8a'], n: ['5d'] }, 'black')), ['5d 6c', '5d 6e']);
});

test('kings capture in all four directions', () => {
  assert.deepEqual(moveLines(setup({ B: ['5d'], n: ['6e'] }, 'white')), ['5d 7f']);
  assert.deepEqual(moveLines(setup({ B: ['5d'], n: ['6c'] }, 'white')), ['5d 7b']);
  assert.deepEqual(moveLines(setup({ b: ['8a'], B: ['4c'], N: ['3d'] }, 'black')), ['3d 5b']);
});

test('men cannot capture kings (but kings capture kings)', () => {
  assert.deepEqual(moveLines(setup({ b: ['6e'], N: ['5f'] }, 'white')), ['6e 5d']);
  assert.deepEqual(moveLines(setup({ B: ['6e'], N: ['5f'] }, 'white')), ['6e 4g']);
  assert.deepEqual(moveLines(setup({ B: ['5f'], n: ['1h', '4e'] }, 'black')), ['1h 2g', '4e 5d']);
});

test('a multiple capture must be completed: the spec board takes 3d 5b 7d, not 3d 5b', () => {
  const board = parseBoard(SPEC_CAPTURE_BOARD);
  assert.ok(board.ok);
  const position: Position = { board: board.value, turn: 'black', quietPlies: 0 };
  assert.deepEqual(moveLines(position), ['3d 5b 7d']);
  assert.equal(findMove(position, path('3d 5b')), null);
  const after = play(position, '3d 5b 7d');
  assert.equal(
    formatBoard(after.board),
    `   A  B  C  D  E  F  G  H
1 [ ][n][ ][n][ ][n][ ][n] 1
2 [n][ ][n][ ][n][ ][n][ ] 2
3 [ ][ ][ ][ ][ ][n][ ][ ] 3
4 [n][ ][ ][ ][ ][ ][n][ ] 4
5 [ ][ ][ ][ ][ ][ ][ ][ ] 5
6 [b][ ][ ][ ][b][ ][b][ ] 6
7 [ ][b][ ][n][ ][b][ ][b] 7
8 [b][ ][b][ ][b][ ][b][ ] 8
   A  B  C  D  E  F  G  H`,
  );
  assert.equal(after.turn, 'white');
});

test('a king may pass its own starting square but never jumps the same piece twice', () => {
  // The king goes round the four men and comes back home; it cannot go on over 4c again.
  const position = setup({ B: ['5d'], n: ['4c', '2c', '2e', '4e'] }, 'white');
  assert.deepEqual(moveLines(position), ['5d 3b 1d 3f 5d', '5d 3f 1d 3b 5d']);
  const after = play(position, '5d 3b 1d 3f 5d');
  assert.deepEqual(outcome(after), { kind: 'win', winner: 'white', reason: 'no-pieces' });
  assert.equal(after.board[sq('5d')], 2);
});

test('a man reaching the far row is promoted and its move ends there, even mid-capture', () => {
  const position = setup({ b: ['3d'], n: ['2e', '2g'] }, 'white');
  assert.deepEqual(moveLines(position), ['3d 1f'], 'as a king it could go on over 2g, but the move ends');
  const move = findMove(position, path('3d 1f'))!;
  assert.equal(move.promotes, true);
  assert.equal(applyMove(position, move).board[sq('1f')], 2);
  const step = play(setup({ n: ['7b'], b: ['8e'] }, 'black'), '7b 8a');
  assert.equal(step.board[sq('8a')], -2, 'a black man stepping onto row 8 becomes a king');
});

test('priority 1: the capture taking the most pieces is compulsory', () => {
  const position = setup({ b: ['6c', '6a'], n: ['5b', '5d', '3f'] }, 'white');
  assert.deepEqual(moveLines(position), ['6c 4e 2g']);
});

test('priority 2: with equal numbers, capturing with a king beats capturing with a man', () => {
  const position = setup({ b: ['6c'], B: ['3h'], n: ['5d', '4g'] }, 'white');
  assert.deepEqual(moveLines(position), ['3h 5f']);
});

test('priority 3: with equal numbers and capturing piece, the capture taking most kings is compulsory', () => {
  const position = setup({ B: ['5d'], n: ['4c'], N: ['4e'] }, 'white');
  assert.deepEqual(moveLines(position), ['5d 3f']);
});

test('priority 4: with everything else equal, the capture meeting a king earliest is compulsory', () => {
  const position = setup({ B: ['5d'], n: ['2c', '4e'], N: ['4c', '2g'] }, 'white');
  assert.deepEqual(moveLines(position), ['5d 3b 1d']);
});

test('captures left equal by all four priorities are all legal (the player chooses)', () => {
  assert.deepEqual(moveLines(setup({ b: ['6e'], n: ['5d', '5f'] }, 'white')), ['6e 4c', '6e 4g']);
});

test('a capture removes the jumped pieces only, and moves the capturing piece', () => {
  const after = play(setup({ b: ['6c', '8a'], n: ['5d', '3f', '1b'] }, 'white'), '6c 4e 2g');
  assert.deepEqual(after, setup({ b: ['2g', '8a'], n: ['1b'] }, 'black'));
});

test('the side to move without pieces loses, and so does the side with no legal move', () => {
  assert.deepEqual(outcome(setup({ b: ['6e'] }, 'black')), { kind: 'win', winner: 'white', reason: 'no-pieces' });
  assert.deepEqual(outcome(setup({ b: ['8a', '8c'], n: ['7b'] }, 'black')), { kind: 'win', winner: 'white', reason: 'no-moves' });
  assert.equal(outcome(startPosition()), null);
});

test(`the game is drawn after ${QUIET_PLY_LIMIT / 2} moves by each side without a capture or a man move`, () => {
  let position = setup({ B: ['8a'], N: ['1h'] }, 'white');
  const cycle = ['8a 7b', '1h 2g', '7b 8a', '2g 1h'];
  for (let ply = 0; ply < QUIET_PLY_LIMIT; ply++) {
    assert.equal(outcome(position), null, `still playing at ply ${ply}`);
    position = play(position, cycle[ply % 4]!);
  }
  assert.equal(position.quietPlies, QUIET_PLY_LIMIT);
  assert.deepEqual(outcome(position), { kind: 'draw', reason: 'quiet-moves' });
});

test('a man move or a capture starts the quiet-move count again', () => {
  const quiet = setup({ B: ['8a'], b: ['6e'], N: ['1h'] }, 'white', 50);
  assert.equal(play(quiet, '6e 5d').quietPlies, 0);
  assert.equal(play(quiet, '8a 7b').quietPlies, 51);
  const capture = setup({ B: ['6e'], N: ['1h'], n: ['5f', '1b'] }, 'white', 50);
  assert.equal(play(capture, '6e 4g').quietPlies, 0);
});

test('legal moves leave the position untouched', () => {
  const position = setup({ B: ['5d'], n: ['4c', '2c', '2e', '4e'] }, 'white');
  const copy = structuredClone(position);
  legalMoves(position);
  assert.deepEqual(position, copy);
});

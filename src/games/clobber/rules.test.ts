import { test } from 'node:test';
import assert from 'node:assert/strict';
import {
  apply,
  checkMove,
  countMoves,
  hasLegalMove,
  legalMoves,
  positionFromDiagram,
  squareAt,
  startPosition,
  stoneAt,
  toDiagram,
  winner,
  type Color,
  type Position,
} from './rules.js';
import { formatMove, parseMove, parsePlayLine } from './notation.js';

function start(columns = 10, rows = 10): Position {
  const position = startPosition(columns, rows);
  assert.ok(position.ok);
  return position.value;
}

function diagram(lines: string[], toMove: Color = 'black'): Position {
  const position = positionFromDiagram(lines, toMove);
  assert.ok(position.ok, `bad diagram ${lines.join('/')}`);
  return position.value;
}

function move(position: Position, text: string) {
  const parsed = parseMove(text, position);
  assert.ok(parsed.ok, `cannot parse ${text}`);
  return parsed.value;
}

/** The moves of a position in protocol notation, sorted. */
function moveNames(position: Position): string[] {
  return legalMoves(position).map((m) => formatMove(position, m)).sort();
}

/** Perft by an independent naive implementation: a 2-D grid of 'x'/'o'/'.' and explicit offsets. */
function naivePerft(grid: string[][], toMove: 'x' | 'o', depth: number): number {
  if (depth === 0) return 1;
  const them = toMove === 'x' ? 'o' : 'x';
  let total = 0;
  for (let r = 0; r < grid.length; r++) {
    for (let c = 0; c < grid[r]!.length; c++) {
      if (grid[r]![c] !== toMove) continue;
      for (const [dr, dc] of [[1, 0], [-1, 0], [0, 1], [0, -1]] as const) {
        if (grid[r + dr]?.[c + dc] !== them) continue;
        grid[r + dr]![c + dc] = toMove;
        grid[r]![c] = '.';
        total += naivePerft(grid, them, depth - 1);
        grid[r]![c] = toMove;
        grid[r + dr]![c + dc] = them;
      }
    }
  }
  return total;
}

/** From the 10 x 10 start, counted by a separate Python script (nested lists, no shared code). */
const PERFT_10X10_DEPTH_2 = 31_252;
const PERFT_10X10_DEPTH_3 = 5_231_000;

function perft(position: Position, depth: number): number {
  if (depth === 0) return 1;
  const moves = legalMoves(position);
  if (depth === 1) return moves.length;
  let total = 0;
  for (const m of moves) total += perft(apply(position, m), depth - 1);
  return total;
}

test('the default board has 10 columns and 10 rows, every square holding a stone', () => {
  const position = start();
  assert.equal(position.columns, 10);
  assert.equal(position.rows, 10);
  assert.ok(position.cells.every((cell) => cell !== 0));
});

test('a1 holds a black stone', () => {
  for (const [columns, rows] of [[10, 10], [2, 2], [3, 7], [26, 26]] as const) {
    const position = start(columns, rows);
    assert.equal(stoneAt(position, squareAt(position, 1, 1)!), 'black');
  }
});

test('colours alternate like a checkerboard: column + row even is black', () => {
  const position = start(7, 5);
  for (let row = 1; row <= 5; row++) {
    for (let column = 1; column <= 7; column++) {
      assert.equal(stoneAt(position, squareAt(position, column, row)!), (column + row) % 2 === 0 ? 'black' : 'white');
    }
  }
  assert.deepEqual(toDiagram(position), ['xoxoxox', 'oxoxoxo', 'xoxoxox', 'oxoxoxo', 'xoxoxox']);
});

test('no two neighbouring squares start with the same colour', () => {
  const position = start(10, 10);
  for (let row = 1; row <= 10; row++) {
    for (let column = 1; column <= 10; column++) {
      const here = stoneAt(position, squareAt(position, column, row)!);
      for (const [right, up] of [[column + 1, row], [column, row + 1]] as const) {
        const there = squareAt(position, right, up);
        if (there !== null) assert.notEqual(stoneAt(position, there), here);
      }
    }
  }
  // Every adjacent pair is a move for the owner of either stone: 90 horizontal + 90 vertical pairs.
  assert.equal(countMoves(position, 'black'), 180);
  assert.equal(countMoves(position, 'white'), 180);
});

test('board sizes from 2 to 26 are accepted, others are not', () => {
  assert.ok(startPosition(2, 26).ok);
  assert.ok(startPosition(26, 2).ok);
  for (const [columns, rows] of [[1, 10], [10, 1], [27, 10], [10, 27], [0, 0], [2.5, 3]]) {
    assert.deepEqual(startPosition(columns!, rows!), { ok: false, error: 'setup/bad-size' });
  }
});

test('black moves first', () => {
  assert.equal(start().toMove, 'black');
});

test('a move replaces an orthogonally adjacent opponent stone by the moving stone', () => {
  const before = start();
  const after = apply(before, move(before, 'a 1 b 1'));
  assert.equal(stoneAt(after, squareAt(after, 1, 1)!), null);
  assert.equal(stoneAt(after, squareAt(after, 2, 1)!), 'black');
  assert.equal(after.cells.filter((c) => c === 1).length, 50);
  assert.equal(after.cells.filter((c) => c === 2).length, 49);
  assert.equal(before.cells[1], 2, 'apply leaves the original position untouched');
});

test('players alternate after each move', () => {
  let position = start();
  position = apply(position, move(position, 'a 1 b 1'));
  assert.equal(position.toMove, 'white');
  position = apply(position, move(position, 'a 2 b 2'));
  assert.equal(position.toMove, 'black');
});

test('a move may go in each of the four orthogonal directions', () => {
  const position = diagram(['.o.', 'oxo', '.o.']);
  assert.deepEqual(moveNames(position), ['b 2 a 2', 'b 2 b 1', 'b 2 b 3', 'b 2 c 2']);
});

test('a stone cannot take diagonally', () => {
  const position = diagram(['o.o', '.x.', 'o.o']);
  assert.deepEqual(legalMoves(position), []);
  assert.deepEqual(checkMove(position, move(position, 'b 2 a 3')), { ok: false, error: 'move/not-adjacent' });
});

test('a stone cannot move to an empty square', () => {
  const position = diagram(['xo', 'x.']);
  assert.deepEqual(checkMove(position, move(position, 'a 1 b 1')), { ok: false, error: 'move/no-opponent-stone' });
});

test('a stone cannot take a stone of its own colour', () => {
  const position = diagram(['xo', 'x.']);
  assert.deepEqual(checkMove(position, move(position, 'a 1 a 2')), { ok: false, error: 'move/no-opponent-stone' });
});

test("a player cannot move the opponent's stone nor an empty square", () => {
  const position = diagram(['xo', 'x.']);
  assert.deepEqual(checkMove(position, move(position, 'b 2 a 2')), { ok: false, error: 'move/no-own-stone' });
  assert.deepEqual(checkMove(position, move(position, 'b 1 b 2')), { ok: false, error: 'move/no-own-stone' });
});

test('a move cannot jump over a square or stay in place', () => {
  const position = diagram(['x.o', 'oox']);
  assert.deepEqual(checkMove(position, move(position, 'a 2 c 2')), { ok: false, error: 'move/not-adjacent' });
  assert.deepEqual(checkMove(position, move(position, 'a 2 a 2')), { ok: false, error: 'move/not-adjacent' });
});

test('a move cannot wrap around the edge of the board', () => {
  // c1 and a2 are consecutive indices but not neighbours.
  const position = diagram(['ooo', 'xxx']);
  assert.deepEqual(checkMove(position, { from: 2, to: 3 }), { ok: false, error: 'move/not-adjacent' });
  assert.deepEqual(moveNames(position), ['a 1 a 2', 'b 1 b 2', 'c 1 c 2']);
});

test('a move off the board is rejected', () => {
  const position = diagram(['xo', 'ox']);
  assert.deepEqual(parseMove('a 1 a 3', position), { ok: false, error: 'move/off-board' });
  assert.deepEqual(parseMove('c 1 b 1', position), { ok: false, error: 'move/off-board' });
  assert.deepEqual(checkMove(position, { from: -1, to: 0 }), { ok: false, error: 'move/off-board' });
  assert.deepEqual(checkMove(position, { from: 3, to: 4 }), { ok: false, error: 'move/off-board' });
});

test('the player to move with no legal move loses', () => {
  const stuck = diagram(['x.o', '...', 'o.x'], 'black');
  assert.equal(hasLegalMove(stuck), false);
  assert.equal(winner(stuck), 'white');
  const noStones = diagram(['..', '.o'], 'black');
  assert.equal(winner(noStones), 'white');
  const whiteStuck = diagram(['xx', 'x.'], 'white');
  assert.equal(winner(whiteStuck), 'black');
});

test('the game goes on while the player to move has a move', () => {
  const position = diagram(['xo', '..'], 'white');
  assert.equal(winner(position), null);
  const after = apply(position, legalMoves(position)[0]!);
  assert.equal(winner(after), 'white', 'black has no stone left and loses');
});

test('move generation on hand-made positions', () => {
  const cases: { lines: string[]; toMove: Color; moves: string[] }[] = [
    { lines: ['xo', 'ox'], toMove: 'black', moves: ['a 2 a 1', 'a 2 b 2', 'b 1 a 1', 'b 1 b 2'] },
    { lines: ['xo', 'ox'], toMove: 'white', moves: ['a 1 a 2', 'a 1 b 1', 'b 2 a 2', 'b 2 b 1'] },
    { lines: ['x..', '.o.', '..x'], toMove: 'black', moves: [] },
    { lines: ['xoo', '...', 'xxo'], toMove: 'black', moves: ['a 3 b 3', 'b 1 c 1'] },
    { lines: ['xoo', '...', 'xxo'], toMove: 'white', moves: ['b 3 a 3', 'c 1 b 1'] },
    { lines: ['o.x.o', 'x.o.x'], toMove: 'black', moves: ['a 1 a 2', 'c 2 c 1', 'e 1 e 2'] },
    { lines: ['o.x.o', 'x.o.x'], toMove: 'white', moves: ['a 2 a 1', 'c 1 c 2', 'e 2 e 1'] },
    { lines: ['oxo', 'xox', 'oxo'], toMove: 'black', moves: ['a 2 a 1', 'a 2 a 3', 'a 2 b 2', 'b 1 a 1', 'b 1 b 2', 'b 1 c 1', 'b 3 a 3', 'b 3 b 2', 'b 3 c 3', 'c 2 b 2', 'c 2 c 1', 'c 2 c 3'] },
  ];
  for (const { lines, toMove, moves } of cases) {
    assert.deepEqual(moveNames(diagram(lines, toMove)), moves, `${lines.join('/')} ${toMove}`);
  }
});

test('perft matches an independent naive implementation', () => {
  const boards: [number, number, number][] = [[2, 2, 6], [3, 3, 6], [4, 3, 5], [5, 4, 3], [10, 10, 2]];
  for (const [columns, rows, depth] of boards) {
    const position = start(columns, rows);
    const grid = toDiagram(position).map((line) => line.split(''));
    for (let d = 1; d <= depth; d++) {
      assert.equal(perft(position, d), naivePerft(grid, 'x', d), `${columns}x${rows} depth ${d}`);
    }
  }
});

test('perft counts from the 10 x 10 start', () => {
  const position = start();
  assert.equal(perft(position, 1), 180);
  assert.equal(perft(position, 2), PERFT_10X10_DEPTH_2);
  assert.equal(perft(position, 3), PERFT_10X10_DEPTH_3);
});

test('the move syntax reads "c1 r1 c2 r2" and writes it back the same way', () => {
  const position = start();
  const parsed = parseMove('a 1 b 1', position);
  assert.ok(parsed.ok);
  assert.deepEqual(parsed.value, { from: 0, to: 1 });
  assert.equal(formatMove(position, parsed.value), 'a 1 b 1');
  for (const text of ['j 10 j 9', 'e 5 f 5', 'a 2 a 1']) assert.equal(formatMove(position, move(position, text)), text);
  assert.deepEqual(parseMove('  A 1\tB  1 ', position), { ok: true, value: { from: 0, to: 1 } });
  for (const bad of ['a1 b1', 'a 1 b', 'a-1-b-1', '1 a 1 b', 'a 1 b 1 c', '', 'aa 1 b 1', 'a 123 b 1', 'a 1 b 1;']) {
    assert.deepEqual(parseMove(bad, position), { ok: false, error: 'move/syntax' }, bad);
  }
  assert.deepEqual(parseMove('k 1 j 1', position), { ok: false, error: 'move/off-board' });
  assert.deepEqual(parseMove('a 0 a 1', position), { ok: false, error: 'move/off-board' });
});

test('the play line gives the name, and nothing else is a play line', () => {
  assert.deepEqual(parsePlayLine('play clobber alice'), { ok: true, value: { name: 'alice' } });
  assert.deepEqual(parsePlayLine('play clobber'), { ok: true, value: { name: null } });
  assert.deepEqual(parsePlayLine('play clobber a b'), { ok: false, error: 'hello/syntax' });
  assert.deepEqual(parsePlayLine('a 1 b 1'), { ok: false, error: 'hello/syntax' });
  assert.deepEqual(parsePlayLine('play chess bob'), { ok: false, error: 'hello/syntax' });
});

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { Random } from '../../match/random.js';
import { QuoridorBoard } from './board.js';
import { BLACK, WHITE, type Side } from './geometry.js';
import { formatMove, parseMove, parseVertex } from './notation.js';
import { MoveGenerator, WIN, evaluatePosition, historyKeys, positionKey, searchBoard, searchMove } from './search.js';

function position(white: string, black: string, turn: Side, walls = 10): QuoridorBoard {
  const square = (vertex: string) => {
    const v = parseVertex(vertex, 9)!;
    return v.row * 9 + v.column;
  };
  return QuoridorBoard.fromSnapshot({
    size: 9,
    wallsPerPlayer: walls,
    pawns: [square(white), square(black)],
    wallsLeft: [walls, walls],
    slots: new Array<number>(64).fill(0),
    turn,
  });
}

test('the engine takes a win in one', () => {
  const board = position('E8', 'A5', WHITE);
  assert.equal(formatMove(9, searchBoard(board, WHITE, { nodes: 500 }, 's').move), 'E9');
  const black = position('E5', 'C2', BLACK);
  assert.equal(formatMove(9, searchBoard(black, BLACK, { nodes: 500 }, 's').move), 'C1');
});

test('the engine walls off an opponent one step from winning', () => {
  const board = position('E4', 'E2', WHITE);
  const report = searchBoard(board, WHITE, { nodes: 2000 }, 's');
  board.play(WHITE, report.move);
  assert.ok(board.distance(BLACK) > 1, `after ${formatMove(9, report.move)} black is still one step away`);
});

test('a node budget makes the search reproducible; a time budget stops it in time', () => {
  const board = QuoridorBoard.start(9);
  for (const move of ['E8', 'E2', 'E7', 'E3']) board.play(board.turn, (parseMove(9, [move]) as { value: number }).value);
  const a = searchBoard(board, BLACK, { nodes: 3000 }, 'same');
  const b = searchMove(board.snapshot(), BLACK, { nodes: 3000 }, 'same', historyKeys(board));
  assert.deepEqual(a, b);
  assert.ok(a.nodes <= 3001 && a.depth >= 2);
  // The search reads a clock of the test's that moves 1 ms at each look: the budget is checked the
  // same way at any machine speed.
  let looks = 0;
  const timed = searchBoard(QuoridorBoard.start(9), BLACK, { timeMs: 150 }, 't', undefined, () => looks++);
  assert.ok(timed.depth >= 1);
  assert.equal(looks, 152, 'one look to set the deadline, then it stops at the first look past it');
  assert.equal(board.moveCount, 4, 'the board is left as it was');
});

test('history keys list the positions the game went through', () => {
  const board = QuoridorBoard.start(5);
  const start = positionKey(board);
  board.play(BLACK, 17);
  board.play(WHITE, 7);
  assert.equal(historyKeys(board).length, 2);
  assert.equal(historyKeys(board)[0], start);
  assert.notEqual(positionKey(board), start);
});

test('the search (PVS, table, killers, deepening) finds the plain minimax value of its own tree', () => {
  const random = Random.fromSeed('minimax');
  for (const size of [5, 7, 9]) {
    const generator = new MoveGenerator(size);
    const negamax = (board: QuoridorBoard, depth: number, ply: number): number => {
      const side = board.turn;
      const winner = board.winner();
      if (winner !== null) return winner === side ? WIN - ply : -(WIN - ply);
      if (depth === 0) return evaluatePosition(board, side);
      let best = Number.NEGATIVE_INFINITY;
      for (const { move } of generator.generate(board, side)) {
        board.play(side, move);
        best = Math.max(best, -negamax(board, depth - 1, ply + 1));
        board.undo();
      }
      return best;
    };
    for (let trial = 0; trial < 6; trial++) {
      const board = QuoridorBoard.start(size);
      const plies = 4 + random.int(12);
      for (let i = 0; i < plies && !board.isOver(); i++) board.play(board.turn, random.pick(board.legalMoves(board.turn)));
      if (board.isOver()) continue;
      const report = searchMove(board.snapshot(), board.turn, { maxDepth: 3 }, 'm');
      const position = QuoridorBoard.fromSnapshot(board.snapshot());
      assert.equal(report.depth, 3);
      assert.equal(report.score, negamax(position, 3, 0), `size ${size}, trial ${trial}`);
    }
  }
});

test('our engine beats a random mover in all of 50 seeded games', () => {
  let wins = 0;
  for (let game = 0; game < 50; game++) {
    const random = Random.fromSeed(`random-mover-${game}`);
    const board = QuoridorBoard.start(9);
    const engine: Side = game % 2 === 0 ? BLACK : WHITE;
    while (!board.isOver() && board.moveCount < 450) {
      const side = board.turn;
      const move = side === engine ? searchBoard(board, side, { nodes: 150 }, `game-${game}`).move : random.pick(board.legalMoves(side));
      board.play(side, move);
    }
    if (board.winner() === engine) wins++;
  }
  assert.equal(wins, 50);
});

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { QuoridorBoard } from './board.js';
import { BLACK, HORIZONTAL, VERTICAL, WHITE, defaultWalls, isWallMove, wallMove, type Side } from './geometry.js';
import { formatMove, parseMove, parseVertex } from './notation.js';
import { perft } from './perft.js';
import { Random } from '../../match/random.js';

/** A position from QTP text: pawn vertices and walls such as `E5 h`. */
function position(size: number, white: string, black: string, walls: string[] = [], wallsLeft = 5, turn: Side = BLACK): QuoridorBoard {
  const slots = new Array<number>((size - 1) * (size - 1)).fill(0);
  for (const wall of walls) {
    const parsed = parseMove(size, wall.split(' '));
    assert.ok(parsed.ok && isWallMove(size, parsed.value), `bad wall ${wall}`);
    const index = parsed.value - size * size;
    slots[index >> 1] = (index & 1) + 1;
  }
  const square = (vertex: string) => {
    const v = parseVertex(vertex, size)!;
    return v.row * size + v.column;
  };
  return QuoridorBoard.fromSnapshot({
    size,
    wallsPerPlayer: wallsLeft,
    pawns: [square(white), square(black)],
    wallsLeft: [wallsLeft, wallsLeft],
    slots,
    turn,
  });
}

function move(size: number, text: string): number {
  const parsed = parseMove(size, text.split(' '));
  assert.ok(parsed.ok, text);
  return parsed.value;
}

function pawnMoves(board: QuoridorBoard, side: Side): string[] {
  return board
    .legalMoves(side)
    .filter((move) => !isWallMove(board.size, move))
    .map((move) => formatMove(board.size, move))
    .sort();
}

function wallLegal(board: QuoridorBoard, side: Side, text: string): boolean {
  const parsed = parseMove(board.size, text.split(' '));
  assert.ok(parsed.ok);
  return board.isLegal(side, parsed.value);
}

test('perft from the 9x9 start matches the known counts to depth 3', () => {
  // Counts only: how fast the move generator is belongs to the benchmarks (bench/), not to a test a busy machine can fail.
  assert.equal(perft(QuoridorBoard.start(9), 1), 131);
  assert.equal(perft(QuoridorBoard.start(9), 2), 16_677);
  assert.equal(perft(QuoridorBoard.start(9), 3), 2_062_264);
});

test('the start: white on the middle of row 1, black on the middle of the top row, black to move', () => {
  const board = QuoridorBoard.start(9);
  assert.equal(formatMove(9, board.pawns[WHITE]!), 'E1');
  assert.equal(formatMove(9, board.pawns[BLACK]!), 'E9');
  assert.equal(board.turn, BLACK);
  assert.deepEqual([...board.wallsLeft], [10, 10]);
  assert.deepEqual(pawnMoves(board, BLACK), ['D9', 'E8', 'F9']);
  assert.deepEqual(pawnMoves(board, WHITE), ['D1', 'E2', 'F1']);
  assert.equal(formatMove(5, QuoridorBoard.start(5).pawns[BLACK]!), 'C5');
});

test('default wall counts follow floor(7/4 N - 23/4), never below zero', () => {
  assert.deepEqual([3, 5, 7, 9, 11, 25].map(defaultWalls), [0, 3, 6, 10, 13, 38]);
  assert.equal(perft(QuoridorBoard.start(5), 1), 3 + 4 * 4 * 2);
  assert.equal(perft(QuoridorBoard.start(3), 1), 3);
});

test('a pawn jumps straight over an adjacent opponent', () => {
  const board = position(9, 'E5', 'E6');
  assert.deepEqual(pawnMoves(board, WHITE), ['D5', 'E4', 'E7', 'F5']);
  assert.deepEqual(pawnMoves(board, BLACK), ['D6', 'E4', 'E7', 'F6']);
});

test('a wall behind the opponent turns the jump into diagonal sidesteps', () => {
  // Horizontal wall at E7 lies between rows 7 and 6 under columns E and F: behind black at E6.
  const board = position(9, 'E5', 'E6', ['E7 h']);
  assert.deepEqual(pawnMoves(board, WHITE), ['D5', 'D6', 'E4', 'F5', 'F6']);
});

test('the board edge behind the opponent allows sidesteps too', () => {
  const board = position(9, 'E8', 'E9');
  assert.deepEqual(pawnMoves(board, WHITE), ['D8', 'D9', 'E7', 'F8', 'F9']);
  const corner = position(9, 'A8', 'A9');
  assert.deepEqual(pawnMoves(corner, WHITE), ['A7', 'B8', 'B9']);
});

test('a wall beside the opponent removes that sidestep only', () => {
  // Vertical wall at D7 lies between columns D and E beside rows 7 and 6: west of black at E6.
  const board = position(9, 'E5', 'E6', ['E7 h', 'D7 v']);
  assert.deepEqual(pawnMoves(board, WHITE), ['D5', 'E4', 'F5', 'F6']);
});

test('a wall between the pawns forbids both the jump and the sidesteps', () => {
  // Horizontal wall at E6 lies between rows 6 and 5 under columns E and F.
  const board = position(9, 'E5', 'E6', ['E6 h']);
  assert.deepEqual(pawnMoves(board, WHITE), ['D5', 'E4', 'F5']);
  assert.deepEqual(pawnMoves(board, BLACK), ['D6', 'E7', 'F6']);
});

test('sideways jumps work the same way', () => {
  const board = position(9, 'D5', 'E5', ['E6 v']);
  // Vertical wall at E6: between columns E and F beside rows 6 and 5, behind black seen from D5.
  assert.deepEqual(pawnMoves(board, WHITE), ['C5', 'D4', 'D6', 'E4', 'E6']);
  const open = position(9, 'D5', 'E5');
  assert.deepEqual(pawnMoves(open, WHITE), ['C5', 'D4', 'D6', 'F5']);
});

test('walls stop ordinary steps', () => {
  const board = position(9, 'E5', 'A9', ['E6 h', 'E5 v', 'C5 v']);
  // E6 h blocks north of E5; E5 v blocks east of E5 (between E and F, rows 5 and 4); C5 v does not touch E5.
  assert.deepEqual(pawnMoves(board, WHITE), ['D5', 'E4']);
});

test('crossing walls (same vertex) and overlapping walls are illegal; touching walls are fine', () => {
  const board = position(9, 'E1', 'E9', ['E5 h', 'B5 v']);
  assert.equal(wallLegal(board, WHITE, 'E5 v'), false, 'crossing at the same vertex');
  assert.equal(wallLegal(board, WHITE, 'E5 h'), false, 'the same wall');
  assert.equal(wallLegal(board, WHITE, 'D5 h'), false, 'overlaps from the left');
  assert.equal(wallLegal(board, WHITE, 'F5 h'), false, 'overlaps from the right');
  assert.equal(wallLegal(board, WHITE, 'C5 h'), true, 'ends where the other begins');
  assert.equal(wallLegal(board, WHITE, 'G5 h'), true, 'begins where the other ends');
  assert.equal(wallLegal(board, WHITE, 'B6 v'), false, 'overlaps from above');
  assert.equal(wallLegal(board, WHITE, 'B4 v'), false, 'overlaps from below');
  assert.equal(wallLegal(board, WHITE, 'B7 v'), true, 'continues above');
  assert.equal(wallLegal(board, WHITE, 'B3 v'), true, 'continues below');
  assert.equal(wallLegal(board, WHITE, 'E6 v'), true, 'T-junction onto the middle');
  assert.equal(wallLegal(board, WHITE, 'B5 h'), false, 'crosses the vertical wall');
});

test('wall vertices range over columns A..(N-1) and rows 2..N', () => {
  assert.equal(parseMove(9, ['A2', 'h']).ok, true);
  assert.equal(parseMove(9, ['H9', 'v']).ok, true);
  assert.deepEqual(parseMove(9, ['I5', 'h']), { ok: false, error: 'notation/bad-vertex' });
  assert.deepEqual(parseMove(9, ['E1', 'v']), { ok: false, error: 'notation/bad-vertex' });
  assert.deepEqual(parseMove(9, ['J5']), { ok: false, error: 'notation/bad-vertex' });
  assert.deepEqual(parseMove(9, ['E10']), { ok: false, error: 'notation/bad-vertex' });
  assert.deepEqual(parseMove(9, ['E5', 'diagonal']), { ok: false, error: 'notation/bad-orientation' });
  const board = QuoridorBoard.start(9);
  assert.equal(board.isLegal(BLACK, wallMove(9, 63, VERTICAL)), true);
  assert.equal(board.isLegal(BLACK, wallMove(9, 64, HORIZONTAL)), false);
});

test('a wall may not cut either pawn off its goal', () => {
  // A3 h roofs A2 and B2, B3 v walls B2 and B3 off from C, C2 h roofs C1 and D1: white's only way
  // out of the corner is B1 -> C1 -> D1 -> E1; a vertical wall at B2 (east of B1 and B2) closes it.
  const board = position(9, 'A1', 'E9', ['A3 h', 'B3 v', 'C2 h']);
  assert.equal(wallLegal(board, BLACK, 'B2 v'), false, 'closes white in');
  assert.equal(wallLegal(board, BLACK, 'E5 h'), true);
  // H9 h floors H9 and I9, so black's only way out of I9 is west from H9; G9 v closes it.
  const corner = position(9, 'E1', 'I9', ['H9 h']);
  assert.equal(wallLegal(corner, WHITE, 'G9 v'), false, 'cuts black off from row 1');
  assert.equal(wallLegal(corner, BLACK, 'G9 v'), false, 'a player may not cut himself off either');
  assert.equal(wallLegal(corner, WHITE, 'G8 v'), true, 'leaves the way out along row 9');
  const openCorner = position(9, 'E1', 'E9', ['H9 h']);
  assert.equal(wallLegal(openCorner, WHITE, 'G9 v'), true, 'an enclosure without a pawn in it is allowed');
});

test('a player without walls has only pawn moves', () => {
  const board = position(9, 'E1', 'E9', [], 0);
  assert.deepEqual(board.legalMoves(BLACK).length, 3);
  assert.equal(board.isLegal(BLACK, wallMove(9, 0, HORIZONTAL)), false);
  assert.equal(board.countLegalMoves(WHITE), 3);
});

test('reaching the goal row wins and ends the game', () => {
  const board = position(5, 'C4', 'A1', [], 3, WHITE);
  assert.equal(board.winner(), BLACK, 'black already stands on row 1');
  const race = position(5, 'C4', 'A2', [], 3, WHITE);
  assert.equal(race.winner(), null);
  race.play(WHITE, move(5, 'C5'));
  assert.equal(race.winner(), WHITE);
  assert.deepEqual(race.legalMoves(BLACK), []);
  assert.equal(race.countLegalMoves(BLACK), 0);
  assert.equal(perft(race, 2), 0);
});

test('undo restores pawns, walls, counts and the side to move; clones are independent', () => {
  const board = QuoridorBoard.start(9);
  const before = board.snapshot();
  const copy = board.clone();
  board.play(BLACK, move(9, 'E8'));
  board.play(WHITE, move(9, 'E8 h'));
  assert.equal(board.moveCount, 2);
  assert.equal(board.wallsLeft[WHITE], 9);
  assert.deepEqual(copy.snapshot(), before);
  assert.ok(board.undo() && board.undo());
  assert.equal(board.undo(), false);
  assert.deepEqual(board.snapshot(), before);
  assert.equal(perft(board, 2), 16_677);
});

test('snapshots round-trip through plain data', () => {
  const random = Random.fromSeed('snapshot');
  const board = QuoridorBoard.start(7);
  for (let i = 0; i < 20 && !board.isOver(); i++) board.play(board.turn, random.pick(board.legalMoves(board.turn)));
  const rebuilt = QuoridorBoard.fromSnapshot(JSON.parse(JSON.stringify(board.snapshot())));
  assert.deepEqual(rebuilt.snapshot(), board.snapshot());
  assert.deepEqual(rebuilt.legalMoves(WHITE), board.legalMoves(WHITE));
  assert.deepEqual(rebuilt.legalMoves(BLACK), board.legalMoves(BLACK));
});

/** Every move by the plain definition: each fitting wall checked with a full path search. */
function naiveLegalMoves(board: QuoridorBoard, side: Side): number[] {
  if (board.isOver()) return [];
  const moves: number[] = [];
  moves.length = board.pawnTargets(side, moves);
  if (board.wallsLeft[side]! > 0) {
    for (let slot = 0; slot < board.slots.length; slot++) {
      for (const orientation of [HORIZONTAL, VERTICAL]) {
        if (board.wallFits(slot, orientation) && board.wallKeepsPaths(slot, orientation)) moves.push(wallMove(board.size, slot, orientation));
      }
    }
  }
  return moves;
}

test('the barrier-loop shortcut agrees with a full path search in wall-heavy random games', () => {
  const random = Random.fromSeed('cross-check');
  let positions = 0;
  for (const size of [3, 5, 7, 9, 11]) {
    for (let game = 0; game < 12; game++) {
      const board = QuoridorBoard.start(size, 30);
      while (!board.isOver() && board.moveCount < 120) {
        const side = board.turn;
        const moves = board.legalMoves(side);
        assert.deepEqual(moves, naiveLegalMoves(board, side));
        assert.equal(board.countLegalMoves(side), moves.length);
        positions++;
        // Mostly walls, so that boards fill up with enclosures.
        const walls = moves.filter((move) => isWallMove(size, move));
        const move = walls.length > 0 && random.float() < 0.8 ? random.pick(walls) : random.pick(moves.filter((m) => !isWallMove(size, m)));
        board.play(side, move);
      }
      while (board.undo());
      assert.deepEqual(board.snapshot(), QuoridorBoard.start(size, 30).snapshot());
    }
  }
  assert.ok(positions > 1000);
});

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { Random } from '../../match/random.js';
import { searchClobber, WIN_THRESHOLD, type SearchRequest } from './search.js';
import { apply, hasLegalMove, legalMoves, positionFromDiagram, startPosition, toDiagram, type Color, type Position } from './rules.js';

/** The node budget of the strength test: enough to win, small enough for a quick test. */
const TEST_NODES = 500;

function request(position: Position, extra: Partial<SearchRequest> = {}): SearchRequest {
  return { columns: position.columns, rows: position.rows, cells: position.cells, toMove: position.toMove, seed: 1, ...extra };
}

/** Whether the player to move wins with perfect play, by exhaustive search (memoised). */
function solve(position: Position, memo = new Map<string, boolean>()): boolean {
  const key = `${position.toMove}:${toDiagram(position).join('/')}`;
  const known = memo.get(key);
  if (known !== undefined) return known;
  const wins = legalMoves(position).some((move) => !solve(apply(position, move), memo));
  memo.set(key, wins);
  return wins;
}

test('the search beats a uniformly random legal mover in at least 95 of 100 seeded games on 10 x 10', (t) => {
  let wins = 0;
  for (let game = 0; game < 100; game++) {
    const random = Random.fromSeed(`random-mover-${game}`);
    const botColor: Color = game % 2 === 0 ? 'black' : 'white';
    let position = startPosition(10, 10);
    assert.ok(position.ok);
    let current = position.value;
    for (let ply = 0; hasLegalMove(current); ply++) {
      const move =
        current.toMove === botColor
          ? searchClobber(request(current, { maxNodes: TEST_NODES, seed: `${game}:${ply}` })).move!
          : random.pick(legalMoves(current));
      current = apply(current, move);
    }
    // The player to move at the end has no move and has lost.
    if (current.toMove !== botColor) wins++;
  }
  assert.ok(wins >= 95, `the search won ${wins} of 100`);
  t.diagnostic(`clobber search (${TEST_NODES} nodes per move) won ${wins} of 100 games against a random mover`);
});

test('without a budget the search proves the winner of small positions and plays a winning move', () => {
  const random = Random.fromSeed('small-positions');
  const memo = new Map<string, boolean>();
  let checked = 0;
  for (const [columns, rows] of [[2, 2], [3, 2], [3, 3], [4, 3], [4, 4]] as const) {
    const start = startPosition(columns, rows);
    assert.ok(start.ok);
    // The start and positions reached by random play, each side to move.
    let position = start.value;
    while (hasLegalMove(position)) {
      if (columns * rows <= 12 || position.cells.filter((c) => c !== 0).length <= 11) {
        const wins = solve(position, memo);
        const reply = searchClobber(request(position));
        assert.equal(reply.score > WIN_THRESHOLD, wins, toDiagram(position).join('/'));
        assert.equal(reply.score < -WIN_THRESHOLD, !wins, toDiagram(position).join('/'));
        if (wins) assert.equal(solve(apply(position, reply.move!), memo), false, 'the chosen move keeps the win');
        checked++;
      }
      position = apply(position, random.pick(legalMoves(position)));
    }
  }
  assert.ok(checked >= 20, `checked ${checked} positions`);
});

test('small positions of known outcome', () => {
  const cases: { lines: string[]; toMove: Color; wins: boolean }[] = [
    { lines: ['xo'], toMove: 'black', wins: true }, // padded below to two rows
    { lines: ['xxo'], toMove: 'white', wins: false }, // black wins x x o whoever starts
    { lines: ['xxo'], toMove: 'black', wins: true },
    { lines: ['xxoo'], toMove: 'black', wins: false }, // x x o o is a second-player win
    { lines: ['xxoo'], toMove: 'white', wins: false },
  ];
  for (const { lines, toMove, wins } of cases) {
    const position = positionFromDiagram([...lines, '.'.repeat(lines[0]!.length)], toMove);
    assert.ok(position.ok);
    const reply = searchClobber(request(position.value));
    assert.equal(reply.score > WIN_THRESHOLD, wins, `${lines.join('/')} ${toMove}`);
  }
});

test('the same request with a node budget gives the same answer', () => {
  const start = startPosition(10, 10);
  assert.ok(start.ok);
  const a = searchClobber(request(start.value, { maxNodes: 2000, seed: 'same' }));
  const b = searchClobber(request(start.value, { maxNodes: 2000, seed: 'same' }));
  assert.deepEqual(a, b);
  assert.ok(a.nodes <= 2000);
  assert.ok(a.depth >= 1);
});

test('a side without a move gets no move', () => {
  const position = positionFromDiagram(['x.o', '...'], 'black');
  assert.ok(position.ok);
  assert.equal(searchClobber(request(position.value)).move, null);
});

test('a budget too small to finish one iteration still gives a legal move', () => {
  const start = startPosition(10, 10);
  assert.ok(start.ok);
  const reply = searchClobber(request(start.value, { maxNodes: 5 }));
  assert.equal(reply.depth, 0);
  assert.ok(legalMoves(start.value).some((m) => m.from === reply.move!.from && m.to === reply.move!.to));
});
